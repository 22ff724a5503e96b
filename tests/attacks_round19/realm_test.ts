// Round 19 of the red team, against the graded realm's fixed names as
// accessors (tools/grading/realm/graded_realm.ts): each name a seal reads is
// an accessor no code can change, whose setter gives the name to the object
// assigned to and refuses on the object it is fixed on; Object.prototype and
// Function.prototype take no new names, and an error V8 gives for a refused
// name is told why (tools/grading/realm/no_new_names.ts).
//
// Two honest learners' own errors were told wrong. A learner whose code added
// a name to a frozen object of its own met V8's "object is not extensible",
// and the grader added that Object.prototype and Function.prototype are not,
// as if those had refused it: V8's words name no object, so every such error
// was taken for the prototypes'. It is now told that only if the object is
// one of them is that the reason. And a learner whose strict code gave a
// string (a primitive) a name the realm fixes (`name.split = ...`), which V8
// refuses as "Cannot create property 'split' on string ...", was told
// "Object.defineProperty called on non-object", the setter's own words: the
// setter now refuses a primitive in V8's.
//
// Held: the setters, pulled out and called with another `this` (each of the
// fixed objects, Object.prototype, a Proxy of the prototype, a Proxy that
// says it defined the name), through Reflect.set with those receivers and
// with a Proxy of the prototype as target, through `super` assignment from a
// literal whose `__proto__` is the prototype or a Proxy of it, through a
// literal's `__proto__`; Object.prototype's `__proto__` set to a Proxy, its
// prototype or Function.prototype's set, Symbol.unscopables added, the
// mark's name redefined or deleted, Object.prototype.toString an accessor,
// the fixed globals declared by an indirect eval or assigned in a `with` over
// a Proxy: the fixed names are all the originals after them, and the seal of
// answerFor behind round 7's wrapper earns nothing. The seal's string store
// is module-scoped, of no prototype, with push and shift read from an array
// through the fixed accessors as the seal loads: nothing of the learner's
// runs on it. No getter of the learner's runs during a seal's reads before
// its refusal: only authorize reads its arguments first, and only a string's
// own characters (its watermark's unswapping). An honest classmate graded in
// the same class keeps every mark.

import assert from "node:assert/strict";
import { UNIT_A } from "../_grading.ts";
import {
  authorizeBeginning,
  behindSorted,
  gradeClass,
  gradedMarks,
  importSeal,
  testLearners,
} from "../_seals.ts";
import { GRADED_REALM } from "../../tools/grading/realm/graded_mark.ts";

/** Every way to write a fixed name but on its own object, then whether each is still the original. */
const BORROWED = `const mark = ${JSON.stringify(GRADED_REALM)};
const other = function () { return "the learner's"; };
const attempt = (f) => { try { f(); } catch { /* refused */ } };
// Each name the realm fixed as a setter (and the lazy globals Deno made so), found as it made them.
const targets = [globalThis, String, String.prototype, Number.prototype, Array.prototype, Function.prototype, Object.prototype];
const fixedNames = (target) =>
  Reflect.ownKeys(target).filter((name) => {
    if (target === Function.prototype && (name === "caller" || name === "arguments")) return false;
    const { set, configurable } = Object.getOwnPropertyDescriptor(target, name);
    return set?.name === "set" && !configurable;
  });
for (const target of targets) {
  for (const name of fixedNames(target)) {
    const { set } = Object.getOwnPropertyDescriptor(target, name);
    const proxy = new Proxy(target, {});
    for (const receiver of [...targets, proxy, new Proxy(target, { defineProperty: () => true })]) {
      attempt(() => set.call(receiver, other));
      attempt(() => Reflect.set(target, name, other, receiver));
      attempt(() => Reflect.set(proxy, name, other, receiver));
    }
    attempt(() => ({ __proto__: target, m() { super[name] = other; } }).m());
    attempt(() => ({ __proto__: proxy, m() { super[name] = other; } }).m());
    attempt(() => { ({ __proto__: target })[name] = other; });
  }
}
attempt(() => { Object.prototype.__proto__ = new Proxy({}, { get: (_, key) => key === mark ? undefined : other }); });
attempt(() => Object.setPrototypeOf(Object.prototype, {}));
attempt(() => Object.setPrototypeOf(Function.prototype, new Proxy(Object.prototype, {})));
attempt(() => { Object.prototype[Symbol.unscopables] = { [mark]: true }; });
attempt(() => Object.defineProperty(Object.prototype, mark, { value: undefined }));
attempt(() => Reflect.deleteProperty(Object.prototype, mark));
attempt(() => Object.defineProperty(Object.prototype, "toString", { get: () => other }));
attempt(() => (0, eval)("with (new Proxy({}, { has: () => true })) { decodeURIComponent = String; }"));
attempt(() => (0, eval)("var decodeURIComponent = String, parseInt = String;"));
${await importSeal("lib/mcp/client/answer.sealed.js", "answerFor: seal")}`;

const LEARNERS = {
  "setters-borrowed": { file: "ch14-a.ts", fn: "answerFor", module: () => behindSorted(BORROWED) },
  "honest-classmate": { file: "ch14-a.ts", fn: "authorize", honest: true, module: () => UNIT_A },
};

// Honest learners with a bug in one case (the one of a name every object inherits), each told
// its own error in V8's words, and not that the realm refused it.
const BUGGY = {
  "frozen-own": {
    file: "ch14-a.ts",
    said: /Cannot add property toString, object is not extensible/,
    module: () =>
      authorizeBeginning(
        `  if (name === "toString") Object.freeze(seen)[name] = true;`,
        "const seen = {};",
      ),
  },
  "string-given-split": {
    file: "ch14-a.ts",
    said: /Cannot create property 'split' on string 'toString'/,
    module: () => authorizeBeginning(`  if (name === "toString") name.split = () => [name];`),
  },
};

const list = await gradeClass({ ...LEARNERS, ...BUGGY });

testLearners(list, LEARNERS, {
  honest: (name, fn) => `the learner ${name}, in a class with attacks, keeps every mark of ${fn}`,
  attack: (name, fn) => `a seal run with ${name} earns nothing for ${fn}`,
});

for (const [name, { said }] of Object.entries(BUGGY)) {
  Deno.test(`the learner ${name} is told its own error, not the realm's`, () => {
    const { results, marks } = gradedMarks(list, name, "authorize");
    const failed = marks.filter((t) => t.score !== t.max_score);
    assert.equal(failed.length, 1, results.tests.map((t) => t.output).join("\n"));
    console.log(failed[0].output);
    assert.match(failed[0].output ?? "", said);
    // The prototypes, if named at all, only as the reason were the object one of them.
    assert.doesNotMatch(failed[0].output ?? "", /(?<!\bif\b[^(]*)Object\.prototype/);
    assert.doesNotMatch(failed[0].output ?? "", /called on non-object/);
  });
}
