/**
 * How the Streamable HTTP transport reads a response and names what went
 * wrong: a response's media type and its status line.
 *
 * @module
 */

/**
 * The media type of `response`, without its parameters, in lower case (`""` for none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const response = new Response("", { headers: { "content-type": "Text/Event-Stream; charset=utf-8" } });
 * assert.equal(mediaType(response), "text/event-stream");
 * ```
 */
export function mediaType(response: Response): string {
  return (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
}

/**
 * The status of `response` as a person reads it: its code, and its text if any.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(statusLine(new Response(null, { status: 404, statusText: "Not Found" })), "404 Not Found");
 * assert.equal(statusLine(new Response(null, { status: 500 })), "500");
 * ```
 */
export function statusLine(response: Response): string {
  return `${response.status}${response.statusText === "" ? "" : ` ${response.statusText}`}`;
}
