/**
 * A request's or a response's body read with a byte bound: what arrives past
 * it is never held.
 *
 * @module
 */

import { ProtocolError } from "./errors.ts";

/**
 * The bytes of `stream`, at most `limit` of them: throws
 * {@linkcode ProtocolError} (and cancels the stream) as soon as more arrive,
 * so that a body past the bound is never held whole.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const body = () => new Response("x".repeat(10)).body!;
 * assert.equal((await readBounded(body(), 10)).length, 10);
 * await assert.rejects(readBounded(body(), 9), /more than 9 bytes/);
 * ```
 */
export async function readBounded(
  stream: ReadableStream<Uint8Array>,
  limit: number,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = stream.getReader();
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > limit) {
        await reader.cancel().catch(() => {});
        throw new ProtocolError(`A body of more than ${limit} bytes exceeds the limit`);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}
