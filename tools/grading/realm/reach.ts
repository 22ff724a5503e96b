// In a learner's realm: the one way a library function that the unit grades
// reports that it was reached. The realm's first module imports this one, so
// it takes the realm's postMessage before any learner code runs and can
// replace it; a learner's code that calls the library's copy of a graded
// function is then seen by the sandbox's main thread, whatever it does after.

/// <reference lib="deno.worker" />

const post = typeof globalThis.postMessage === "function"
  ? globalThis.postMessage.bind(globalThis)
  : undefined;

/**
 * Tell the sandbox that the library's own `name` was called. Outside a
 * learner's realm (the sandbox's main thread, a notebook) it does nothing.
 *
 * @example
 * ```ts
 * reachedLibrary("splitFrames");
 * ```
 */
export function reachedLibrary(name: string): void {
  post?.({ reached: String(name) });
}
