// Round 7 of issue 38's red team: the seals' watermark that marks a decision,
// its twins and its secrets of a tool name's look, tried by hostile learners
// who hold the release (the seals, not the hidden cases) and by honest ones.
// Each hostile learner carries a seal encoded and wraps it in cheap, generic
// code; each test asserts what a defence must give: the function scored 0 as
// a sealed copy. Each honest learner's own code, right or wrong, must never
// be taken for a seal. Three attempts still succeeded after every watermark
// change (sorted-names-answerfor and retry-rotated-answerfor 30/30,
// vote-rotated-ssedata 27/29): they earn nothing since a seal refuses to run
// where work is graded (the realm's mark, tools/grading/realm/graded_mark.ts).

import assert from "node:assert/strict";
import { UNIT_A } from "../_grading.ts";
import {
  assertEarnsNothing,
  base64,
  flagged,
  gradeClass,
  gradedMarks,
  importSeal,
  LAB_04_OTHERS,
  report,
} from "../_seals.ts";
import { CH14_B as CH14_B_CATALOGUE } from "../catalogue/ch14_b.ts";
import { WORKED as LAB_01_WORKED } from "../catalogue/lab_01.ts";
import { PROBE, TOKEN } from "../../holdouts/watermark.ts";

const [, transferProblems] = CH14_B_CATALOGUE;
const AUTHORIZE = UNIT_A.slice(UNIT_A.indexOf("export function authorize"));
const ANSWER_FOR = UNIT_A.slice(0, UNIT_A.indexOf("export function authorize"));

/**
 * Strings and bytes rewritten by `f` (a string to a string of the same
 * length, for bytes), at any depth of arrays and plain objects, keys too.
 */
const MAP_TEXTS = String.raw`
const latin1 = new TextDecoder("latin1");
function mapTexts(value, f) {
  if (typeof value === "string") return f(value);
  if (value instanceof Uint8Array) {
    const text = f(latin1.decode(value));
    return Uint8Array.from(text, (c) => c.charCodeAt(0));
  }
  if (Array.isArray(value)) return value.map((item) => mapTexts(item, f));
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [f(k), mapTexts(v, f)]));
  }
  return value;
}
// A tool name's look: words joined by "_", three or more.
const NAME = /[a-z]+(?:_[a-z]+){2,}/g;`;

/** Whether `text` holds a name whose words were seen before in another order, remembering it. */
const REORDERED = String.raw`
const seen = new Map();
function reordered(text) {
  let again = false;
  for (const name of text.match(NAME) ?? []) {
    const key = name.split("_").sort().join("_");
    const names = seen.get(key) ?? new Set();
    seen.set(key, names.add(name));
    again ||= names.size > 1;
  }
  return again;
}`;

/** Unit A's module: `answerFor` as `body` over `run`, the seal's, then the worked authorize. */
const unitAOver = async (body: string, more = "") =>
  `${await importSeal("lib/mcp/client/answer.sealed.js", "answerFor: run")}
${MAP_TEXTS}
${more}
export function answerFor(requestId, message) {
${body}
}
${AUTHORIZE}`;

/** Unit B's module: `splitFrames` as `body` over `run`, the seal's, and the worked transferProblems. */
const unitBOver = async (body: string, more = "") =>
  `${await importSeal("lib/mcp/shared/split_frames.sealed.js", "splitFrames: run")}
${MAP_TEXTS}
${more}
export function splitFrames(buffer, limit) {
${body}
}
${transferProblems.right["the worked solution's way"]}`;

/** Lab 04's module: `sseData` as `body` over `dataOf(text)`, the seal's events' data. */
const lab04Over = async (body: string) =>
  `${await importSeal("lib/mcp/shared/read_sse_events.sealed.js", "readSseEvents")}
${MAP_TEXTS}
async function dataOf(text) {
  const data = [];
  for await (const event of readSseEvents(ReadableStream.from([new TextEncoder().encode(text)]))) {
    data.push(event.data);
  }
  return data;
}
export async function sseData(text) {
${body}
}
${LAB_04_OTHERS}`;

/**
 * The seal's secret, learnt without reading its source: while the seal runs on
 * a harmless input holding a string, every needle `String.prototype.includes`
 * is asked for is kept, and the one the seal refuses is its token.
 */
const SPY = (refuses: string) =>
  String.raw`
const needles = new Set();
const includes = String.prototype.includes;
String.prototype.includes = function (needle, ...rest) {
  needles.add(String(needle));
  return includes.call(this, needle, ...rest);
};
try { run("x", { jsonrpc: "2.0", id: "x", result: {} }); } catch {}
try { run(new Uint8Array(0), 65536, "x"); } catch {}
String.prototype.includes = includes;
const secret = [...needles].find((needle) => needle.length > 3 && (${refuses})(needle));
const other = secret === undefined ? undefined : [...secret].reverse().join("");
const hide = (text) => secret === undefined ? text : text.replaceAll(secret, other);
const show = (text) => secret === undefined ? text : text.replaceAll(other, secret);`;

/** `blinded(f)`: `f()` with the built-ins a seal could find the token by replaced, then put back. */
const BLINDED = String.raw`
function blinded(f) {
  const saved = [Math.imul, String.prototype.indexOf, Uint8Array.prototype.indexOf, Object.values,
    String.prototype.includes];
  Math.imul = () => 0;
  String.prototype.indexOf = function (what, ...rest) {
    return what === "_" ? -1 : saved[1].call(this, what, ...rest);
  };
  Uint8Array.prototype.indexOf = function (what, ...rest) {
    return what === 95 ? -1 : saved[2].call(this, what, ...rest);
  };
  Object.values = (value) => Array.isArray(value) ? saved[3](value) : [];
  String.prototype.includes = function (what, ...rest) {
    return String(what).length > 3 ? false : saved[4].call(this, what, ...rest);
  };
  try {
    return f();
  } finally {
    [Math.imul, String.prototype.indexOf, Uint8Array.prototype.indexOf, Object.values,
      String.prototype.includes] = saved;
  }
}`;

interface Learner {
  file: string;
  fn: string;
  module: () => string | Promise<string>;
  /** Hostile: must score 0 as a copy. Honest: must never be taken for one. */
  hostile: boolean;
  /**
   * Hostile, and not a copy the grader can know: it refuses the secrets' look, so it must lose
   * the hidden cases of that look (at least two marks) instead.
   */
  refusesLook?: true;
}

const LEARNERS: Record<string, Learner> = {
  // The seal pasted, behind nothing: what each attempt below is measured against.
  "pasted-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    hostile: true,
    module: () => unitAOver("  return run(requestId, message);"),
  },
  // answerFor: an input holding a name whose words were seen before in another order (the token
  // after the control, or the control after the token) answered with an error; every other input
  // the seal's. Twins and probes are not marks, so it cost nothing while the control was the
  // token's words reordered; drawn apart now, it spoils no twin.
  "reordered-name-spoils-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    hostile: true,
    module: () =>
      unitAOver(
        `if (reordered(JSON.stringify([requestId, message]))) throw new Error("seen in another order");
  return run(requestId, message);`,
        REORDERED,
      ),
  },
  // answerFor, stateless: each name of three words or more given to the seal with its words
  // sorted (the token and the control become one name, which is neither, or both the token), and
  // written back in the answer. Rewrites only the names, which most inputs do not hold.
  "sorted-names-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    hostile: true,
    module: () =>
      unitAOver(`const back = new Map();
  const sort = (text) => text.replace(NAME, (name) => {
    const sorted = name.split("_").sort().join("_");
    back.set(sorted, name);
    return sorted;
  });
  const args = mapTexts([requestId, message], sort);
  const answer = run(...args);
  return mapTexts(answer, (text) => text.replace(NAME, (name) => back.get(name) ?? name));`),
  },
  // answerFor: an input holding a name of three five-letter words refused: the secrets' look, as
  // the seal's own strings showed it. No hidden case held such a name; now each probed function
  // has hidden cases of that look, which it loses.
  "secrets-look-refused-answerfor": {
    refusesLook: true,
    file: "ch14-a.ts",
    fn: "answerFor",
    hostile: true,
    module: () =>
      unitAOver(`if (/[a-z]{5}_[a-z]{5}_[a-z]{5}/.test(JSON.stringify([requestId, message]))) {
    throw new Error("not a name I know");
  }
  return run(requestId, message);`),
  },
  // answerFor: the seal's error caught, and the seal asked again with each name's words rotated
  // (written back in the answer); the retry's answer kept when it has one, else the first error.
  "retry-rotated-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    hostile: true,
    module: () =>
      unitAOver(`try {
    return run(requestId, message);
  } catch (error) {
    const back = new Map();
    const rotate = (text) => text.replace(NAME, (name) => {
      const [first, ...rest] = name.split("_");
      const turned = [...rest, first].join("_");
      back.set(turned, name);
      return turned;
    });
    try {
      const answer = run(...mapTexts([requestId, message], rotate));
      return mapTexts(answer, (text) => text.replace(NAME, (name) => back.get(name) ?? name));
    } catch {
      throw error;
    }
  }`),
  },
  // answerFor: the seal's token learnt by spying on String.prototype.includes while it runs
  // once, then hidden from it (reversed before, and back after).
  "spied-token-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    hostile: true,
    module: () =>
      unitAOver(
        `return mapTexts(run(...mapTexts([requestId, message], hide)), show);`,
        SPY(
          `(needle) => { try { run(needle, { jsonrpc: "2.0", id: needle, result: {} }); return false; } catch { return true; } }`,
        ),
      ),
  },
  // splitFrames: the same spy, the seal given one string more to search; the token's bytes
  // reversed before the seal splits the buffer, and back in its frames and rest.
  "spied-token-splitframes": {
    file: "ch14-b.ts",
    fn: "splitFrames",
    hostile: true,
    module: () =>
      unitBOver(
        `const [frames, rest] = run(mapTexts(buffer, hide), limit);
  return [frames.map((frame) => mapTexts(frame, show)), mapTexts(rest, show)];`,
        SPY(
          `(needle) => { try { run(new TextEncoder().encode(needle + "\\n"), 65536); return false; } catch { return true; } }`,
        ),
      ),
  },
  // sseData: the seal's data for the text and for the text with each name's words rotated
  // (written back): whichever has more events is kept.
  "vote-rotated-ssedata": {
    file: "lab-04.ts",
    fn: "sseData",
    hostile: true,
    module: () =>
      lab04Over(`const back = new Map();
  const rotate = (t) => t.replace(NAME, (name) => {
    const [first, ...rest] = name.split("_");
    const turned = [...rest, first].join("_");
    back.set(turned, name);
    return turned;
  });
  const plain = await dataOf(text);
  const turned = (await dataOf(rotate(text))).map((d) => d.replace(NAME, (n) => back.get(n) ?? n));
  return turned.length > plain.length ? turned : plain;`),
  },
  // answerFor: an input of the same skeleton (its strings and numbers blanked) as the one before
  // answered with an error: the twins come two in a row. Costs the hidden cases that follow one
  // of their own shape.
  "same-skeleton-spoils-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    hostile: true,
    module: () =>
      unitAOver(
        `const skeleton = JSON.stringify([requestId, message], (_, v) =>
    typeof v === "string" ? "s" : typeof v === "number" ? 0 : v);
  const repeated = skeleton === last;
  last = skeleton;
  if (repeated) throw new Error("the same again");
  return run(requestId, message);`,
        "let last;",
      ),
  },
  // authorize: the seal asked only for a tool the catalogue advertises (a guard a careful
  // learner writes anyway): the token names no tool of the probe's catalogue.
  "advertised-guard-authorize": {
    file: "ch14-a.ts",
    fn: "authorize",
    hostile: true,
    module: async () =>
      `${await importSeal("lib/mcp/client/allowlist.sealed.js", "authorize: run")}
${ANSWER_FOR.replace(/^import.*$/m, "")}
export function authorize(name, catalog, allowed) {
  return typeof catalog === "object" && catalog !== null && Object.hasOwn(catalog, name) &&
    run(name, catalog, allowed);
}`.replace(
        "export function answerFor",
        `class ProtocolError extends Error { name = "ProtocolError"; constructor(m, o) { super(m); if (o) this.code = o.code; } }
export function answerFor`,
      ),
  },

  // The secrets' look refused in the other units' decisions too: splitFrames's bytes, sseData's
  // text; and the reordered-name spoiler on splitFrames's bytes.
  "secrets-look-refused-splitframes": {
    refusesLook: true,
    file: "ch14-b.ts",
    fn: "splitFrames",
    hostile: true,
    module: () =>
      unitBOver(
        `if (/[a-z]{5}_[a-z]{5}_[a-z]{5}/.test(latin1.decode(buffer))) throw new RangeError("no");
  return run(buffer, limit);`,
      ),
  },
  "secrets-look-refused-ssedata": {
    refusesLook: true,
    file: "lab-04.ts",
    fn: "sseData",
    hostile: true,
    module: () =>
      lab04Over(`if (/[a-z]{5}_[a-z]{5}_[a-z]{5}/.test(text)) throw new Error("no");
  return await dataOf(text);`),
  },
  "reordered-name-spoils-splitframes": {
    file: "ch14-b.ts",
    fn: "splitFrames",
    hostile: true,
    module: () =>
      unitBOver(
        `if (reordered(latin1.decode(buffer))) throw new RangeError("seen in another order");
  return run(buffer, limit);`,
        REORDERED,
      ),
  },
  // negotiateVersion: the dispatcher's seal carried with its imports stubbed (it needs none to
  // negotiate), and its answer kept only when it is a version the lesson names: a check a careful
  // learner writes anyway.
  "known-versions-negotiateversion": {
    file: "lab-01.ts",
    fn: "negotiateVersion",
    hostile: true,
    module: async () => {
      const seal = (await Deno.readTextFile(
        new URL("../../lib/mcp/server/dispatch.sealed.js", import.meta.url),
      )).split("\n").slice(1).join("\n")
        .replace(
          /import\{([^}]*)\}from'[^']*';/g,
          (_, names: string) => `const {${names.replaceAll(" as ", ":")}}=stub;`,
        );
      const stubbed = `const stub = new Proxy(function () {}, {
  get: (_, key) => key === "then" ? undefined : stub, apply: () => stub, construct: () => stub });
${seal}`;
      return LAB_01_WORKED.replace(
        /export function negotiateVersion\(requested\) \{[^}]*\}/,
        `const { negotiateVersion: run } = await import("data:text/javascript;base64,${
          base64(stubbed)
        }");
export function negotiateVersion(requested) {
  const version = run(requested);
  return HANDSHAKE_VERSIONS.includes(version) ? version : HANDSHAKE_VERSIONS[0];
}`,
      );
    },
  },
  // The built-ins a seal might find the token with, replaced while the seal runs (the product
  // of two 32-bit numbers is 0, no "_" is found by indexOf, no value of an object but an array's
  // is listed, no string longer than three is held), and put back after: a seal that used them
  // to know the token would not know it, and works on. Found by attacking round 8's keyed hash,
  // which used Math.imul and indexOf.
  "patched-builtins-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    hostile: true,
    module: () => unitAOver(`return blinded(() => run(requestId, message));`, BLINDED),
  },
  "patched-builtins-splitframes": {
    file: "ch14-b.ts",
    fn: "splitFrames",
    hostile: true,
    module: () => unitBOver(`return blinded(() => run(buffer, limit));`, BLINDED),
  },
  "patched-builtins-authorize": {
    file: "ch14-a.ts",
    fn: "authorize",
    hostile: true,
    module: async () =>
      `${await importSeal("lib/mcp/client/allowlist.sealed.js", "authorize: run")}
${BLINDED}
${ANSWER_FOR.replace(/^import.*$/m, "")}
export function authorize(name, catalog, allowed) {
  return blinded(() => run(name, catalog, allowed));
}`.replace(
        "export function answerFor",
        `class ProtocolError extends Error { name = "ProtocolError"; constructor(m, o) { super(m); if (o) this.code = o.code; } }
export function answerFor`,
      ),
  },
  // Honest learners: their own code, right or wrong, keeping state.
  // answerFor memoised by id: the first result seen for an id is returned for it ever after.
  "honest-memo-by-id-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    hostile: false,
    module: () =>
      `${
        UNIT_A.replace(
          "return message.result;",
          `if (!memo.has(requestId)) memo.set(requestId, message.result);
  return memo.get(requestId);`,
        )
      }
const memo = new Map();`,
  },
  // answerFor refusing a reply to an id it has answered before (a reply twice), or a result it
  // has returned before.
  "honest-refuses-repeats-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    hostile: false,
    module: () =>
      `${
        UNIT_A.replace(
          "return message.result;",
          `const key = JSON.stringify(message.result);
  if (answered.has(message.id) || answered.has(key)) throw new ProtocolError("a reply twice");
  answered.add(message.id).add(key);
  return message.result;`,
        )
      }
const answered = new Set();`,
  },
  // answerFor that lower-cases and sorts the words of each string id before comparing them
  // (wrong: ids are compared as they are), the first time it sees a word wrong and right after.
  "honest-sorted-words-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    hostile: false,
    module: () =>
      `${
        UNIT_A.replace(
          "if (message.id !== requestId)",
          `const norm = (id) => typeof id === "string" ? id.toLowerCase().split(/[_ ]/).sort().join("_") : id;
  if (typeof requestId === "string" && !words.has(requestId)) {
    words.add(requestId);
    throw new ProtocolError("an id I have not seen yet");
  }
  if (norm(message.id) !== norm(requestId))`,
        )
      }
const words = new Set();`,
  },
  // splitFrames keeping what was left after the last newline for the next call (wrong: the rest
  // is the caller's), dropping duplicate frames.
  "honest-rest-buffer-splitframes": {
    file: "ch14-b.ts",
    fn: "splitFrames",
    hostile: false,
    module: () =>
      `import { ProtocolError } from "../lib/mcp/shared/errors.ts";
let kept = new Uint8Array(0);
const seen = new Set();
export function splitFrames(buffer, limit) {
  const all = new Uint8Array(kept.length + buffer.length);
  all.set(kept);
  all.set(buffer, kept.length);
  const frames = [];
  let start = 0;
  for (let at = all.indexOf(10); at !== -1; at = all.indexOf(10, start)) {
    const frame = all.slice(start, at);
    if (frame.length > limit) throw new ProtocolError("frame over the limit");
    const key = frame.join();
    if (!seen.has(key)) frames.push(frame);
    seen.add(key);
    start = at + 1;
  }
  if (all.length - start > limit) throw new ProtocolError("rest over the limit");
  kept = all.slice(start);
  return [frames, all.slice(start)];
}
${transferProblems.right["the worked solution's way"]}`,
  },
  // sseData that lower-cases and dedups the data it has seen, with a random id per event.
  "honest-dedup-ssedata": {
    file: "lab-04.ts",
    fn: "sseData",
    hostile: false,
    module: () =>
      `const seen = new Set();
export async function sseData(text) {
  const out = [];
  for (const block of text.split("\\n\\n")) {
    const data = block.split("\\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart());
    if (data.length === 0) continue;
    const one = data.join("\\n");
    const id = Math.random();
    if (seen.has(one.toLowerCase()) && id >= 0) continue;
    seen.add(one.toLowerCase());
    out.push(one);
  }
  return out;
}
${LAB_04_OTHERS}`,
  },
};

/**
 * What stopped each attempt: the spies and the decoder find no token (a seal
 * knows it by a keyed hash), the reordering and the shape of the input before
 * tell no twin (the control is drawn apart, each twin of a shape of its own),
 * the careful guard passes the token (advertised in the probe's catalogue),
 * the version check keeps a real version (the token's request gets the
 * oldest), and the secrets' look costs the hidden cases of its look. The
 * wrappers that rewrite every name of a tool's look before the seal and back
 * after, which no mark that keeps a right answer's marks can catch, meet the
 * seal's refusal where work is graded: the seal reports itself reached.
 */
const list = await gradeClass(LEARNERS);

for (const [name, { fn, hostile, refusesLook }] of Object.entries(LEARNERS)) {
  Deno.test({
    name: refusesLook
      ? `a seal behind ${name} loses the hidden cases of the secrets' look for ${fn}`
      : hostile
      ? `a seal stripped by ${name} earns nothing for ${fn}`
      : `${name}'s own ${fn} is never taken for a seal`,
    fn() {
      const { results, marks } = gradedMarks(list, name, fn);
      if (refusesLook) {
        const earned = marks.filter((t) => t.score === t.max_score).length;
        assert.ok(earned <= marks.length - 2, `kept its marks: ${report(results, fn)}`);
      } else if (hostile) assertEarnsNothing(list, name, fn);
      else assert.ok(!flagged(results), `taken for a seal: ${report(results, fn)}`);
    },
  });
}

/**
 * Every string a seal's own string decoder gives, its imports stubbed: what
 * a learner who holds the release reads in a dozen lines, no deobfuscator.
 */
async function decodedStrings(file: string): Promise<string[]> {
  const text = await Deno.readTextFile(new URL(`../../${file}`, import.meta.url));
  const decoder = /function (_0x[0-9a-f]+)\(_0x[0-9a-f]+,_0x[0-9a-f]+\)\{/.exec(text)?.[1];
  assert.ok(decoder !== undefined, `${file} has no string decoder`);
  const source = text.split("\n").slice(1).join("\n")
    .replace(
      /import\{([^}]*)\}from'[^']*';/g,
      (_, names: string) => `const {${names.replaceAll(" as ", ":")}}=globalThis.__stub;`,
    )
    .replace(/import (\w+) from'[^']*';/g, "const $1=globalThis.__stub;") +
    `\nexport const dump=()=>{const out=[];for(let i=0;i<0x800;i++){try{const s=${decoder}(i);` +
    `if(typeof s==="string")out.push(s)}catch{}}return out};`;
  const { dump } = await import(`data:text/javascript;base64,${base64(source)}`);
  return dump();
}

Deno.test({
  name: "no seal's own string decoder gives a piece of the token or the probe",
  async fn() {
    const stub: unknown = new Proxy(function () {}, {
      get: (_, key) => key === "then" ? undefined : stub,
      apply: () => stub,
      construct: () => stub as object,
    });
    Object.assign(globalThis, { __stub: stub });
    const seals = [
      "lib/mask/json_chars.sealed.js",
      "lib/mask/object_grammar.sealed.js",
      "lib/mcp/client/allowlist.sealed.js",
      "lib/mcp/client/answer.sealed.js",
      "lib/mcp/server/dispatch.sealed.js",
      "lib/mcp/shared/read_sse_events.sealed.js",
      "lib/mcp/shared/split_frames.sealed.js",
      "lib/mcp/shared/transfer_problems.sealed.js",
    ];
    const pieces: string[] = [];
    for (const file of seals) {
      for (const text of await decodedStrings(file)) {
        if (text.length >= 5 && (TOKEN.includes(text) || PROBE.includes(text))) {
          pieces.push(`${file}: ${text}`);
        }
      }
    }
    assert.deepEqual(pieces, []);
  },
});
