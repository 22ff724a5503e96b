// Round 18 of the red team, against the mark of a realm where work is graded
// (tools/grading/realm/graded_realm.ts): a seal of the library, run in the
// learner's realm, finds the mark and refuses. A learner who ran it in a
// realm of its own kept every mark of Unit A's answerFor over the seal,
// behind round 7's wrapper, which no watermark sees past: node's CommonJS
// `require`, which an npm package's code is given, found node's modules
// without the import map. ajv's standalone code
// (`ajv/dist/standalone/instance.js`) compiles a module of any text with
// require-from-string, and a keyword of the learner's own put
// `require("vm")` in it, a realm with no mark. The realm now refuses the
// import map's realm makers to `require` too (`Module._load`).
//
// A seal finds the mark's name through its strings' decoder, which called the
// realm's decodeURIComponent: a learner's decodeURIComponent that spelled each
// piece of the mark's name (it is in the release) another way had the seal
// look for a name no realm has, and it kept every mark too. The built-ins a
// seal reads to find the mark are now fixed, and Object.prototype and
// Function.prototype take no new names. The same decodeURIComponent given
// by the object of a `with` the learner ran the seal's text in as a script
// (fixed globals are no help there) kept every mark too: each seal now binds
// the globals its decoder reads as the realm's own, through the Function
// constructor, whose functions read the global scope
// (tools/release/seal_module.ts).
//
// The realm has no WebAssembly (a JavaScript engine compiled to it is a
// realm), but Deno compiled a module of it imported as a module
// (`data:application/wasm;base64,...`) all the same: the sandbox's process now
// compiles none (V8's --wasm-max-module-size=0).
//
// Held: a seal whose every throw is taken out still reports itself reached.
// An npm package outside the sandbox's lock (require-from-string, which ajv
// brings) does not load. And an honest learner keeps every mark with code
// that leans on what the realm's first module touches: helpers added to
// Array.prototype and String.prototype, node:events, a node stream, an
// Error's stack, TextDecoder, `process`, a split on a string; and with node's
// modules and the sandbox's npm packages loaded and used.
//
// Open (README, "a seal taken apart"): the seal's text with its one lookup on
// an object literal replaced (`{}[` by `{__proto__:null}[`) never sees the
// mark, and kept all 30 marks of answerFor behind round 7's wrapper.

import {
  answerForScript,
  authorizeBeginning,
  base64,
  behindSorted,
  gradeClass,
  inRealm,
  standaloneSeal,
  testLearners,
} from "../_seals.ts";
import { GRADED_REALM } from "../../tools/grading/realm/graded_mark.ts";

const LEARNERS = {
  "ajv-require": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      inRealm(`import AjvModule from "ajv/dist/ajv.js";
import AjvPack from "ajv/dist/standalone/instance.js";
import { _Code } from "ajv/dist/compile/codegen/code.js";
const Ajv = AjvModule.default ?? AjvModule;
const ajv = new Ajv({ code: { source: true } });
ajv.addKeyword({
  keyword: "door",
  code: (cxt) => cxt.gen.code(new _Code('globalThis.door = require("vm")')),
});
new (AjvPack.default ?? AjvPack)(ajv).compile({ door: true })({});
const vm = globalThis.door;`),
  },
  "npm-outside-the-lock": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      inRealm(`const requireFromString = (await import("npm:require-from-string@2.0.2")).default;
const vm = requireFromString('module.exports = require("vm")');`),
  },
  // Each piece of the mark's name (the seal splits its strings in 8s) decoded with a 0 after it.
  "decoder-hooked": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: async () =>
      behindSorted(`const mark = ${JSON.stringify(GRADED_REALM)};
const decode = globalThis.decodeURIComponent;
const respelled = (text) => {
  const plain = decode(text);
  return plain.length > 2 && mark.includes(plain) ? plain + "\\u0000" : plain;
};
for (const hook of [
  () => { globalThis.decodeURIComponent = respelled; },
  () => Object.defineProperty(globalThis, "decodeURIComponent", { value: respelled }),
]) {
  try {
    hook();
  } catch {
    // refused
  }
}
const { answerFor: seal } = await import("data:text/javascript;base64,${
        base64(await standaloneSeal("lib/mcp/client/answer.sealed.js"))
      }");`),
  },
  "with-scoped": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: async () =>
      behindSorted(`import { ProtocolError } from "../lib/mcp/shared/errors.ts";
const mark = ${JSON.stringify(GRADED_REALM)};
const decode = globalThis.decodeURIComponent;
const respelled = (text) => {
  const plain = decode(text);
  return plain.length > 2 && mark.includes(plain) ? plain + "\\u0000" : plain;
};
const script = ${
        JSON.stringify(
          (await answerForScript()).replace(
            /\n\(\{ answerFor \}\);\s*$/,
            "\nreturn { answerFor };",
          ),
        )
      };
const { answerFor: seal } = new Function("scope", "ProtocolError", "with (scope) {" + script + "}")(
  { decodeURIComponent: respelled },
  ProtocolError,
);`),
  },
  // The seal's text with every throw taken out, its refusal's with the rest: the seal still
  // reports itself reached before it would have thrown.
  "throws-removed": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: async () =>
      behindSorted(`const { answerFor: seal } = await import("data:text/javascript;base64,${
        base64(
          (await standaloneSeal("lib/mcp/client/answer.sealed.js")).replaceAll("throw ", "void "),
        )
      }");`),
  },
  // Node's modules and the sandbox's npm packages, each loaded and used a little, as honest code does
  // (not ajv-formats, which has no exports map: graded code may not import it, closed_packages.ts),
  // in four learners: all of them in one module cost more than a case's 1 s of CPU to load on a
  // slow or busy machine (gpt-tokenizer alone 0.3 to 0.5 s), as no learner's module does.
  ...honestImports({
    "honest-imports": [
      "node:util",
      "node:stream",
      "node:events",
      "node:buffer",
      "node:crypto",
      "node:zlib",
      "node:url",
      "node:path",
      "node:assert",
      "node:assert/strict",
      "node:string_decoder",
      "node:timers",
      "node:timers/promises",
      "node:querystring",
      "node:perf_hooks",
      "node:async_hooks",
      "node:diagnostics_channel",
      "node:stream/web",
      "node:stream/promises",
      "node:readline",
      "node:process",
      "node:os",
      "node:http",
      "node:net",
      "node:fs",
      "node:child_process",
      "node:tty",
      "node:v8",
    ],
    "honest-imports-schemas": ["zod", "ajv", "ajv/dist/2020.js", "re2js"],
    "honest-imports-more": ["fast-check", "fflate", "oauth4webapi"],
    "honest-imports-tokenizer": ["gpt-tokenizer"],
  }),
  // A module of WebAssembly (one function, add) imported as a module: the realm has no WebAssembly,
  // but Deno compiles a module imported as one without it. authorize answers right only where no
  // such module compiles.
  "wasm-import": {
    file: "ch14-a.ts",
    fn: "authorize",
    honest: true,
    module: () =>
      authorizeBeginning(
        `  if (compiled) return !(Object.hasOwn(catalog, name) && allowed.has(name));`,
        `let compiled = false;
try {
  compiled = (await import("data:application/wasm;base64,AGFzbQEAAAABBwFgAn9/AX8DAgEABwcBA2FkZAAACgkBBwAgACABags=")).add(2, 3) === 5;
} catch {
  // refused
}`,
      ),
  },
  "honest-leaning": {
    file: "ch14-a.ts",
    fn: "authorize",
    honest: true,
    module: () =>
      authorizeBeginning(
        `  const events = new EventEmitter();
  let heard = false;
  events.on("asked", () => heard = true);
  events.emit("asked");
  const where = new Error("here").stack.split("\\n").length > 1;
  const text = new TextDecoder().decode(new TextEncoder().encode(name));
  if (!heard || !where || text !== name || typeof process.pid !== "number" || chunks.join("") !== "ab") return !Object.hasOwn(catalog, name);
  if ([1, 2].lastOne() !== 2 || "a".shout() !== "A" || "a|b".split("|").length !== 2) return !allowed.has(name);`,
        `import { EventEmitter } from "node:events";
import { Readable } from "node:stream";
Array.prototype.lastOne = function () { return this[this.length - 1]; };
String.prototype.shout = function () { return this.toUpperCase(); };
const chunks = [];
Readable.from(["a", "b"]).on("data", (chunk) => chunks.push(chunk));`,
      ),
  },
};

const list = await gradeClass(LEARNERS);

testLearners(list, LEARNERS, {
  honest: (name, fn) => `the learner ${name} keeps every mark of ${fn}`,
  attack: (name, fn) => `a seal run by ${name} earns nothing for ${fn}`,
});

/** For each learner's name, a Unit A that imports each of its modules and uses it, honestly. */
function honestImports(groups: Record<string, readonly string[]>) {
  return Object.fromEntries(
    Object.entries(groups).map(([learner, names]) => [learner, {
      file: "ch14-a.ts",
      fn: "authorize",
      honest: true,
      module: () =>
        authorizeBeginning(
          `  if (failed.length > 0) throw new Error(failed.join("; "));`,
          `const failed = [];
const NAMES = ${JSON.stringify(names)};
for (const name of NAMES) {
  try {
    const m = await import(name);
    // ajv as its documentation imports it: each module's default is its own class.
    if (name === "ajv" && !new m.default().compile({ type: "string" })("x")) throw new Error("Ajv");
    const draft2020 = { $schema: "https://json-schema.org/draft/2020-12/schema", prefixItems: [{ type: "string" }] };
    if (name === "ajv/dist/2020.js" && new m.default().compile(draft2020)([1])) throw new Error("2020");
    if (name === "zod") m.z.object({ a: m.z.string() }).parse({ a: "x" });
    if (name === "node:util") m.inspect({ a: [1, { b: 2 }] }), m.format("%s %o", "a", { b: 1 });
    if (name === "node:crypto") m.createHash("sha256").update("x").digest("hex");
    if (name === "node:zlib") m.gunzipSync(m.gzipSync("abc"));
    if (name === "fflate") m.unzlibSync(m.zlibSync(new Uint8Array([1, 2, 3])));
    if (name === "node:assert") m.default.deepStrictEqual({ a: 1 }, { a: 1 });
    if (name === "fast-check") {
      m.default.assert(m.default.property(m.default.integer(), (n) => n === n), { numRuns: 5 });
    }
  } catch (error) {
    failed.push(name + ": " + error);
  }
}`,
        ),
    }]),
  );
}
