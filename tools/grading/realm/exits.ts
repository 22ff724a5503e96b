// In a learner's realm: every way the realm's own code can end it (`Deno.exit`,
// and node's `process.exit`, which calls it; `close()`) first tells the
// sandbox's main thread, which a worker's ending does not otherwise do, so
// that the case under way fails at once, naming the exit, instead of being
// waited out. The realm's first modules import this one, before any learner
// code runs, and the replacements cannot be replaced again.

/// <reference lib="deno.worker" />

import { fixed } from "./fixed.ts";

const post = globalThis.postMessage.bind(globalThis);

/** `end`, called only after the main thread has been told the realm ends with `code`. */
function told<A extends unknown[]>(end: (...args: A) => unknown, code: (...args: A) => number) {
  return (...args: A): never => {
    post({ exited: code(...args) });
    end(...args);
    // A worker's end takes effect when control returns to its event loop: stop here till then.
    throw new Error("the realm has ended");
  };
}

const codeOf = (code?: unknown) => (typeof code === "number" ? code : 0);

fixed(Deno, "exit", told(Deno.exit.bind(Deno), codeOf));
fixed(globalThis, "close", told(globalThis.close.bind(globalThis), () => 0));
