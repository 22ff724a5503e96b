/**
 * MCP's authorization (2025-11-25) for a client that meets a 401 or a 403:
 * where to ask (`oauth_discovery.ts`), which scopes to ask for (those the
 * challenge names, else those the protected resource lists, else none; on a
 * 403 `insufficient_scope`, those asked for before and the challenge's), who
 * the client is (pre-registered credentials, else a client ID metadata
 * document's URL when the authorization server takes one, else dynamic
 * client registration, RFC 7591), and the authorization code grant with PKCE
 * (S256) and the `resource` indicator (RFC 8707), the token endpoint
 * authenticated as the client was registered (`client_secret_basic`,
 * `client_secret_post` or `none`). The protocol work is oauth4webapi's, a
 * well-kept library: this course does not teach OAuth.
 *
 * @module
 */

import * as oauth from "oauth4webapi";
import { ProtocolError } from "../shared/errors.ts";
import type { Authorization } from "./http_endpoint.ts";
import { bearerChallenge } from "./oauth_challenge.ts";
import { discoverAuthorization } from "./oauth_discovery.ts";

/** Options for {@linkcode OAuthAuthorization}. */
export interface OAuthOptions {
  /**
   * The user agent's part: visit the authorization `url` and resolve with the
   * URL the authorization server redirected to (it carries the code).
   */
  authorize(url: URL): Promise<URL>;
  /** Where the authorization server sends the user back. @default {"http://127.0.0.1/callback"} */
  redirectUri?: string;
  /** How the client names itself when it registers. @default {"external-tools-with-mcp"} */
  clientName?: string;
  /**
   * Credentials the authorization server's operator issued to this client,
   * used before anything else. @default {undefined} (the client registers)
   */
  preRegistered?: { clientId: string; clientSecret?: string };
  /**
   * The https: URL of this client's metadata document, its client id where
   * the authorization server says `client_id_metadata_document_supported`.
   * @default {undefined} (the client registers)
   */
  clientMetadataUrl?: string;
  /** Allow plain http:, for servers on this machine only. @default {false} */
  allowHttp?: boolean;
}

/** The token endpoint authentication methods this client can use, in the order it prefers them. */
const METHODS = ["client_secret_basic", "client_secret_post", "none"] as const;

/**
 * Gets a bearer token the way MCP's authorization asks, after a 401, and a
 * token for a wider scope after a 403 `insufficient_scope` that asks for a
 * scope not asked for before (a 403 that asks for nothing new is refused:
 * authorizing again would not change the answer).
 *
 * @example A resource that is not HTTP is refused
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const flow = new OAuthAuthorization({ authorize: async (url) => url });
 * const challenge = new Response(null, { status: 401 });
 * await assert.rejects(flow.token(challenge, new URL("file:///x")), /resource/);
 * ```
 */
export class OAuthAuthorization implements Authorization {
  readonly #options: OAuthOptions;
  /** The scopes asked for in the last authorization. */
  #scopes: string[] = [];
  /** The clients registered, by the authorization server's issuer. */
  readonly #registered = new Map<string, oauth.Client>();

  /** A flow whose user agent is `options.authorize`. */
  constructor(options: OAuthOptions) {
    const document = options.clientMetadataUrl;
    if (document !== undefined && !isMetadataDocumentUrl(document)) {
      throw new TypeError(
        `A client ID metadata document's URL is https: with a path, not ${document}`,
      );
    }
    this.#options = options;
  }

  /** A bearer token for `resource`, which refused a request with `challenge` (a 401 or 403). */
  async token(challenge: Response, resource: URL): Promise<string> {
    if (resource.protocol !== "https:" && resource.protocol !== "http:") {
      throw new ProtocolError(`No authorization for the resource ${resource.href}: not HTTP`);
    }
    const allowHttp = this.#options.allowHttp ?? false;
    const insecure = { [oauth.allowInsecureRequests]: allowHttp };
    // The canonical resource (RFC 8707): the endpoint's URL without query or fragment.
    const canonical = new URL(resource);
    canonical.search = "";
    canonical.hash = "";
    const redirectUri = this.#options.redirectUri ?? "http://127.0.0.1/callback";
    const said = bearerChallenge(challenge);
    try {
      const asked = this.#scopesFor(challenge.status, said.error, said.scope);
      const found = await discoverAuthorization(canonical, said.resourceMetadata, { allowHttp });
      const scopes = asked ?? found.scopesSupported ?? [];
      const as = found.authorizationServer;
      const { client, authentication } = await this.#client(as, redirectUri, insecure);
      // The user agent's round trip: the code comes back on the redirect.
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const url = new URL(as.authorization_endpoint!);
      url.search = new URLSearchParams({
        response_type: "code",
        client_id: client.client_id,
        redirect_uri: redirectUri,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state,
        resource: found.resource,
        ...(scopes.length === 0 ? {} : { scope: scopes.join(" ") }),
      }).toString();
      this.#scopes = scopes;
      const redirected = await this.#options.authorize(url);
      const parameters = oauth.validateAuthResponse(as, client, redirected, state);
      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(
          as,
          client,
          authentication,
          parameters,
          redirectUri,
          verifier,
          { ...insecure, additionalParameters: { resource: found.resource } },
        ),
      );
      return tokens.access_token;
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      throw new ProtocolError(
        `Could not get a token for ${canonical.href}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }

  /**
   * The scopes to ask for after a refusal with `status`: for a 401, those
   * the challenge names (`undefined`: none named); for a 403
   * `insufficient_scope`, those asked for before and the challenge's.
   */
  #scopesFor(status: number, error?: string, named?: string[]): string[] | undefined {
    if (status !== 403) return named;
    if (error !== "insufficient_scope") {
      throw new ProtocolError(`The server refused with 403 (${error ?? "no error named"})`);
    }
    const wider = (named ?? []).filter((scope) => !this.#scopes.includes(scope));
    if (wider.length === 0) {
      throw new ProtocolError(
        `The server refused with 403 insufficient_scope, asking for ${
          named?.join(" ") ?? "no scope"
        }, which the token was already asked for: authorizing again would not change the answer`,
      );
    }
    return [...this.#scopes, ...wider];
  }

  /** Who this client is to `as`, and how it authenticates at the token endpoint. */
  async #client(
    as: oauth.AuthorizationServer,
    redirectUri: string,
    insecure: { [oauth.allowInsecureRequests]: boolean },
  ): Promise<{ client: oauth.Client; authentication: oauth.ClientAuth }> {
    const supported = as.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
    const { preRegistered, clientMetadataUrl } = this.#options;
    if (preRegistered !== undefined) {
      const { clientId, clientSecret } = preRegistered;
      const method = clientSecret === undefined
        ? "none"
        : METHODS.find((m) => m !== "none" && supported.includes(m)) ?? "client_secret_basic";
      return {
        client: { client_id: clientId },
        authentication: clientAuthentication(method, clientSecret),
      };
    }
    if (clientMetadataUrl !== undefined && as.client_id_metadata_document_supported === true) {
      return { client: { client_id: clientMetadataUrl }, authentication: oauth.None() };
    }
    if (as.registration_endpoint === undefined) {
      throw new ProtocolError(
        `The authorization server ${as.issuer} has no registration endpoint, ` +
          "and this client has no pre-registered credentials" +
          (clientMetadataUrl === undefined ? "" : " and it takes no client ID metadata document"),
      );
    }
    let client = this.#registered.get(as.issuer);
    if (client === undefined) {
      // Register, asking for the first way of authenticating that the server supports.
      const wanted = METHODS.find((method) => supported.includes(method));
      if (wanted === undefined) {
        throw new ProtocolError(
          `The authorization server supports none of ${METHODS.join(", ")} at its token endpoint`,
        );
      }
      client = await registration(
        await oauth.dynamicClientRegistrationRequest(as, {
          client_name: this.#options.clientName ?? "external-tools-with-mcp",
          // A client on the user's machine with a loopback redirect: "native" (SEP-837).
          application_type: "native",
          redirect_uris: [redirectUri],
          grant_types: ["authorization_code"],
          response_types: ["code"],
          token_endpoint_auth_method: wanted,
        }, insecure),
      );
      client.token_endpoint_auth_method ??= wanted;
      this.#registered.set(as.issuer, client);
    }
    return {
      client,
      authentication: clientAuthentication(client.token_endpoint_auth_method, client.client_secret),
    };
  }
}

/** A client ID metadata document's URL: https:, with a path. */
function isMetadataDocumentUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return url.protocol === "https:" && url.pathname !== "/"; // an HTTP URL's path
}

/**
 * The client a registration response describes. RFC 7591 asks for
 * `client_secret_expires_at` beside a secret, and oauth4webapi refuses a
 * response without it; servers leave it out (the conformance suite's does),
 * and the SDK's client takes them, so this client takes a secret without it
 * too, and checks the rest: a 201, a JSON object, a `client_id`.
 */
async function registration(response: Response): Promise<oauth.Client> {
  if (response.status !== 201 && response.status !== 200) {
    throw new ProtocolError(`Client registration answered ${response.status}`);
  }
  const body = await response.json().catch(() => undefined);
  if (typeof body !== "object" || body === null || typeof body.client_id !== "string") {
    throw new ProtocolError("Client registration answered without a client_id");
  }
  if (body.client_secret !== undefined && typeof body.client_secret !== "string") {
    throw new ProtocolError("Client registration answered a client_secret that is not a string");
  }
  return body as oauth.Client;
}

function clientAuthentication(method: unknown, secret: unknown): oauth.ClientAuth {
  if (method === "none") return oauth.None();
  if (typeof secret !== "string") {
    throw new ProtocolError(`The client was registered for ${method} but given no secret`);
  }
  if (method === "client_secret_post") return oauth.ClientSecretPost(secret);
  if (method === "client_secret_basic") return clientSecretBasic(secret);
  throw new ProtocolError(`The client was registered for ${method}, which it cannot use`);
}

/**
 * `client_secret_basic` (RFC 6749 §2.3.1): the id and secret form-encoded,
 * joined by a colon, in base64. Form-encoded as the URL Standard does it,
 * which leaves `-._*` as they are: oauth4webapi escapes those too, which
 * decodes the same but is refused by servers that compare the id undecoded
 * (the conformance suite's, for `pre-registered-client`).
 */
function clientSecretBasic(secret: string): oauth.ClientAuth {
  const encode = (text: string) => new URLSearchParams({ x: text }).toString().slice(2);
  return (_as, client, _body, headers) => {
    headers.set("authorization", `Basic ${btoa(`${encode(client.client_id)}:${encode(secret)}`)}`);
  };
}
