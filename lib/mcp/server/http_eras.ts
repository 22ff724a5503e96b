/**
 * What a Streamable HTTP server answers where the transport of its versions'
 * era differs from the other's. A server that speaks no legacy version has
 * no sessions, and answers what only sessions had as 2026-07-28 asks of a
 * server of that revision alone ("HTTP GET or DELETE to the MCP endpoint:
 * respond with `405 Method Not Allowed`"; "An `Mcp-Session-Id` header on a
 * request: ignore it"). In a legacy session, a request whose
 * `MCP-Protocol-Version` names a version the server's sessions do not speak
 * is refused ("If the server receives a request with an invalid or
 * unsupported MCP-Protocol-Version, it MUST respond with 400 Bad Request"),
 * naming the versions they do.
 *
 * @module
 */

import { LEGACY_VERSIONS } from "../shared/versions.ts";
import { refusal } from "./http_replies.ts";

/**
 * The legacy versions of `versions`, those a session may agree on, in their
 * order: none for a server of modern versions alone, which has no sessions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(sessionVersions(["2026-07-28", "2025-06-18"]), ["2025-06-18"]);
 * assert.deepEqual(sessionVersions(["2026-07-28"]), []);
 * ```
 */
export function sessionVersions(versions: readonly string[]): string[] {
  return versions.filter((version) => (LEGACY_VERSIONS as readonly string[]).includes(version));
}

/**
 * The 405 a server without sessions (one of `versions`, all modern) answers
 * a GET or a DELETE with: its one method is POST.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const refused = noSessions("GET", ["2026-07-28"]);
 * assert.equal(refused.status, 405);
 * assert.equal(refused.headers.get("allow"), "POST");
 * assert.match((await refused.json()).error.message, /speaks 2026-07-28 only/);
 * ```
 */
export function noSessions(method: string, versions: readonly string[]): Response {
  return refusal(
    405,
    `This server speaks ${versions.join(", ")} only: it has no sessions, so no GET stream ` +
      `and nothing to DELETE (${method}); every request is a POST that names its version in _meta`,
    { headers: { allow: "POST" } },
  );
}

/**
 * What a server that speaks a modern version answers a POSTed notification
 * or response in no session: a notification is accepted (202), with nothing
 * to do (2026-07-28 defines none a client sends over HTTP), as the SDK v2
 * server and FastMCP accept it; a response answers nothing, since such a
 * server asks nothing outside a session (400).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(sessionlessMessage("notification").status, 202);
 * const refused = sessionlessMessage("response");
 * assert.equal(refused.status, 400);
 * assert.match((await refused.json()).error.message, /asks nothing outside/);
 * ```
 */
export function sessionlessMessage(kind: "notification" | "response"): Response {
  if (kind === "notification") return new Response(null, { status: 202 });
  return refusal(400, "A response in no session: this server asks nothing outside one");
}

/**
 * The 400 for a request in a legacy session whose `MCP-Protocol-Version`,
 * `header`, names a version the server's sessions do not speak (`legacy`),
 * or `undefined` when it names one they speak or none (a client of 2025-03-26
 * sends none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(sessionVersionRefusal("2025-06-18", ["2025-06-18"]), undefined);
 * assert.equal(sessionVersionRefusal(null, ["2025-06-18"]), undefined);
 * const refused = sessionVersionRefusal("2026-07-28", ["2025-06-18"])!;
 * assert.equal(refused.status, 400);
 * assert.match((await refused.json()).error.message, /2026-07-28 .*; supported: 2025-06-18$/);
 * ```
 */
export function sessionVersionRefusal(
  header: string | null,
  legacy: readonly string[],
): Response | undefined {
  if (header === null || legacy.includes(header)) return undefined;
  return refusal(
    400,
    `Unsupported MCP-Protocol-Version ${header} in a session of this server; ` +
      `supported: ${legacy.join(", ")}`,
  );
}
