// In a learner's realm, first of all its modules: marks the realm as one
// where work is graded (`graded_mark.ts`), where a seal of the library
// refuses to run, and reports that it was reached, as a library copy does
// (`reach.ts`: the function whose case reached it scores 0); and takes away
// what would give the learner's code a realm of its own, where no mark would
// be: `process.getBuiltinModule` (node's modules past the import map, which
// refuses `node:vm`, `node:module` and the others that make a realm:
// `no_other_realm.ts`), the same modules to node's CommonJS `require`, a
// node:worker_threads worker (the one such module Deno loads past the import
// map: its construction is refused below), Deno's internals, and WebAssembly
// (a JavaScript engine compiled to it is a realm; the sandbox's process
// compiles no module of it, imported or not: sandbox.ts); and fixes the
// built-ins a seal reads to find the mark (an object of the learner's may
// still have a name of its own). None of this can be undone by code
// that runs after it, and none of it loads node's modules: a realm that uses
// none of them pays nothing for them.

/// <reference lib="deno.worker" />

import { fixed } from "./fixed.ts";
import { GRADED_REALM, SEALS_RUN_HERE } from "./graded_mark.ts";
import { reachedLibrary } from "./reach.ts";
import { NO_OTHER_REALM, REALM_MAKERS } from "./realm_makers.ts";

const { apply, defineProperty, deleteProperty, getOwnPropertyDescriptor } = Reflect;
const includes = String.prototype.includes;
const has = Set.prototype.has;
const defineOwn = Object.defineProperty;
const OriginalError = Error;
const OriginalTypeError = TypeError;
const OriginalString = String;

/** A function of the realm's (`...args`), of `name` as its callers find it. */
type Callable = (this: unknown, ...args: unknown[]) => unknown;

/**
 * When a function named `owner` is given its `name` (as node's modules give
 * theirs when they load, if they ever do), it gets `guarded(value)` in its
 * place, for good; any other function's `name` is set as an assignment sets
 * it. Nothing of node's is loaded for it.
 */
function whenSet(name: string, owner: string, guarded: (value: Callable) => Callable): void {
  defineProperty(Function.prototype, name, {
    get: () => undefined,
    set(this: { name?: unknown }, value: unknown) {
      if (this.name !== owner || typeof value !== "function") {
        defineProperty(this, name, { value, writable: true, enumerable: true, configurable: true });
      } else {
        const guard = guarded(value as Callable);
        // Called as `Owner.name.call(this, ...)`: its own call and apply, which no code may replace.
        fixed(guard, "call", (self: unknown, ...args: unknown[]) => apply(guard, self, args));
        fixed(guard, "apply", (self: unknown, args?: unknown[]) => apply(guard, self, args ?? []));
        fixed(this, name, guard);
      }
    },
    enumerable: false,
    configurable: false,
  });
}

/**
 * Fix `name` of `target` (called `label`) for good as a seal reads it, yet
 * let code give an object of its own that name, as it could were the name
 * not fixed: a non-writable name refuses an assignment to every object that
 * inherits it (JavaScript's "override mistake": `queue.push = ...` on an
 * array, `text.split = ...` on a String object, `Name.fromCharCode = ...` on
 * a subclass of String). It becomes an accessor no code can change (as
 * Hardened JavaScript's enablePropertyOverrides makes it) whose getter gives
 * the original, and whose setter defines the name, as an assignment does, on
 * the object assigned to, and refuses on `target` itself and, as strict code's
 * assignment does, on a primitive.
 */
function overridable(label: string, target: object, name: PropertyKey): void {
  const original = (target as Record<PropertyKey, unknown>)[name];
  const spelled = typeof name === "symbol" ? `[${OriginalString(name.description)}]` : `.${name}`;
  defineOwn(target, name, {
    get: () => original,
    set(this: unknown, value: unknown) {
      if (this === target) {
        throw new OriginalTypeError(
          `${label}${spelled} cannot be assigned where work is graded (the library's seals ` +
            "read it): give the name to an object of your own",
        );
      }
      if ((typeof this !== "object" || this === null) && typeof this !== "function") {
        // A primitive (`text.split = ...`) takes no name: refused in V8's words for strict code.
        throw new OriginalTypeError(
          `Cannot create property '${OriginalString(name)}' on ${typeof this} '${
            OriginalString(this)
          }'`,
        );
      }
      defineOwn(this, name, { value, writable: true, enumerable: true, configurable: true });
    },
    enumerable: false,
    configurable: false,
  });
}

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

// Node's CommonJS `require`, which an npm package's code is given (ajv's standalone code compiles
// a module of any text, with its own `require`), finds node's modules without the import map: it
// is refused the same ones, by `Module._load`, which every `require` comes through.
const REFUSED = new Set(REALM_MAKERS.flatMap((name) => [name, `node:${name}`]));
whenSet(
  "_load",
  "Module",
  (load) =>
    function refusingRealms(this: unknown, request: unknown, ...rest: unknown[]) {
      const name = OriginalString(request);
      if (apply(has, REFUSED, [name])) throw new OriginalError(NO_OTHER_REALM);
      return apply(load, this, [name, ...rest]);
    },
);

// A node:worker_threads worker begins as an EventEmitter: its construction comes through
// `EventEmitter.init`, with the worker's module on the stack, before any thread is started. The
// stack is read with the realm's own Error, whose stack no code may format (prepareStackTrace),
// at a depth no code may shorten.
const NO_WORKER = "a node:worker_threads worker is not given where work is graded: a learner's " +
  "code runs in the one realm the grader gives it";
const WORKER_MODULE = "ext:deno_node/worker_threads";
const DEPTH = 50;
fixed(OriginalError, "prepareStackTrace", undefined);
whenSet(
  "init",
  "EventEmitter",
  (init) =>
    function refusingWorkers(this: unknown, ...args: unknown[]): unknown {
      const limit = OriginalError.stackTraceLimit;
      OriginalError.stackTraceLimit = DEPTH;
      const stack = OriginalError.stackTraceLimit === DEPTH
        ? OriginalString(new OriginalError().stack)
        : "";
      OriginalError.stackTraceLimit = limit;
      if (stack === "" || apply(includes, stack, [WORKER_MODULE])) {
        throw new OriginalError(
          NO_WORKER,
        );
      }
      return apply(init, this, args);
    },
);

// A seal finds the mark's name, and the order of its steps, through built-ins: its strings'
// decoder (decodeURIComponent, String.fromCharCode, a string's charAt, indexOf, charCodeAt and
// slice, a number's toString), their rotation (parseInt, an array's push and shift), its order of
// steps (a string's split, with no splitter of its separator's), lookups on objects of its own,
// which end at Function.prototype and Object.prototype, and the Function constructor, through
// which it binds those globals as its own (tools/release/seal_module.ts). Code that changed one of
// them (a decodeURIComponent that spells a piece of the mark's name another way) would have the
// seal look for a name no realm has, and answer: each is fixed (`overridable`), and those two
// prototypes take no new names (after the accessors above): the decoder's cache is an object
// literal, and its "set up already" flag and its base64 decoding are read from the decoder, a
// function, so that a learner who gave Object.prototype the cache's entries, or Function.prototype
// the flag and a decoding of their own, would respell the mark's name all the same
// (tests/graded_realm_overrides_test.ts). A polyfill there fails, and the grader says why
// (`no_new_names.ts`).
const READ_BY_SEALS: [string, object, PropertyKey[]][] = [
  ["globalThis", globalThis, ["decodeURIComponent", "parseInt", "String"]],
  ["String", String, ["fromCharCode"]],
  [
    "String.prototype",
    String.prototype,
    ["charAt", "indexOf", "charCodeAt", "slice", "split", Symbol.split],
  ],
  ["Number.prototype", Number.prototype, ["toString"]],
  ["Array.prototype", Array.prototype, ["push", "shift"]],
  ["Function.prototype", Function.prototype, ["constructor"]],
];
for (const [label, target, names] of READ_BY_SEALS) {
  for (const name of names) overridable(label, target, name);
}
Object.preventExtensions(Function.prototype);
Object.preventExtensions(Object.prototype);
