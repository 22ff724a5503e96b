// A seal refuses to run where work is graded: the realm's first module marks
// it (tools/grading/realm/graded_realm.ts), and a seal looks for the mark
// through an object literal. A realm of the learner's own would hold no mark,
// so the realm has no way to make one: node's modules that make a realm are
// refused by the import map (whatever their spelling), and
// `process.getBuiltinModule`, Deno's internals and WebAssembly are gone.
// Each learner below carries Unit A's seal of answerFor into a realm of its
// own by one of those ways, behind a wrapper the watermark cannot see past;
// each earned every mark before. None of it costs a realm that uses none of
// node's modules anything: node's process and node:events are not loaded for it.

import assert from "node:assert/strict";
import {
  assertEarnsNothing,
  AUTHORIZE,
  gradeClass,
  gradedMarks,
  report,
  standaloneSeal,
} from "./_seals.ts";
import { UNIT_A } from "./_grading.ts";
import { GRADED_REALM } from "../tools/grading/realm/graded_mark.ts";

/** The seal's code as a script for another realm, given the class it imports, ending in an object of its answerFor. */
const script = (await standaloneSeal("lib/mcp/client/answer.sealed.js"))
  .replace(/^class ProtocolError.*\n/, "")
  .replace(/export\{[^}]*\};?/g, "") + "\n({ answerFor });";

/**
 * Round 7's wrapper: `sorted(args)` gives the arguments with the words of
 * every name of a tool's look sorted, and a function that writes them back
 * in an answer. The watermark never sees its token behind it.
 */
const SORTED = `const NAME = /[a-z]+(?:_[a-z]+){2,}/g;
function mapTexts(value, f) {
  if (typeof value === "string") return f(value);
  if (Array.isArray(value)) return value.map((item) => mapTexts(item, f));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [f(k), mapTexts(v, f)]));
  }
  return value;
}
function sorted(args) {
  const back = new Map();
  const sort = (text) => text.replace(NAME, (name) => {
    const words = name.split("_").sort().join("_");
    back.set(words, name);
    return words;
  });
  return [
    mapTexts(args, sort),
    (answer) => mapTexts(answer, (text) => text.replace(NAME, (name) => back.get(name) ?? name)),
  ];
}`;

/**
 * Unit A over the seal run in the realm `vm` (node:vm's exports, as
 * `preamble` gets them) makes, behind round 7's wrapper ({@linkcode SORTED}):
 * only the realm's mark could know the seal.
 */
const over = (preamble: string) =>
  `${preamble}
import { ProtocolError } from "../lib/mcp/shared/errors.ts";
const { answerFor: seal } = vm.runInNewContext(${JSON.stringify(script)}, { ProtocolError });
// Errors of the other realm's own classes, thrown again as this realm's.
function run(...args) {
  try {
    return seal(...args);
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    throw new globalThis[error.name](error.message);
  }
}
${SORTED}
export function answerFor(requestId, message) {
  const [args, back] = sorted([requestId, message]);
  return back(run(...args));
}
${AUTHORIZE}`;

const LEARNERS = {
  "node-vm": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () => over(`import vm from "node:vm";`),
  },
  "bare-vm": { file: "ch14-a.ts", fn: "answerFor", module: () => over(`import vm from "vm";`) },
  "require-vm": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      over(`import { createRequire } from "node:module";
const vm = createRequire(import.meta.url)("vm");`),
  },
  "builtin-vm": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () => over(`const vm = process.getBuiltinModule("vm");`),
  },
  "process-builtin-vm": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      over(`import process from "node:process";
const vm = process.getBuiltinModule("vm");`),
  },
  "dynamic-vm": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () => over(`const vm = await import(["node", "vm"].join(":"));`),
  },
  // A node:worker_threads worker is a realm too: the learner's module again, where it runs the
  // seal, each call asked of it and awaited (the grader awaits what a graded function returns).
  "worker-thread": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      `import { isMainThread, parentPort, Worker } from "node:worker_threads";
import { ProtocolError } from "../lib/mcp/shared/errors.ts";
let answerFor;
if (isMainThread) {
  const worker = new Worker(new URL(import.meta.url));
  worker.unref();
  const waiting = new Map();
  worker.on("message", ({ at, value, error }) => {
    const [resolve, reject] = waiting.get(at);
    waiting.delete(at);
    if (error === undefined) resolve(value);
    else if (error.name === "ProtocolError") reject(new ProtocolError(error.message, { code: error.code }));
    else reject(new globalThis[error.name](error.message));
  });
  let calls = 0;
  const run = (...args) => {
    const at = calls++;
    return new Promise((resolve, reject) => {
      waiting.set(at, [resolve, reject]);
      worker.postMessage({ at, args });
    });
  };
  answerFor = async (requestId, message) => {
    const [args, back] = sorted([requestId, message]);
    return back(await run(...args));
  };
} else {
  const script = ${
        JSON.stringify(script.replace(/\n\(\{ answerFor \}\);\s*$/, "\nreturn { answerFor };"))
      };
  const { answerFor: seal } = new Function("ProtocolError", script)(ProtocolError);
  parentPort.on("message", ({ at, args }) => {
    try {
      parentPort.postMessage({ at, value: seal(...args) });
    } catch (error) {
      parentPort.postMessage({ at, error: { name: error.name, message: error.message, code: error.code } });
    }
  });
}
export { answerFor };
${SORTED}
${AUTHORIZE}`,
  },
  // The mark itself, taken away or changed (its name is in the release) before the seal runs in
  // the learner's own realm: it is a property no code can change or remove.
  "unmarking": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      over(`const mark = ${JSON.stringify(GRADED_REALM)};
for (const undo of [
  () => delete Object.prototype[mark],
  () => Object.defineProperty(Object.prototype, mark, { value: undefined }),
  () => Reflect.set(Object.prototype, mark, undefined),
]) {
  try {
    undo();
  } catch {
    // refused
  }
}
// This realm's own, as a script with the names it is given.
const vm = {
  runInNewContext: (code, given) =>
    new Function(...Object.keys(given), code.replace(/[(][{] answerFor [}][)];\\s*$/, "return { answerFor };"))(
      ...Object.values(given),
    ),
};`),
  },
  // The other doors to a realm of one's own, asked of the realm itself: authorize answers right
  // only where each is shut.
  "other-doors": {
    file: "ch14-a.ts",
    fn: "authorize",
    honest: true,
    module: () =>
      UNIT_A.replace(
        "export function authorize(name, catalog, allowed) {",
        `export function authorize(name, catalog, allowed) {
  const open = typeof WebAssembly !== "undefined" || Deno[Deno.internal] !== undefined ||
    typeof process.getBuiltinModule === "function";
  if (open) return !(Object.hasOwn(catalog, name) && allowed.has(name));`,
      ),
  },
};

const list = await gradeClass(LEARNERS);

for (const [name, { fn, ...learner }] of Object.entries(LEARNERS)) {
  if ("honest" in learner) {
    Deno.test(`a learner's realm has no ${name} to make another realm with`, () => {
      const { results, marks } = gradedMarks(list, name, fn);
      assert.ok(marks.every((t) => t.score === t.max_score), report(results, fn));
    });
  } else {
    Deno.test(`a seal run in a realm made by ${name} earns nothing for ${fn}`, () => {
      assertEarnsNothing(list, name, fn);
    });
  }
}
