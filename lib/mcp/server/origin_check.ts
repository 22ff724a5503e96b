/**
 * The check against DNS rebinding that a local Streamable HTTP endpoint owes
 * every request: a browser's `Origin` must be one allowed, and a server bound
 * to a loopback address answers only requests for a loopback `Host`.
 *
 * @module
 */

import { refusal } from "./http_replies.ts";

/** How a loopback endpoint's origins and hosts are written. */
const LOOPBACK = ["127.0.0.1", "localhost", "[::1]"];

/**
 * The origins and hosts an endpoint on `hostname`:`port` answers: by default
 * its own loopback origins (`http://127.0.0.1:PORT`, `http://localhost:PORT`,
 * `http://[::1]:PORT`); a request with no `Origin` (not from a browser) is
 * not refused for it. A server bound to a loopback address checks `Host`
 * too; one bound elsewhere does not.
 *
 * @example A page on another origin is refused
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const check = new OriginCheck("127.0.0.1", 8080);
 * const request = (headers: Record<string, string>) =>
 *   new Request("http://127.0.0.1:8080/mcp", { headers: { host: "127.0.0.1:8080", ...headers } });
 * assert.equal(check.refusal(request({})), undefined);
 * assert.equal(check.refusal(request({ origin: "http://localhost:8080" })), undefined);
 * assert.equal(check.refusal(request({ origin: "http://evil.example" }))?.status, 403);
 * assert.equal(check.refusal(request({ host: "evil.example:8080" }))?.status, 403);
 * ```
 */
export class OriginCheck {
  readonly #origins: readonly string[];
  readonly #hosts: readonly string[];

  /** The check for an endpoint on `hostname`:`port`, allowing `allowedOrigins` if given. */
  constructor(hostname: string, port: number, allowedOrigins?: readonly string[]) {
    this.#origins = allowedOrigins ?? LOOPBACK.map((name) => `http://${name}:${port}`);
    this.#hosts = ["127.0.0.1", "localhost", "::1"].includes(hostname)
      ? LOOPBACK.map((name) => `${name}:${port}`)
      : [];
  }

  /** A 403 for `request` from an origin, or for a host, not allowed; `undefined` when it may go on. */
  refusal(request: Request): Response | undefined {
    const origin = request.headers.get("origin");
    if (origin !== null && !this.#origins.includes(origin)) {
      return refusal(403, `Requests from origin ${origin} are not allowed`);
    }
    const host = request.headers.get("host");
    if (this.#hosts.length > 0 && (host === null || !this.#hosts.includes(host))) {
      return refusal(403, `Requests for host ${host} are not allowed`);
    }
    return undefined;
  }
}
