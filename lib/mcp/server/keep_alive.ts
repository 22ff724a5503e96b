/**
 * A quiet event stream kept open: a comment written every so often, so that
 * an intermediary's idle timeout does not close it while nothing happens
 * (2026-07-28: for long-lived streams, "in particular the
 * `subscriptions/listen` response stream — servers are encouraged to
 * periodically emit an SSE comment line … as a keep-alive"; a comment
 * carries no event, and a client ignores it).
 *
 * @module
 */

/** How often a stream carries its comment, unless a server is told otherwise (the SDK v2 server's 15 s). */
export const KEEP_ALIVE_MS = 15_000;

const comment = new TextEncoder().encode(": keep-alive\n\n");

/**
 * Write a comment to the event stream `controller` every `ms` (none when
 * `ms` is 0), until the function returned is called or a write fails (the
 * client went away).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * let stop = () => {};
 * const body = new ReadableStream<Uint8Array>({ start: (controller) => void (stop = keepAlive(controller, 10)) });
 * const reader = body.getReader();
 * assert.equal(new TextDecoder().decode((await reader.read()).value), ": keep-alive\n\n");
 * stop();
 * await reader.cancel();
 * ```
 */
export function keepAlive(
  controller: ReadableStreamDefaultController<Uint8Array>,
  ms: number = KEEP_ALIVE_MS,
): () => void {
  if (ms <= 0) return () => {};
  const timer = setInterval(() => {
    try {
      controller.enqueue(comment);
    } catch {
      clearInterval(timer); // closed, or the client went away
    }
  }, ms);
  return () => clearInterval(timer);
}
