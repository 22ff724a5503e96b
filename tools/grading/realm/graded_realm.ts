// In a learner's realm, first of all its modules: marks the realm as one
// where work is graded (`graded_mark.ts`), where a seal of the library
// refuses to run, and reports that it was reached, as a library copy does
// (`reach.ts`: the function whose case reached it scores 0); and takes away
// what would give the learner's code a realm of its own, where no mark would
// be: `process.getBuiltinModule` (node's modules past the import map, which
// refuses `node:vm`, `node:module` and the others that make a realm:
// `no_other_realm.ts`), a node:worker_threads worker (the one such module
// Deno loads past the import map: its construction is refused below),
// Deno's internals, and WebAssembly (a JavaScript engine compiled to it is a
// realm). None of this can be undone by code that runs after it, and none of
// it loads node's modules: a realm that uses none pays nothing for them.

/// <reference lib="deno.worker" />

import { GRADED_REALM, SEALS_RUN_HERE } from "./graded_mark.ts";
import { reachedLibrary } from "./reach.ts";

const { apply, defineProperty, deleteProperty, getOwnPropertyDescriptor } = Reflect;
const includes = String.prototype.includes;
const OriginalError = Error;
const OriginalString = String;

/** Define `name` of `target` as `value`, for good: no code can change or remove it after. */
const fixed = (target: object, name: PropertyKey, value: unknown) =>
  defineProperty(target, name, { value, writable: false, enumerable: false, configurable: false });

if (!new URL(location.href).searchParams.has(SEALS_RUN_HERE)) {
  fixed(
    Object.prototype,
    GRADED_REALM,
    Object.freeze((name: unknown) => reachedLibrary(String(name))),
  );
}
deleteProperty(Deno, (Deno as unknown as { internal: symbol }).internal);
deleteProperty(globalThis, "WebAssembly");

// The global `process` is made when first read: it comes without getBuiltinModule, as
// `node:process` does through the import map (`node_process.ts`; it is the same object).
const processGetter = getOwnPropertyDescriptor(globalThis, "process")?.get;
if (processGetter !== undefined) {
  defineProperty(globalThis, "process", {
    get() {
      const process = apply(processGetter, globalThis, []);
      deleteProperty(process, "getBuiltinModule");
      return process;
    },
    enumerable: false,
    configurable: false,
  });
}

// A node:worker_threads worker begins as an EventEmitter: its construction comes through
// `EventEmitter.init`, with the worker's module on the stack, before any thread is started.
// node:events sets `EventEmitter.init` when it loads (if it ever does): the setter below, of
// every function, makes it refuse a worker's construction. The stack is read with the realm's
// own Error, whose stack no code may format (prepareStackTrace), at a depth no code may shorten.
const NO_WORKER = "a node:worker_threads worker is not given where work is graded: a learner's " +
  "code runs in the one realm the grader gives it";
const WORKER_MODULE = "ext:deno_node/worker_threads";
const DEPTH = 50;
fixed(OriginalError, "prepareStackTrace", undefined);

/** `init`, refusing to run for a node:worker_threads worker. */
function refusingWorkers(init: (...args: unknown[]) => unknown) {
  function guarded(this: unknown, ...args: unknown[]): unknown {
    const limit = OriginalError.stackTraceLimit;
    OriginalError.stackTraceLimit = DEPTH;
    const stack = OriginalError.stackTraceLimit === DEPTH
      ? OriginalString(new OriginalError().stack)
      : "";
    OriginalError.stackTraceLimit = limit;
    if (stack === "" || apply(includes, stack, [WORKER_MODULE])) throw new OriginalError(NO_WORKER);
    return apply(init, this, args);
  }
  // Called as `EventEmitter.init.call(this, ...)`: its own call and apply, which no code may replace.
  fixed(guarded, "call", (self: unknown, ...args: unknown[]) => apply(guarded, self, args));
  fixed(guarded, "apply", (self: unknown, args?: unknown[]) => apply(guarded, self, args ?? []));
  return guarded;
}

defineProperty(Function.prototype, "init", {
  get: () => undefined,
  set(this: { name?: unknown }, value: unknown) {
    // Any other function's `init` is set as an assignment sets it.
    if (this.name !== "EventEmitter" || typeof value !== "function") {
      defineProperty(this, "init", { value, writable: true, enumerable: true, configurable: true });
    } else fixed(this, "init", refusingWorkers(value as (...args: unknown[]) => unknown));
  },
  enumerable: false,
  configurable: false,
});
