// Round 6 of issue 38's red team: strippers of the seals' watermark the
// hostile tests do not try. Each learner carries a seal encoded (so that no
// form or fingerprint shows it) and wraps it in ordinary code; a wrapper
// that keeps every mark while no probe is answered as a seal answers it has
// stripped the watermark. Each test asserts what a defence must give: the
// function scored 0 as a sealed copy. The first four kept every mark on main
// at fb08917 (splitFrames 21/21, answerFor 16/16, authorize 19/19, sseData
// 11/12, each unflagged): the watermark marked a string a seal writes where a
// right answer carries the probe over, which a wrapper checks against its
// input, and its secrets were 32 hex digits, a look no real case has. The
// next ones are what such a learner tries once the mark is a decision.

import { grade, tree, UNIT_A } from "../_grading.ts";
import { assertEarnsNothing, base64, LAB_04_OTHERS, standaloneSeal } from "../_seals.ts";
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

const [, transferProblems] = CH14_B_CATALOGUE;

/** Unit A's module: `answerFor` as `body` over `run`, the seal's, and the worked authorize. */
const unitAOver = async (body: string) =>
  `${await importSeal("lib/mcp/client/answer.sealed.js", "answerFor: run")}
export function answerFor(requestId, message) {
${body}
}
${UNIT_A.slice(UNIT_A.indexOf("export function authorize"))}`;

/** Unit B's module: `splitFrames` as `body` over `run`, the seal's, and the worked transferProblems. */
const unitBOver = async (body: string, more = "") =>
  `${await importSeal("lib/mcp/shared/split_frames.sealed.js", "splitFrames: run")}
${more}
export function splitFrames(buffer, limit) {
${body}
}
${transferProblems.right["the worked solution's way"]}`;

/** Lab 04's module: `sseData` as the seal's events' data, kept when `keep(data, text)`, else []. */
const lab04Over = async (keep: string, more = "") =>
  `${await importSeal("lib/mcp/shared/read_sse_events.sealed.js", "readSseEvents")}
${more}
export async function sseData(text) {
  const data = [];
  for await (const event of readSseEvents(ReadableStream.from([new TextEncoder().encode(text)]))) {
    data.push(event.data);
  }
  return ${keep} ? data : [];
}
${LAB_04_OTHERS}`;

const LEARNERS: Record<string, { file: string; fn: string; module: () => Promise<string> }> = {
  // splitFrames: the seal's frames kept unless they hold a probe-like string (32 hex digits)
  // the input does not: a right answer only carries such a string over; then [[], buffer].
  "subset-splitframes": {
    file: "ch14-b.ts",
    fn: "splitFrames",
    module: () =>
      unitBOver(
        `const out = run(buffer, limit);
  return carriedOver(out, [buffer]) ? out : [[], buffer.subarray(0)];`,
        SUBSET,
      ),
  },
  // answerFor: the seal only decides whether to throw; the result returned is the message's own.
  "oracle-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      unitAOver(`  run(requestId, message);
  return message.result;`),
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
    module: () => lab04Over("carriedOver(data, [text])", SUBSET),
  },
  // splitFrames: the seal's frames kept only when every frame and the rest are in the input as
  // they are, whatever they look like.
  "subset-every-slice-splitframes": {
    file: "ch14-b.ts",
    fn: "splitFrames",
    module: () =>
      unitBOver(`const seen = new TextDecoder("latin1").decode(buffer);
  const [frames, rest] = run(buffer, limit);
  const texts = [...frames, rest].map((part) => new TextDecoder("latin1").decode(part));
  return texts.every((text) => seen.includes(text)) ? [frames, rest] : [[], buffer.subarray(0)];`),
  },
  // splitFrames: only the frames' lengths taken from the seal, their bytes from the input.
  "lengths-splitframes": {
    file: "ch14-b.ts",
    fn: "splitFrames",
    module: () =>
      unitBOver(`const [frames] = run(buffer, limit);
  let at = 0;
  const own = frames.map((frame) => {
    const bytes = buffer.slice(at, at + frame.length);
    at += frame.length + 1;
    return bytes;
  });
  return [own, buffer.slice(at)];`),
  },
  // sseData: the seal's data kept only when each one is in the text as it is.
  "subset-every-string-ssedata": {
    file: "lab-04.ts",
    fn: "sseData",
    module: () =>
      lab04Over("data.every((one) => one.split('\\n').every((line) => text.includes(line)))"),
  },
  // answerFor: hex-looking strings rewritten to fresh ones before the seal sees them (and back in
  // what it returns), so that no probe of that look reaches it.
  "rehex-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      unitAOver(`const fresh = new Map();
  const hex = /[0-9a-f]{16,}/gi;
  const swap = (value, map) =>
    typeof value === "string" ? value.replace(hex, (word) => map(word))
    : Array.isArray(value) ? value.map((item) => swap(item, map))
    : typeof value === "object" && value !== null
    ? Object.fromEntries(Object.entries(value).map(([k, v]) => [swap(k, map), swap(v, map)]))
    : value;
  const to = (word) => {
    if (!fresh.has(word)) fresh.set(word, crypto.randomUUID().replaceAll("-", ""));
    return fresh.get(word);
  };
  const back = new Map();
  const answer = run(swap(requestId, to), swap(message, to));
  for (const [word, other] of fresh) back.set(other, word);
  return swap(answer, (word) => back.get(word) ?? word);`),
  },
  // answerFor: the seal asked about the reply without its result (the decision cannot depend on
  // it), the message's own result returned.
  "blank-result-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      unitAOver(`const { result, ...rest } = message;
  run(requestId, "result" in message ? { ...rest, result: {} } : rest);
  return result;`),
  },
  // answerFor: the ids the seal sees rewritten to 1, or 1 and 2 (the same where they were the
  // same), the message's own result returned.
  "fresh-ids-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      unitAOver(`const same = message.id === requestId;
  run(1, { ...message, id: same ? 1 : 2 });
  return message.result;`),
  },
  // answerFor: an input seen before answered with an error, the seal asked only the first time
  // (the probes and their twins were the same inputs twice or three times).
  "repeats-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      unitAOver(`const key = JSON.stringify([requestId, message]);
  if ((globalThis.seen ??= new Set()).has(key)) throw new Error("asked already");
  globalThis.seen.add(key);
  return run(requestId, message);`),
  },
  // The brief's own: a Proxy around the seal (expected to hold: the probe reaches the seal).
  "proxy-splitframes": {
    file: "ch14-b.ts",
    fn: "splitFrames",
    module: async () =>
      `${await importSeal("lib/mcp/shared/split_frames.sealed.js", "splitFrames: run")}
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
      `${await importSeal("lib/mcp/shared/split_frames.sealed.js", "splitFrames: run")}
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

const files: Record<string, string> = {};
for (const [name, { file, module }] of Object.entries(LEARNERS)) {
  files[`${name}/${file}`] = await module();
}
const { list } = await grade([await tree(files), "--jobs", "2"]);

for (const [name, { fn }] of Object.entries(LEARNERS)) {
  Deno.test(`a seal stripped by ${name} earns nothing for ${fn}`, () => {
    assertEarnsNothing(list, name, fn);
  });
}
