// A seal refuses to run where work is graded: the realm's first module marks
// it (tools/grading/realm/graded_realm.ts), and a seal looks for the mark
// through an object literal. A realm of the learner's own would hold no mark,
// so the realm has no way to make one: node's modules that make a realm are
// refused by the import map (whatever their spelling), and
// `process.getBuiltinModule`, Deno's internals and WebAssembly are gone.
// Each learner below carries Unit A's seal of answerFor into a realm of its
// own by one of those ways, behind a wrapper the watermark cannot see past;
// each earned every mark before. None of the defences loads node's modules
// for a realm that uses none (node's process cost a realm 11 ms of CPU).

import {
  answerForScript,
  AUTHORIZE,
  authorizeBeginning,
  gradeClass,
  inRealm,
  SORTED,
  testLearners,
} from "./_seals.ts";
import { GRADED_REALM } from "../tools/grading/realm/graded_mark.ts";
import { NO_OTHER_REALM } from "../tools/grading/realm/realm_makers.ts";

const LEARNERS = {
  "node-vm": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () => inRealm(`import vm from "node:vm";`),
  },
  "bare-vm": { file: "ch14-a.ts", fn: "answerFor", module: () => inRealm(`import vm from "vm";`) },
  "require-vm": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      inRealm(`import { createRequire } from "node:module";
const vm = createRequire(import.meta.url)("vm");`),
  },
  "builtin-vm": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () => inRealm(`const vm = process.getBuiltinModule("vm");`),
  },
  "process-builtin-vm": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      inRealm(`import process from "node:process";
const vm = process.getBuiltinModule("vm");`),
  },
  "dynamic-vm": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () => inRealm(`const vm = await import(["node", "vm"].join(":"));`),
  },
  // A node:worker_threads worker is a realm too: the learner's module again, where it runs the
  // seal, each call asked of it and awaited (the grader awaits what a graded function returns).
  "worker-thread": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: async () =>
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
        JSON.stringify(
          (await answerForScript()).replace(
            /\n\(\{ answerFor \}\);\s*$/,
            "\nreturn { answerFor };",
          ),
        )
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
      inRealm(`const mark = ${JSON.stringify(GRADED_REALM)};
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
      authorizeBeginning(
        `  const open = typeof WebAssembly !== "undefined" || Deno[Deno.internal] !== undefined ||
    typeof process.getBuiltinModule === "function";
  if (open) return !(Object.hasOwn(catalog, name) && allowed.has(name));`,
      ),
  },
  // A realm maker asked for by an import, refused in the one message that names every module
  // refused: authorize answers right only where it says it. The import map's message named all but
  // node:inspector/promises. (By node's \`require\`, through ajv's standalone code, which loads
  // require-from-string: ajv's paths no longer load at all, since the sandbox's lock names no
  // package without an exports map, tools/grading/closed_packages.ts.)
  "vm-by-import-or-require": {
    file: "ch14-a.ts",
    fn: "authorize",
    honest: true,
    module: () =>
      authorizeBeginning(
        `  if (said.length !== 1 || said.some((message) => message !== ${
          JSON.stringify(NO_OTHER_REALM)
        })) return !Object.hasOwn(catalog, name);`,
        `const said = [];
for (const name of [["node", "vm"].join(":")]) {
  try {
    await import(name);
  } catch (error) {
    said.push(error.message);
  }
}`,
      ),
  },
};

const list = await gradeClass(LEARNERS);

testLearners(list, LEARNERS, {
  honest: (name) => `a learner's realm has no ${name} to make another realm with`,
  attack: (name, fn) => `a seal run in a realm made by ${name} earns nothing for ${fn}`,
});
