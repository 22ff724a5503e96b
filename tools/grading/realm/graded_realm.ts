// In a learner's realm, first of all its modules: marks the realm as one
// where work is graded (`graded_mark.ts`), where a seal of the library
// refuses to run, and reports that it was reached, as a library copy does
// (`reach.ts`: the function whose case reached it scores 0); and takes away
// what would give the learner's code a realm of its own, where no mark would
// be: `process.getBuiltinModule` (node's modules outside the import map,
// which refuses `node:vm`, `node:module` and the others that make a realm:
// `no_other_realm.ts`), a node:worker_threads worker (the one such module
// Deno loads before any import map is read: its construction is refused
// below), Deno's internals, and WebAssembly (a JavaScript engine compiled to
// it is a realm). None of this can be undone by code that runs after it.

/// <reference lib="deno.worker" />

import { EventEmitter } from "node:events";
import { GRADED_REALM, SEALS_RUN_HERE } from "./graded_mark.ts";
import { reachedLibrary } from "./reach.ts";

const { apply, defineProperty, deleteProperty } = Reflect;
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
deleteProperty(globalThis.process, "getBuiltinModule");
deleteProperty(Deno, (Deno as unknown as { internal: symbol }).internal);
deleteProperty(globalThis, "WebAssembly");

// A node:worker_threads worker begins as an EventEmitter: each one's construction comes through
// `EventEmitter.init`, with the worker's module on the stack, before any thread is started. The
// stack is read with the realm's own Error, whose stack no code may format (prepareStackTrace),
// and at a depth no code may shorten.
const NO_WORKER = "a node:worker_threads worker is not given where work is graded: a learner's " +
  "code runs in the one realm the grader gives it";
const WORKER_MODULE = "ext:deno_node/worker_threads";
const DEPTH = 50;
fixed(OriginalError, "prepareStackTrace", undefined);
const init = (EventEmitter as unknown as { init: (...args: unknown[]) => void }).init;
function refusingWorkers(this: unknown, ...args: unknown[]): unknown {
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
fixed(
  refusingWorkers,
  "call",
  (self: unknown, ...args: unknown[]) => apply(refusingWorkers, self, args),
);
fixed(
  refusingWorkers,
  "apply",
  (self: unknown, args?: unknown[]) => apply(refusingWorkers, self, args ?? []),
);
fixed(EventEmitter, "init", refusingWorkers);
