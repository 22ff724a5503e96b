// Private helpers for waiting: a bounded wait, a pause, and draining a stream.

/** `promise`'s value if it settles within `ms`, otherwise `undefined`; the timer never lingers. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) =>
    timer = setTimeout(() => resolve(undefined), ms)
  );
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolve after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Options for {@linkcode drain}. */
export interface DrainOptions {
  /** Receives each chunk; it must use the chunk before it returns, as its buffer is reused. */
  onChunk?: (chunk: Uint8Array) => void;
  /** After this many bytes, stop reading (without cancelling) until `signal` aborts. */
  maxBytes?: number;
}

/**
 * Read the byte stream `stream` (a child's pipe) into one reused buffer, so
 * that draining allocates nothing, until it ends, or `maxBytes` have been
 * read; cancel it as soon as `signal` aborts. Read errors end the draining.
 */
export async function drain(
  stream: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  { onChunk, maxBytes = Infinity }: DrainOptions = {},
): Promise<void> {
  const reader = stream.getReader({ mode: "byob" });
  const stop = () => reader.cancel().catch(() => {});
  signal.addEventListener("abort", stop, { once: true });
  let buffer = new ArrayBuffer(65536);
  let total = 0;
  try {
    // Deno never settles a BYOB read of a byte stream that an earlier reader read to
    // its end, but the new reader's `closed` has settled by the next macrotask.
    const ended = reader.closed.then(() => true, () => true);
    if (await within(ended, 0)) return;
    while (!signal.aborted && total < maxBytes) {
      const { value, done } = await reader.read(new Uint8Array(buffer));
      if (done) return;
      total += value.length;
      onChunk?.(value);
      buffer = value.buffer as ArrayBuffer;
    }
    // Past the budget: leave the rest unread (a writer may block) until the end.
    await new Promise((resolve) => {
      if (signal.aborted) resolve(undefined);
      signal.addEventListener("abort", resolve, { once: true });
    });
  } catch {
    // A read error ends the stream as far as anyone can read it.
  } finally {
    signal.removeEventListener("abort", stop);
    if (signal.aborted) await stop();
    reader.releaseLock();
  }
}
