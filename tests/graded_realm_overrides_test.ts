// The built-ins a seal reads to find the realm's mark are fixed where work is
// graded (tools/grading/realm/graded_realm.ts), and honest code that gives an
// object of its own one of those names keeps its marks: an array's own push
// or shift, a String object's own split, a function's own constructor, a
// Number object's own toString, a subclass's own fromCharCode, a scope of
// the global object's own parseInt. As non-writable data properties they
// refused each of those assignments (JavaScript's "override mistake"), and
// each learner below lost every mark; they are now accessors, as Hardened
// JavaScript's enablePropertyOverrides makes them, that define the name on
// the object assigned to, and refuse only on the object they belong to.
//
// Object.prototype and Function.prototype still take no new names, since a
// seal's string decoder looks names up through them: a learner who gives
// Object.prototype the decoder's cache entries for the pieces of the mark's
// name, or Function.prototype its "already set up" flag and a decoder of the
// learner's, has the seal look for a name no realm has, and would keep every
// mark. A learner's polyfill there fails, and is told why in one line; so is
// a learner's replacement of a fixed name on the object it is fixed on.

import assert from "node:assert/strict";
import {
  authorizeBeginning,
  base64,
  behindSorted,
  gradeClass,
  gradedMarks,
  importSeal,
  standaloneSeal,
  testLearners,
} from "./_seals.ts";
import { GRADED_REALM } from "../tools/grading/realm/graded_mark.ts";

/** The seal of answerFor, as the learners' release ships it, less its header line. */
const SEAL = "lib/mcp/client/answer.sealed.js";
const sealText = await standaloneSeal(SEAL);
/** The seal's string decoder, by the name the string array's rotation calls it by. */
const DECODER = /\(function\(\w+,\w+\)\{const \w+=(\w+),/.exec(sealText)![1];

/** Each string of the seal's string array, decoded by the seal's own decoder, by the index its code asks it by. */
const decoded = await (async () => {
  const { decoder } = await import(
    `data:text/javascript;base64,${base64(`${sealText}\nexport { ${DECODER} as decoder };`)}`
  );
  const strings = new Map<number, string>();
  for (let at = 0; at < 0x2000; at++) {
    try {
      strings.set(at, decoder(at));
    } catch {
      // Not an index of the string array.
    }
  }
  return strings;
})();

/**
 * What a learner who reads the seal finds out with the seal's own decoder:
 * each key of the decoder's cache (an object literal, looked up through
 * Object.prototype) that holds a piece of the mark's name, with the piece.
 */
function markPieces(): Record<number, string> {
  const offset = Math.min(...decoded.keys());
  const pieces: Record<number, string> = {};
  for (const [at, text] of decoded) {
    if (text.length > 2 && GRADED_REALM.includes(text)) pieces[at - offset] = text;
  }
  assert.ok(Object.keys(pieces).length > 0, "the seal's decoder spells no piece of the mark");
  return pieces;
}

/** The two names the decoder keeps on itself: "set up already", and the base64 decoding it set up. */
const [SET_UP, DECODE] = (() => {
  const setUp = new RegExp(`if\\(${DECODER}\\['(\\w+)'\\]===\\$own_undefined\\)`).exec(sealText);
  const decode = new RegExp(`${DECODER}\\['(\\w+)'\\]=\\w+,`).exec(sealText);
  return [setUp![1], decode![1]];
})();

/**
 * A learner's own decoding of the seal's strings (`decoded`: the
 * obfuscator's base64, whose alphabet begins with the small letters, then
 * percent-decoding), as a learner who reads the seal writes it, and
 * `respelled`, which spells each piece of the mark's name with a 0 after it.
 */
const RESPELLING = `const mark = ${JSON.stringify(GRADED_REALM)};
const swapCase = (c) => c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
function decoded(text) {
  const bytes = atob([...text].map(swapCase).join(""));
  return decodeURIComponent([...bytes].map((b) => "%" + b.charCodeAt(0).toString(16).padStart(2, "0")).join(""));
}
const respelled = (plain) => plain.length > 2 && mark.includes(plain) ? plain + "\\u0000" : plain;`;

/** Each name a seal reads, on the object it is fixed on, as graded_realm.ts fixes them. */
const FIXED = `[
  [globalThis, ["decodeURIComponent", "parseInt", "String"]],
  [String, ["fromCharCode"]],
  [String.prototype, ["charAt", "indexOf", "charCodeAt", "slice", "split", Symbol.split]],
  [Number.prototype, ["toString"]],
  [Array.prototype, ["push", "shift"]],
  [Function.prototype, ["constructor"]],
]`;

const LEARNERS = {
  "own-push-and-shift": {
    file: "ch14-a.ts",
    fn: "authorize",
    honest: true,
    module: () =>
      authorizeBeginning(
        `  const queue = [];
  let pushed = 0;
  queue.push = (item) => (pushed++, Array.prototype.push.call(queue, item));
  queue.shift = () => Array.prototype.shift.call(queue);
  queue.push(name);
  if (pushed !== 1 || queue.shift() !== name) return !Object.hasOwn(catalog, name);`,
      ),
  },
  "own-split": {
    file: "ch14-a.ts",
    fn: "authorize",
    honest: true,
    module: () =>
      authorizeBeginning(
        `  const asked = new String(name);
  asked.split = () => [String(asked)];
  if (asked.split("_")[0] !== name) return !Object.hasOwn(catalog, name);`,
      ),
  },
  "own-constructor": {
    file: "ch14-a.ts",
    fn: "authorize",
    honest: true,
    module: () =>
      authorizeBeginning(
        `  if (check.constructor !== "a check") return !Object.hasOwn(catalog, name);`,
        `function check() {}
check.constructor = "a check";`,
      ),
  },
  "own-toString": {
    file: "ch14-a.ts",
    fn: "authorize",
    honest: true,
    module: () =>
      authorizeBeginning(
        `  const count = new Number(allowed.size);
  count.toString = () => count.valueOf() + " allowed";
  if (\`\${count}\` !== allowed.size + " allowed") return !Object.hasOwn(catalog, name);`,
      ),
  },
  // A subclass's own static, a scope over the global object, Object.assign, a subclass's prototype's
  // own push, and a String object's own splitter: each gives an object of the learner's a name a
  // seal reads.
  "own-inherited-names": {
    file: "ch14-a.ts",
    fn: "authorize",
    honest: true,
    module: () =>
      authorizeBeginning(
        `  if (Name.fromCharCode(97).shout() !== "A" || scope.parseInt("08") !== 8 || scope.String(1) !== "#1") return !allowed.has(name);
  const log = Object.assign([], { push(item) { return Array.prototype.push.call(this, item); } });
  if (log.push(name) !== 1 || new Stack().push(name) !== 1 || "a-b".split(dash).join("|") !== "a|b") return !Object.hasOwn(catalog, name);`,
        `class Name extends String {
  shout() { return this.toUpperCase(); }
}
Name.fromCharCode = (...codes) => new Name(String.fromCharCode(...codes));
const scope = Object.create(globalThis);
scope.parseInt = (text) => Number.parseInt(text, 10);
scope.String = (value) => "#" + String(value);
class Stack extends Array {}
Stack.prototype.push = function (item) { return Array.prototype.push.call(this, item); };
const dash = new String("-");
dash[Symbol.split] = (text) => text.split("-");`,
      ),
  },
  // Every way to write each fixed name on the object it is fixed on (an assignment, Reflect.set,
  // the accessor's own setter, defineProperty, delete) is refused, and what a seal reads (through a
  // string, a number, an array, a function, the global object) is the original after them all, and
  // after an own name on an instance of each (a String, Number, array, function, subclass, scope);
  // the two prototypes take no new names. authorize answers right only then.
  "fixed-names-held": {
    file: "ch14-a.ts",
    fn: "authorize",
    honest: true,
    module: () =>
      authorizeBeginning(
        `  if (moved.length > 0) return !Object.hasOwn(catalog, name);`,
        `const moved = [];
const other = function () { return "the learner's"; };
const through = new Map([[String.prototype, "x"], [Number.prototype, 1], [Array.prototype, []], [Function.prototype, () => {}], [globalThis, globalThis], [String, String]]);
const instances = new Map([[String.prototype, () => new String("x")], [Number.prototype, () => new Number(1)], [Array.prototype, () => []], [Function.prototype, () => function () {}], [globalThis, () => Object.create(globalThis)], [String, () => class extends String {}]]);
for (const [target, names] of ${FIXED}) {
  for (const name of names) {
    const original = target[name];
    const setter = Object.getOwnPropertyDescriptor(target, name).set;
    const instance = instances.get(target)();
    instance[name] = other;
    if (!Object.hasOwn(instance, name) || instance[name] !== other) moved.push("an instance's own " + String(name));
    for (const write of [
      () => { target[name] = other; },
      () => { if (!Reflect.set(target, name, other)) throw new TypeError("refused"); },
      () => { if (!Reflect.set(target, name, other, target)) throw new TypeError("refused"); },
      () => setter.call(target, other),
      () => Object.defineProperty(target, name, { value: other }),
      () => Object.defineProperty(target, name, { get: () => other }),
      () => { if (!Reflect.deleteProperty(target, name)) throw new TypeError("refused"); },
    ]) {
      try {
        write();
        moved.push(String(name) + " written by " + write);
      } catch {
        // refused
      }
    }
    if (target[name] !== original || through.get(target)[name] !== original) moved.push(String(name) + " changed");
  }
}
for (const target of [Object.prototype, Function.prototype]) {
  try {
    target.added = other;
    moved.push("a name added");
  } catch {
    // refused
  }
}`,
      ),
  },
  // Object.prototype given, for each call of the seal, the decoder's cache entries for the pieces of
  // the mark's name, each spelled with a 0 after it: the cache is an object literal.
  "cache-poisoned": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: async () =>
      behindSorted(`${await importSeal(SEAL, "answerFor: run")}
const PIECES = ${JSON.stringify(markPieces())};
function seal(...args) {
  const given = [];
  for (const [key, piece] of Object.entries(PIECES)) {
    try {
      Object.defineProperty(Object.prototype, key, { value: piece + "\\u0000", configurable: true });
      given.push(key);
    } catch {
      // refused
    }
  }
  try {
    return run(...args);
  } finally {
    for (const key of given) delete Object.prototype[key];
  }
}`),
  },
  // Function.prototype given the decoder's "set up already" flag and a base64 decoding of the
  // learner's, which spells each piece of the mark's name with a 0 after it, before the seal loads.
  "decoder-preset": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      behindSorted(`${RESPELLING}
try {
  Function.prototype[${JSON.stringify(SET_UP)}] = true;
  Function.prototype[${JSON.stringify(DECODE)}] = (text) => respelled(decoded(text));
} catch {
  // refused
}
const { answerFor: seal } = await import("data:text/javascript;base64,${base64(sealText)}");`),
  },
  // Array.prototype given an accessor for the index past the seal's string array's last, before the
  // seal loads: the rotation's push writes that index through the prototype, and the setter is
  // handed the array, where the learner respells each piece of the mark's name (encoded as the
  // seal's decoder reads it) with a 0 after it.
  "array-hooked": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      behindSorted(`${RESPELLING}
const encode = (plain) =>
  [...btoa(String.fromCharCode(...new TextEncoder().encode(plain))).replace(/=+$/, "")].map(swapCase).join("");
const at = ${decoded.size - 1};
let strings;
Object.defineProperty(Array.prototype, at, {
  configurable: true,
  get() { return undefined; },
  set(value) {
    Object.defineProperty(this, at, { value, writable: true, enumerable: true, configurable: true });
    strings ??= this;
  },
});
const { answerFor: seal } = await import("data:text/javascript;base64,${base64(sealText)}");
delete Array.prototype[at];
for (let i = 0; strings !== undefined && i < strings.length; i++) {
  try {
    const plain = decoded(strings[i]);
    if (respelled(plain) !== plain) strings[i] = encode(respelled(plain));
  } catch {
    // Not a string the decoder reads.
  }
}`),
  },
};

// What a learner whose code changes what the realm fixes meets, and is told: a polyfill on
// Object.prototype as the module loads, and one on Function.prototype as a case runs or in a timer
// of its own (an error outside any case), fail saying why those prototypes take no new names; a split of the learner's own on String.prototype fails
// saying the name is the seals'. Each loses the marks its code cannot earn there.
const NO_NEW_NAMES =
  /if it is Object\.prototype or Function\.prototype: they take no new names where work is graded/;
const TOLD = {
  "object-polyfill": {
    file: "ch14-a.ts",
    said: NO_NEW_NAMES,
    module: () =>
      authorizeBeginning(
        "",
        `Object.prototype.hasKey = function (key) { return Object.hasOwn(this, key); };`,
      ),
  },
  "function-polyfill": {
    file: "ch14-a.ts",
    said: NO_NEW_NAMES,
    module: () => authorizeBeginning(`  Function.prototype.once ??= function () { return this; };`),
  },
  // Only in the last visible case (the one case of a name every object inherits), so that no other
  // case waits on the realm the error ended.
  "timer-polyfill": {
    file: "ch14-a.ts",
    said: NO_NEW_NAMES,
    module: () =>
      authorizeBeginning(
        `  if (name === "toString") setTimeout(() => { Function.prototype.later = () => {}; }, 0);
  return new Promise((resolve) => setTimeout(() => resolve(Object.hasOwn(catalog, name) && allowed.has(name)), 100));`,
      ),
  },
  "split-replaced": {
    file: "ch14-a.ts",
    said:
      /String\.prototype\.split cannot be assigned where work is graded \(the library's seals read it\)/,
    module: () =>
      authorizeBeginning(
        "",
        `const split = String.prototype.split;
String.prototype.split = function (separator, limit) { return split.call(this, separator, limit); };`,
      ),
  },
};

const list = await gradeClass({ ...LEARNERS, ...TOLD });

testLearners(list, LEARNERS, {
  honest: (name, fn) => `the learner ${name} keeps every mark of ${fn}`,
  attack: (name, fn) => `a seal run with ${name} earns nothing for ${fn}`,
});

for (const [name, { said }] of Object.entries(TOLD)) {
  Deno.test(`the learner ${name} is told why the realm refuses what its code changes`, () => {
    const { results } = gradedMarks(list, name, "authorize");
    const failed = results.tests.find((t) => t.name.startsWith("authorize: ") && t.score === 0);
    console.log(failed?.output);
    assert.match(failed?.output ?? "", said);
  });
}
