/**
 * MCP's authorization (2025-06-18) for a client that meets a 401: the
 * protected resource's metadata (RFC 9728), its authorization server's
 * (RFC 8414), dynamic client registration (RFC 7591), the authorization code
 * grant with PKCE (S256) and the `resource` indicator (RFC 8707), and the
 * token endpoint authenticated as the server registered the client
 * (`client_secret_basic`, `client_secret_post` or `none`). The protocol work
 * is oauth4webapi's, a well-kept library: this course does not teach OAuth.
 *
 * @module
 */

import * as oauth from "oauth4webapi";
import { ProtocolError } from "../shared/errors.ts";
import type { Authorization } from "./http_endpoint.ts";

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
  /** Allow plain http:, for servers on this machine only. @default {false} */
  allowHttp?: boolean;
}

/** The token endpoint authentication methods this client can use, in the order it prefers them. */
const METHODS = ["client_secret_basic", "client_secret_post", "none"] as const;

/**
 * Gets a bearer token the way MCP's authorization asks, after a 401.
 *
 * @example A redirect that the authorization server did not make is refused
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

  /** A flow whose user agent is `options.authorize`. */
  constructor(options: OAuthOptions) {
    this.#options = options;
  }

  /** A bearer token for `resource`, which refused a request with `challenge`. */
  async token(challenge: Response, resource: URL): Promise<string> {
    if (resource.protocol !== "https:" && resource.protocol !== "http:") {
      throw new ProtocolError(`No authorization for the resource ${resource.href}: not HTTP`);
    }
    const insecure = { [oauth.allowInsecureRequests]: this.#options.allowHttp ?? false };
    // The canonical resource (RFC 8707): the endpoint's URL without query or fragment.
    const canonical = new URL(resource);
    canonical.search = "";
    canonical.hash = "";
    const redirectUri = this.#options.redirectUri ?? "http://127.0.0.1/callback";
    try {
      // The protected resource says which authorization server to ask.
      const named = metadataUrl(challenge);
      const described = named === undefined
        ? await oauth.resourceDiscoveryRequest(canonical, insecure)
        : await fetch(named, { headers: { accept: "application/json" }, redirect: "manual" });
      const protectedResource = await oauth.processResourceDiscoveryResponse(canonical, described);
      const issuer = protectedResource.authorization_servers?.[0];
      if (issuer === undefined) {
        throw new ProtocolError(`${canonical.href} names no authorization server`);
      }
      const issuerUrl = new URL(issuer);
      const as = await oauth.processDiscoveryResponse(
        issuerUrl,
        await oauth.discoveryRequest(issuerUrl, { ...insecure, algorithm: "oauth2" }),
      );
      // Register, asking for the first way of authenticating that the server supports.
      const supported = as.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
      const wanted = METHODS.find((method) => supported.includes(method));
      if (wanted === undefined) {
        throw new ProtocolError(
          `The authorization server supports none of ${METHODS.join(", ")} at its token endpoint`,
        );
      }
      const client = await registration(
        await oauth.dynamicClientRegistrationRequest(as, {
          client_name: this.#options.clientName ?? "external-tools-with-mcp",
          redirect_uris: [redirectUri],
          grant_types: ["authorization_code"],
          response_types: ["code"],
          token_endpoint_auth_method: wanted,
        }, insecure),
      );
      const method = client.token_endpoint_auth_method ?? wanted;
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
        resource: canonical.href,
      }).toString();
      const redirected = await this.#options.authorize(url);
      const parameters = oauth.validateAuthResponse(as, client, redirected, state);
      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(
          as,
          client,
          clientAuthentication(method, client.client_secret),
          parameters,
          redirectUri,
          verifier,
          { ...insecure, additionalParameters: { resource: canonical.href } },
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

/** The `resource_metadata` a 401's `WWW-Authenticate` names, if it names one. */
function metadataUrl(challenge: Response): URL | undefined {
  const header = challenge.headers.get("www-authenticate") ?? "";
  const match = /resource_metadata="([^"]+)"/.exec(header);
  return match === null ? undefined : new URL(match[1]);
}

function clientAuthentication(method: unknown, secret: unknown): oauth.ClientAuth {
  if (method === "none") return oauth.None();
  if (typeof secret !== "string") {
    throw new ProtocolError(`The client was registered for ${method} but given no secret`);
  }
  if (method === "client_secret_post") return oauth.ClientSecretPost(secret);
  if (method === "client_secret_basic") return oauth.ClientSecretBasic(secret);
  throw new ProtocolError(`The client was registered for ${method}, which it cannot use`);
}
