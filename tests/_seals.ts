// Shared by the tests that carry the library's seals as a learner would:
// encoded, run as a module of their own, beside Lab 04's other functions.

import assert from "node:assert/strict";
import { HOLDOUTS } from "../holdouts/mod.ts";
import { grade, type Results, ROOT, tree, UNIT_A } from "./_grading.ts";
import { loadWatermark } from "../tools/grading/watermark.ts";
import { sealModule } from "../tools/release/seal_module.ts";
import type { WatermarkOptions } from "../tools/release/watermarked.ts";

/** `text` in base64, as a learner would carry it in a cell. */
export const base64 = (text: string) => new TextEncoder().encode(text).toBase64();

/**
 * The seal `file` as a module of its own: its header and imports gone, the
 * one class it imports defined. With `whereGraded: false`, the seal as one
 * run where the realm's mark cannot be seen would answer (by a JavaScript
 * interpreter written in JavaScript, whose objects are its own): made again
 * without its refusal where work is graded, so that the watermark, the
 * second line, is what knows it.
 */
export async function standaloneSeal(
  file: string,
  options: WatermarkOptions = {},
): Promise<string> {
  const code = options.whereGraded === false
    ? await unmarkedSeal(file)
    : (await Deno.readTextFile(`${ROOT}${file}`)).split("\n").slice(1).join("\n");
  return code
    .replace(/import\{[^}]*\}from'[^']*';/g, "")
    .replace(/^/, "class ProtocolError extends Error { name = 'ProtocolError'; }\n");
}

/** Each seal made without its refusal where work is graded, made once a test file (a bundle and an obfuscation). */
const unmarked = new Map<string, Promise<string>>();
const unmarkedSeal = (file: string) => {
  if (!unmarked.has(file)) {
    unmarked.set(
      file,
      loadWatermark().then((watermark) =>
        sealModule(file.replace(/\.sealed\.js$/, ".ts"), watermark!, { whereGraded: false })
      ),
    );
  }
  return unmarked.get(file)!;
};

/** A line that imports the seal `file` as a module of its own, encoded, binding `names` (`a: b, c`). */
export const importSeal = async (file: string, names: string, options: WatermarkOptions = {}) =>
  `const { ${names} } = await import("data:text/javascript;base64,${
    base64(await standaloneSeal(file, options))
  }");`;

/** Lab 04's graded functions but sseData, each doing nothing: a module the grader takes for Lab 04. */
export const LAB_04_OTHERS = [
  "routeReply",
  "expiredIds",
  "progressOf",
  "postHeaders",
  "replyKind",
  "recoverStream",
  "originAllowed",
  "headerCheck",
  "sessionCheck",
].map((name) => `export function ${name}() {}`).join("\n");

/** The marks `results` give the graded function `fn`, one a case. */
export const marksOf = (results: Results, fn: string) =>
  results.tests.filter((t) => t.name.startsWith(`${fn}: `));

/** What `fn` earned in `results`, and what the own-code line said, in one line. */
export function report(results: Results, fn: string): string {
  const marks = marksOf(results, fn);
  const earned = marks.filter((t) => t.score === t.max_score).length;
  const line = results.tests.find((t) => t.name === "every graded function is the learner's own");
  return `${fn} ${earned}/${marks.length}; own-code line: ${line?.output ?? "(none)"}`;
}

/** Assert that the learner `name` of `list` earned nothing for `fn`, saying what they kept if not. */
export function assertEarnsNothing(list: readonly Results[], name: string, fn: string): void {
  const { results, marks } = gradedMarks(list, name, fn);
  assert.ok(
    marks.every((t) => t.score === 0),
    `kept marks${flagged(results) ? "" : ", not flagged"}: ${report(results, fn)}`,
  );
}

/**
 * Assert that the learner `name` of `list` lost every mark of `fn`'s hidden
 * cases of `group` in `unit` (at least as many marks as the group holds),
 * saying what they kept if not.
 */
export function assertLosesGroup(
  list: readonly Results[],
  name: string,
  [unit, fn, group]: [string, string, string],
): void {
  const { results, marks } = gradedMarks(list, name, fn);
  const lost = marks.filter((t) => t.score !== t.max_score).length;
  const held = HOLDOUTS.get(unit)![fn].filter((c) => c.group === group).length;
  assert.ok(held > 0 && lost >= held, `lost ${lost} of ${held} marks: ${report(results, fn)}`);
}

/**
 * Whether `results` say some graded function is not the learner's own: the
 * line is there only then, and scores nothing (0 of 0) when it is.
 */
export const flagged = (results: Results) =>
  results.tests.some((t) => t.name === "every graded function is the learner's own");

/** The results in `list` of the learner `name`, and their marks for `fn` (some), reported. */
export function gradedMarks(list: readonly Results[], name: string, fn: string) {
  const results = list.find((r) => r.submission.endsWith(`/${name}`));
  assert.ok(results !== undefined, `${name} was not graded`);
  console.log(`${name}: ${report(results, fn)}`);
  const marks = marksOf(results, fn);
  assert.ok(marks.length > 0, fn);
  return { results, marks };
}

/**
 * Each of `learners` (by name: the file it submits and its module's text)
 * in a folder of their own, graded together as a class by `deno task grade`.
 */
export async function gradeClass(
  learners: Record<string, { file: string; module: () => string | Promise<string> }>,
): Promise<Results[]> {
  const files: Record<string, string> = {};
  for (const [name, { file, module }] of Object.entries(learners)) {
    files[`${name}/${file}`] = await module();
  }
  return (await grade([await tree(files), "--jobs", "2"])).list;
}

/** The worked Unit A's authorize, and its answerFor (with its import). */
export const AUTHORIZE = UNIT_A.slice(UNIT_A.indexOf("export function authorize"));
export const ANSWER_FOR = UNIT_A.slice(0, UNIT_A.indexOf("export function authorize"));

/** Unit A's module: `answerFor` as `body` over `run`, the seal's, then the worked authorize. */
export const answerForOver = async (body: string, more = "") =>
  `${await importSeal("lib/mcp/client/answer.sealed.js", "answerFor: run")}
${more}
export function answerFor(requestId, message) {
${body}
}
${AUTHORIZE}`;

/** A learner's own error class, as a module that carries a seal defines it. */
export const PROTOCOL_ERROR =
  `class ProtocolError extends Error { name = "ProtocolError"; constructor(m, o) { super(m); if (o) this.code = o.code; } }`;

/**
 * The start of a Unit A module whose authorize runs the seal's (as `run`):
 * the seal, `state`, and the worked answerFor, doing `noted` first.
 */
export const authorizeOver = async (state: string, noted: string) =>
  `${await importSeal("lib/mcp/client/allowlist.sealed.js", "authorize: run")}
${PROTOCOL_ERROR}
${state}
${
    ANSWER_FOR.replace(/^import.*$/m, "").replace(
      "export function answerFor(requestId, message) {",
      `export function answerFor(requestId, message) {\n  ${noted}`,
    )
  }`;

/** Unit A's seal of answerFor as a script for another realm, given the class it imports, ending in an object of its answerFor. */
export const answerForScript = async () =>
  (await standaloneSeal("lib/mcp/client/answer.sealed.js"))
    .replace(/^class ProtocolError.*\n/, "")
    .replace(/export\{[^}]*\};?/g, "") + "\n({ answerFor });";

/**
 * Round 7's wrapper: `sorted(args)` gives the arguments with the words of
 * every name of a tool's look sorted, and a function that writes them back
 * in an answer. The watermark never sees its token behind it.
 */
export const SORTED = `const NAME = /[a-z]+(?:_[a-z]+){2,}/g;
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

/** Unit A whose answerFor is `seal` (as `preamble` defines it) behind {@linkcode SORTED}, then the worked authorize. */
export const behindSorted = (preamble: string) =>
  `${preamble}
${SORTED}
export function answerFor(requestId, message) {
  const [args, back] = sorted([requestId, message]);
  return back(seal(...args));
}
${AUTHORIZE}`;

/**
 * Unit A over its seal of answerFor run in the realm `vm` (node:vm's
 * exports, as `preamble` gets them) makes, behind {@linkcode SORTED}: only
 * the realm's mark could know the seal.
 */
export const inRealm = async (preamble: string) =>
  behindSorted(`${preamble}
import { ProtocolError } from "../lib/mcp/shared/errors.ts";
const { answerFor: other } = vm.runInNewContext(${
    JSON.stringify(await answerForScript())
  }, { ProtocolError });
// Errors of the other realm's own classes, thrown again as this realm's.
function seal(...args) {
  try {
    return other(...args);
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    throw new globalThis[error.name](error.message);
  }
}`);

/**
 * A test for each of `learners` graded in `list`: one marked `honest` keeps
 * every mark of its `fn`, titled by `honest`; any other earns nothing for
 * it, titled by `attack`.
 */
export function testLearners(
  list: readonly Results[],
  learners: Record<string, { fn: string; honest?: boolean }>,
  titles: {
    honest: (name: string, fn: string) => string;
    attack: (name: string, fn: string) => string;
  },
): void {
  for (const [name, { fn, honest }] of Object.entries(learners)) {
    if (honest) {
      Deno.test(titles.honest(name, fn), () => {
        const { results, marks } = gradedMarks(list, name, fn);
        assert.ok(marks.every((t) => t.score === t.max_score), report(results, fn));
      });
    } else Deno.test(titles.attack(name, fn), () => assertEarnsNothing(list, name, fn));
  }
}

/** The worked Unit A whose authorize begins with `lines`, after `before` at the module's top level. */
export const authorizeBeginning = (lines: string, before = "") =>
  UNIT_A.replace(
    "export function authorize(name, catalog, allowed) {",
    `${before}\nexport function authorize(name, catalog, allowed) {\n${lines}`,
  );
