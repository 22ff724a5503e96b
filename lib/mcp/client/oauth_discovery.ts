/**
 * Where an MCP client finds who may authorize it, as MCP's authorization
 * (2025-11-25) orders the places to look: the protected resource's metadata
 * (RFC 9728) at the URL its 401 names, else at the path-suffixed well-known
 * URL, else at the root one; then its first authorization server's metadata,
 * at RFC 8414's and OpenID Connect Discovery's well-known URLs in the order
 * the specification gives. A place that answers anything but 200 is passed
 * over for the next; only when every place has been tried does discovery
 * fail, naming each place and what it answered. A 200 that is not what it
 * should be (a resource that is not this endpoint's, an issuer that is not
 * the one named) is refused at once.
 *
 * @module
 */

import * as oauth from "oauth4webapi";
import { ProtocolError } from "../shared/errors.ts";

/** Options for {@linkcode discoverAuthorization}. */
export interface DiscoveryOptions {
  /** Allow plain http: metadata URLs, for servers on this machine only. @default {false} */
  allowHttp?: boolean;
}

/** What discovery found. */
export interface Discovered {
  /** The protected resource, as its metadata names it: the `resource` to ask a token for. */
  resource: string;
  /** The scopes the protected resource lists (`scopes_supported`), if it lists any. */
  scopesSupported?: string[];
  /** Its authorization server's metadata. */
  authorizationServer: oauth.AuthorizationServer;
}

/**
 * The protected resource's metadata and its first authorization server's,
 * for the MCP `endpoint`, looked for first at `named` (the
 * `resource_metadata` of the 401) when there is one. Rejects with
 * `ProtocolError` naming every place tried when none answered 200.
 *
 * @example An issuer with a path: its metadata is found by OpenID Connect's path appending
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const asked: string[] = [];
 * await using server = Deno.serve({ port: 0, onListen() {} }, ({ url }) => {
 *   const { origin, pathname } = new URL(url);
 *   asked.push(pathname);
 *   if (pathname === "/.well-known/oauth-protected-resource") {
 *     return Response.json({ resource: origin, authorization_servers: [`${origin}/tenant1`] });
 *   }
 *   if (pathname === "/tenant1/.well-known/openid-configuration") {
 *     return Response.json({ issuer: `${origin}/tenant1`, authorization_endpoint: `${origin}/a` });
 *   }
 *   return new Response("Not Found", { status: 404 });
 * });
 * const endpoint = new URL(`http://127.0.0.1:${server.addr.port}/mcp`);
 * const found = await discoverAuthorization(endpoint, undefined, { allowHttp: true });
 * assert.equal(found.authorizationServer.authorization_endpoint, `${endpoint.origin}/a`);
 * assert.deepEqual(asked, [
 *   "/.well-known/oauth-protected-resource/mcp",
 *   "/.well-known/oauth-protected-resource",
 *   "/.well-known/oauth-authorization-server/tenant1",
 *   "/.well-known/openid-configuration/tenant1",
 *   "/tenant1/.well-known/openid-configuration",
 * ]);
 * ```
 */
export async function discoverAuthorization(
  endpoint: URL,
  named: URL | undefined,
  options: DiscoveryOptions = {},
): Promise<Discovered> {
  const allowHttp = options.allowHttp ?? false;
  const described = await firstFound(
    `the protected resource metadata of ${endpoint.href}`,
    named === undefined ? protectedResourceLocations(endpoint) : [named],
    allowHttp,
  );
  const metadata = await described.json().catch(() => undefined);
  const resource = metadata?.resource;
  if (
    typeof resource !== "string" || !URL.canParse(resource) || !covers(new URL(resource), endpoint)
  ) {
    throw new ProtocolError(
      `The protected resource metadata at ${described.url} names the resource ` +
        `${JSON.stringify(resource)}, which is not ${endpoint.href} or a prefix of it`,
    );
  }
  const issuer = metadata.authorization_servers?.[0];
  if (typeof issuer !== "string" || !URL.canParse(issuer)) {
    throw new ProtocolError(`${described.url} names no authorization server`);
  }
  const issuerUrl = new URL(issuer);
  const answered = await firstFound(
    `the metadata of the authorization server ${issuer}`,
    authorizationServerLocations(issuerUrl),
    allowHttp,
  );
  const scopes = metadata.scopes_supported;
  return {
    resource,
    ...(Array.isArray(scopes) && scopes.every((s) => typeof s === "string") && scopes.length > 0
      ? { scopesSupported: scopes }
      : {}),
    authorizationServer: await oauth.processDiscoveryResponse(issuerUrl, answered),
  };
}

/** RFC 9728 §3.1: the path-suffixed well-known URL of `endpoint`, then the root one. */
function protectedResourceLocations(endpoint: URL): URL[] {
  const root = new URL("/.well-known/oauth-protected-resource", endpoint);
  if (endpoint.pathname === "/") return [root]; // an HTTP URL's path
  return [new URL(`/.well-known/oauth-protected-resource${endpoint.pathname}`, endpoint), root]; // an HTTP URL's path
}

/**
 * MCP 2025-11-25's order for an issuer: with a path, RFC 8414's path
 * insertion, OpenID Connect's path insertion, then its path appending;
 * without one, RFC 8414's then OpenID Connect's.
 */
function authorizationServerLocations(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/$/, ""); // an HTTP URL's path
  if (path === "") {
    return [
      new URL("/.well-known/oauth-authorization-server", issuer),
      new URL("/.well-known/openid-configuration", issuer),
    ];
  }
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer),
    new URL(`/.well-known/openid-configuration${path}`, issuer),
    new URL(`${path}/.well-known/openid-configuration`, issuer),
  ];
}

/** Whether the resource `named` in metadata is `endpoint` or a prefix of it, on the same origin. */
function covers(named: URL, endpoint: URL): boolean {
  if (named.origin !== endpoint.origin) return false;
  const path = named.pathname.replace(/\/$/, ""); // an HTTP URL's path
  return endpoint.pathname === path || endpoint.pathname.startsWith(`${path}/`); // an HTTP URL's path
}

/** The first of `places` to answer 200 (JSON asked for, no redirect followed). */
async function firstFound(what: string, places: URL[], allowHttp: boolean): Promise<Response> {
  const answers: string[] = [];
  for (const place of places) {
    if (place.protocol !== "https:" && !(allowHttp && place.protocol === "http:")) {
      throw new ProtocolError(`Will not fetch ${what} from ${place.href}: not https:`);
    }
    const response = await fetch(place, {
      headers: { accept: "application/json" },
      redirect: "manual",
    });
    if (response.status === 200) return response;
    await response.body?.cancel();
    answers.push(`${place.href} answered ${response.status}`);
  }
  throw new ProtocolError(`Found ${what} nowhere: ${answers.join("; ")}`);
}
