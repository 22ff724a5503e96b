/**
 * The library's OAuth client against a small authorization server and
 * protected resource on this machine: what MCP 2025-11-25 asks of a client
 * beyond what the official suite counts (`deno task conformance` counts the
 * rest): every place of discovery tried before giving up, a 403 that asks for
 * no new scope refused rather than authorized again, pre-registered
 * credentials sent as given.
 */

import assert from "node:assert/strict";
import { HttpEndpoint } from "../lib/mcp/client/http_endpoint.ts";
import { OAuthAuthorization } from "../lib/mcp/client/oauth.ts";
import { ProtocolError } from "../lib/mcp/shared/errors.ts";

/** What the fixture's servers saw, in order. */
interface Seen {
  paths: string[];
  scopes: string[];
  basic: string[];
}

/**
 * One origin that is both the protected resource (`/mcp`) and its
 * authorization server (issuer `/tenant1`, OpenID Connect path appending
 * only, no registration endpoint): `/mcp` answers 401 without a token and
 * `refuse(token)` with a token.
 */
function fixture(seen: Seen, refuse: (token: string) => Response | undefined) {
  let issued = 0;
  return Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    const url = new URL(request.url);
    seen.paths.push(`${request.method} ${url.pathname}`); // an HTTP URL's path
    const origin = url.origin;
    const challenge = `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource"`;
    switch (url.pathname) { // an HTTP URL's path
      case "/.well-known/oauth-protected-resource":
        return Response.json({
          resource: origin,
          authorization_servers: [`${origin}/tenant1`],
          scopes_supported: ["mcp:read"],
        });
      case "/tenant1/.well-known/openid-configuration":
        return Response.json({
          issuer: `${origin}/tenant1`,
          authorization_endpoint: `${origin}/tenant1/authorize`,
          token_endpoint: `${origin}/tenant1/token`,
          token_endpoint_auth_methods_supported: ["client_secret_basic"],
          response_types_supported: ["code"],
        });
      case "/tenant1/authorize": {
        seen.scopes.push(url.searchParams.get("scope") ?? "");
        const back = new URL(url.searchParams.get("redirect_uri")!);
        back.searchParams.set("code", "c");
        back.searchParams.set("state", url.searchParams.get("state")!);
        return Response.redirect(back, 302);
      }
      case "/tenant1/token":
        seen.basic.push(request.headers.get("authorization") ?? "");
        return Response.json({ access_token: `t${++issued}`, token_type: "Bearer" });
      case "/mcp": {
        await request.body?.cancel();
        const token = request.headers.get("authorization")?.replace(/^Bearer /, "");
        if (token === undefined) {
          return new Response(null, { status: 401, headers: { "www-authenticate": challenge } });
        }
        return refuse(token) ?? new Response(null, { status: 202 });
      }
    }
    return new Response("Not Found", { status: 404 });
  });
}

/** The user agent's part, with no user: take the redirect the authorization endpoint answers. */
async function followRedirect(url: URL): Promise<URL> {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel();
  return new URL(response.headers.get("location")!, url);
}

const NOTIFICATION = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

Deno.test("oauth finds an issuer's metadata at the last place, with pre-registered credentials as given", async () => {
  const seen: Seen = { paths: [], scopes: [], basic: [] };
  await using server = fixture(seen, () => undefined);
  const authorization = new OAuthAuthorization({
    authorize: followRedirect,
    allowHttp: true,
    preRegistered: { clientId: "pre-registered-client", clientSecret: "s3cret" },
  });
  const endpoint = new HttpEndpoint(`http://127.0.0.1:${server.addr.port}/mcp`, { authorization });
  const response = await endpoint.post(NOTIFICATION);
  await response.body?.cancel();
  assert.equal(response.status, 202);
  assert.deepEqual(seen.paths.filter((path) => path.includes("well-known")), [
    "GET /.well-known/oauth-protected-resource",
    "GET /.well-known/oauth-authorization-server/tenant1",
    "GET /.well-known/openid-configuration/tenant1",
    "GET /tenant1/.well-known/openid-configuration",
  ]);
  // No scope in the challenge: every scope the resource lists.
  assert.deepEqual(seen.scopes, ["mcp:read"]);
  assert.deepEqual(seen.basic, [`Basic ${btoa("pre-registered-client:s3cret")}`]);
});

Deno.test("oauth steps up once for a wider scope, and refuses a 403 that asks for nothing new", async () => {
  const seen: Seen = { paths: [], scopes: [], basic: [] };
  const forbidden = (scope: string) =>
    new Response(null, {
      status: 403,
      headers: { "www-authenticate": `Bearer error="insufficient_scope", scope="${scope}"` },
    });
  // The first token lacks mcp:write; the second has it; every later request asks for mcp:admin.
  let asked = 0;
  await using server = fixture(seen, (token) => {
    asked++;
    if (token === "t1") return forbidden("mcp:write");
    return asked > 2 ? forbidden("mcp:admin mcp:write") : undefined;
  });
  const authorization = new OAuthAuthorization({
    authorize: followRedirect,
    allowHttp: true,
    preRegistered: { clientId: "c", clientSecret: "s" },
  });
  const endpoint = new HttpEndpoint(`http://127.0.0.1:${server.addr.port}/mcp`, { authorization });
  const first = await endpoint.post(NOTIFICATION);
  await first.body?.cancel();
  assert.equal(first.status, 202);
  // The step-up asks for what was asked before and what the challenge adds.
  assert.deepEqual(seen.scopes, ["mcp:read", "mcp:read mcp:write"]);
  // mcp:admin is new, so one more authorization; its token is refused the same way, and that
  // 403 is the answer: one step-up for each request.
  const second = await endpoint.post(NOTIFICATION);
  await second.body?.cancel();
  assert.equal(second.status, 403);
  assert.deepEqual(seen.scopes, ["mcp:read", "mcp:read mcp:write", "mcp:read mcp:write mcp:admin"]);
  // The next request meets the same 403, which asks for nothing new: no authorization at all.
  await assert.rejects(endpoint.post(NOTIFICATION), (error: Error) => {
    assert.ok(error instanceof ProtocolError);
    assert.match(error.message, /already asked for/);
    return true;
  });
  assert.equal(seen.scopes.length, 3);
});

Deno.test("oauth names every place it looked when no metadata is found", async () => {
  await using server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    () => new Response(null, { status: 401 }),
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const flow = new OAuthAuthorization({ authorize: followRedirect, allowHttp: true });
  await assert.rejects(
    flow.token(new Response(null, { status: 401 }), new URL(`${origin}/mcp`)),
    (error: Error) => {
      assert.ok(error instanceof ProtocolError);
      assert.match(error.message, /oauth-protected-resource\/mcp answered 401/);
      assert.match(error.message, /oauth-protected-resource answered 401/);
      return true;
    },
  );
});
