// Round 6 of issue 38's red team: strippers of the seals' watermark the
// hostile tests do not try. Each learner carries a seal encoded (so that no
// form or fingerprint shows it) and wraps it in ordinary code; a wrapper
// that keeps every mark while no probe is answered as a seal answers it has
// stripped the watermark. Each test asserts what a defence must give: the
// function scored 0 as a sealed copy. Run (the open ones too):
//   ROUND6_OPEN=1 deno test -A tests/attacks_round6/seal_strippers_test.ts

import assert from "node:assert/strict";
import { grade, type Results, tree, UNIT_A } from "../_grading.ts";
import { base64, LAB_04_OTHERS, standaloneSeal } from "../_seals.ts";
import { CH14_B as CH14_B_CATALOGUE } from "../catalogue/ch14_b.ts";

const importSeal = async (file: string, names: string) =>
  `const { ${names} } = await import("data:text/javascript;base64,${
    base64(await standaloneSeal(file))
  }");`;

/** A generic stripper: whether every probe-like string `out` holds occurs in `args`, as text. */
const SUBSET = String.raw`
const latin1 = new TextDecoder("latin1");
function textsOf(value, into = []) {
  if (typeof value === "string") into.push(value);
  else if (value instanceof Uint8Array) into.push(latin1.decode(value));
  else if (value instanceof Set || value instanceof Map) for (const v of value.entries()) textsOf(v, into);
  else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) { into.push(k); textsOf(v, into); }
  }
  return into;
}
// Only what looks like the probe's kind of string (32 hex digits) is held to the input.
function carriedOver(out, args) {
  const seen = textsOf(args).join("\u0000");
  return textsOf(out).flatMap((t) => t.match(/[0-9a-f]{32}/gi) ?? []).every((w) => seen.includes(w));
}`;

const marksOf = (results: Results, fn: string) =>
  results.tests.filter((t) => t.name.startsWith(`${fn}: `));

function report(results: Results, fn: string): string {
  const marks = marksOf(results, fn);
  const earned = marks.filter((t) => t.score === t.max_score).length;
  const line = results.tests.find((t) => t.name === "every graded function is the learner's own");
  return `${fn} ${earned}/${marks.length}; own-code line: ${line?.output ?? "(none)"}`;
}

/** That `fn` scored 0 in every case as a sealed copy. */
function assertCaught(results: Results, fn: string): void {
  const marks = marksOf(results, fn);
  assert.ok(marks.length > 0, fn);
  assert.ok(marks.every((t) => t.score === 0), `stripped: ${report(results, fn)}`);
}

const [, transferProblems] = CH14_B_CATALOGUE;

/**
 * The strippers that still keep their marks (round 6, on main at fb08917:
 * splitFrames 21/21, answerFor 16/16, authorize 19/19, sseData 11/12, each
 * unflagged). The watermark marks what a seal answers to a probe, and each
 * of these checks that answer against its input, or the input against the
 * probe's look, in ordinary code: no probe of the same kind can catch them.
 * Their tests are skipped until the watermark is made again; set
 * ROUND6_OPEN=1 to run them.
 */
const OPEN = new Set([
  "subset-splitframes",
  "oracle-answerfor",
  "looks-authorize",
  "subset-ssedata",
]);
const runOpen = Deno.env.get("ROUND6_OPEN") === "1";

const LEARNERS: Record<string, { file: string; fn: string; module: () => Promise<string> }> = {
  // splitFrames: the seal's frames kept unless they hold a probe-like string (32 hex digits)
  // the input does not: a right answer only carries such a string over; then [[], buffer].
  "subset-splitframes": {
    file: "ch14-b.ts",
    fn: "splitFrames",
    module: async () =>
      `${await importSeal("lib/mcp/shared/framing.sealed.js", "splitFrames: run")}
${SUBSET}
export function splitFrames(buffer, limit) {
  const out = run(buffer, limit);
  return carriedOver(out, [buffer]) ? out : [[], buffer.subarray(0)];
}
${transferProblems.right["the worked solution's way"]}`,
  },
  // answerFor: the seal only decides whether to throw; the result returned is the message's own.
  "oracle-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: async () =>
      `${await importSeal("lib/mcp/client/answer.sealed.js", "answerFor: run")}
export function answerFor(requestId, message) {
  run(requestId, message);
  return message.result;
}
${UNIT_A.slice(UNIT_A.indexOf("export function authorize"))}`,
  },
  // authorize: the seal asked, unless the name looks like the probe's kind of string.
  "looks-authorize": {
    file: "ch14-a.ts",
    fn: "authorize",
    module: async () =>
      `${await importSeal("lib/mcp/client/allowlist.sealed.js", "authorize: run")}
${UNIT_A.slice(0, UNIT_A.indexOf("export function authorize")).replace(/^import.*$/m, "")}
export function authorize(name, catalog, allowed) {
  if (typeof name === "string" && /^[0-9a-f]{32}$/.test(name)) return false;
  return run(name, catalog, allowed);
}`.replace(
        "export function answerFor",
        `class ProtocolError extends Error { name = "ProtocolError"; constructor(m, o) { super(m); if (o) this.code = o.code; } }
export function answerFor`,
      ),
  },
  // sseData: the seal's data kept unless it holds a probe-like string the text does not.
  "subset-ssedata": {
    file: "lab-04.ts",
    fn: "sseData",
    module: async () =>
      `${await importSeal("lib/mcp/shared/sse.sealed.js", "readSseEvents")}
${SUBSET}
export async function sseData(text) {
  const data = [];
  for await (const event of readSseEvents(ReadableStream.from([new TextEncoder().encode(text)]))) {
    data.push(event.data);
  }
  return carriedOver(data, [text]) ? data : [];
}
${LAB_04_OTHERS}`,
  },
  // The brief's own: a Proxy around the seal (expected to hold: the probe reaches the seal).
  "proxy-splitframes": {
    file: "ch14-b.ts",
    fn: "splitFrames",
    module: async () =>
      `${await importSeal("lib/mcp/shared/framing.sealed.js", "splitFrames: run")}
const proxied = new Proxy(run, { apply: (target, self, args) => Reflect.apply(target, self, args) });
export function splitFrames(buffer, limit) {
  return proxied(buffer, limit);
}
${transferProblems.right["the worked solution's way"]}`,
  },
  // Answers cached for inputs seen (expected to hold: the probe is an input never seen).
  "cached-splitframes": {
    file: "ch14-b.ts",
    fn: "splitFrames",
    module: async () =>
      `${await importSeal("lib/mcp/shared/framing.sealed.js", "splitFrames: run")}
const cache = new Map();
export function splitFrames(buffer, limit) {
  const key = Array.from(buffer).join(",") + "/" + limit;
  if (!cache.has(key)) {
    try { cache.set(key, { out: run(buffer, limit) }); } catch (error) { cache.set(key, { error }); }
  }
  const hit = cache.get(key);
  if (hit.error) throw hit.error;
  return [hit.out[0].map((f) => f.slice()), hit.out[1].slice()];
}
${transferProblems.right["the worked solution's way"]}`,
  },
};

const graded = Object.entries(LEARNERS).filter(([name]) => runOpen || !OPEN.has(name));
const files: Record<string, string> = {};
for (const [name, { file, module }] of graded) files[`${name}/${file}`] = await module();
const { list } = await grade([await tree(files), "--jobs", "2"]);

for (const [name, { fn }] of Object.entries(LEARNERS)) {
  Deno.test({
    name: `a seal stripped by ${name} earns nothing for ${fn}`,
    ignore: OPEN.has(name) && !runOpen,
  }, () => {
    const results = list.find((r) => r.submission.endsWith(`/${name}`));
    assert.ok(results !== undefined, `${name} was not graded`);
    console.log(`${name}: ${report(results, fn)}`);
    assertCaught(results, fn);
  });
}
