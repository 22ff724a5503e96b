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

/**
 * Read `stream` to its end, handing each chunk to `onChunk` (or dropping it),
 * and cancel it as soon as `signal` aborts. Read errors end the draining.
 */
export async function drain(
  stream: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  onChunk: (chunk: Uint8Array) => void = () => {},
): Promise<void> {
  const reader = stream.getReader();
  const stop = () => reader.cancel().catch(() => {});
  signal.addEventListener("abort", stop, { once: true });
  try {
    if (signal.aborted) return;
    while (true) {
      const { value, done } = await reader.read();
      if (done) return;
      onChunk(value);
    }
  } catch {
    // A read error ends the stream as far as anyone can read it.
  } finally {
    signal.removeEventListener("abort", stop);
    if (signal.aborted) await stop();
    reader.releaseLock();
  }
}
