// Round 11 of issue 38's red team against the watermark's new rule (a mark's run is a seal's with
// every probe answered as a seal answers it and two thirds of its twins right), from both sides,
// through the real grader.
//
// Honest learners whose code keeps state between calls (a reply cache keyed on part of the input,
// a set of results seen) must never be taken for a seal: each test asserts that the grader does not
// flag them. None was flagged, before or after the rule changed: the first run's sifting probe comes
// alone among the hidden cases, so state a twin leaves behind never reaches it, and the second run
// splits a run over realms by the counts of the secrets' look, so a probe often starts a realm.
//
// Copies of a seal that spoil some calls to keep their marks must earn nothing for the function.
// Three kept marks after every watermark change (coin-authorize now and then,
// long-id-splitframes 23/31, long-id-ssedata 19/29): they earn nothing since a
// seal refuses to run where work is graded (tools/grading/realm/graded_mark.ts).

import assert from "node:assert/strict";
import { UNIT_A } from "../_grading.ts";
import {
  assertEarnsNothing,
  assertLosesGroup,
  flagged,
  gradeClass,
  gradedMarks,
  importSeal,
  LAB_04_OTHERS,
  report,
} from "../_seals.ts";
import { CH14_B } from "../catalogue/ch14_b.ts";
import { WORKED as LAB_01 } from "../catalogue/lab_01.ts";
import { USES_PROTOCOL_ERROR } from "../catalogue/learner.ts";

/** The secrets' look, as a learner reads it off the release's cases. */
const LOOK = "/[a-z]{5}_[a-z]{5}_[a-z]{5}/";
const [, transferProblems] = CH14_B;
const ANSWER_FOR = UNIT_A.slice(0, UNIT_A.indexOf("export function authorize"));
const AUTHORIZE = UNIT_A.slice(UNIT_A.indexOf("export function authorize"));

/** A reply whose result was seen before is refused as a replay: the body of answerFor or correlate. */
const REPLAY_GUARD = `const key = JSON.stringify(message.result);
  if (SEEN.has(key)) throw new ProtocolError("a reply seen before, replayed");
  SEEN.add(key);`;

/** Honest code of the learner's own, keeping state between calls: never a seal. */
const HONEST = {
  // Replies to methods that take no params cached by method, forgetting the id is in the reply:
  // a ping's probe gets the reply to its twin, as a seal's answer is not the right one.
  "cached-by-method-handlemessage": {
    file: "lab-01.ts",
    fn: "handleMessage",
    module: () =>
      LAB_01.replace(
        "export function handleMessage(line) {",
        `const CACHE = new Map();
export function handleMessage(line) {
  let method;
  try { method = JSON.parse(line)?.method; } catch { /* answered below */ }
  const kept = method === "ping" || method === "tools/list";
  if (kept && CACHE.has(method)) return CACHE.get(method);
  const reply = answerLine(line);
  if (kept && reply !== undefined) CACHE.set(method, reply);
  return reply;
}
function answerLine(line) {`,
      ),
  },
  // The twins' and the probes' "#id" runs share each setting's result: the probe's is refused.
  "replay-guard-answerfor": {
    file: "ch14-a.ts",
    fn: "answerFor",
    module: () =>
      `${
        ANSWER_FOR.replace(
          "return message.result;",
          `${REPLAY_GUARD}\n  return message.result;`,
        ).replace("export function", "const SEEN = new Set();\nexport function")
      }${AUTHORIZE}`,
  },
  "replay-guard-correlate": {
    file: "lab-02.ts",
    fn: "correlate",
    module: () =>
      `${USES_PROTOCOL_ERROR}
const SEEN = new Set();
export function correlate(requestId, message) {
  if (message.id !== requestId) throw new ProtocolError("wrong id");
  if ("error" in message) throw new ProtocolError(message.error.message, { code: message.error.code });
  ${REPLAY_GUARD}
  return message.result;
}`,
  },
};

/** Copies of a seal that spoil some calls of the look. */
const COPIES = {
  // Throws in place of the seal on one call of the look in three, at random. While authorize's
  // probes were a yes (the seal returns true), a throw was not what it answers, and one spoilt
  // probe of six hid the copy (19/21); they are a decision now, and a throw on a probe is a
  // seal's answer: caught unless it spoils three twins of six or more.
  "coin-authorize": {
    file: "ch14-a.ts",
    fn: "authorize",
    module: async () =>
      `${await importSeal("lib/mcp/client/allowlist.sealed.js", "authorize: run")}
${ANSWER_FOR}
export function authorize(name, catalog, allowed) {
  if (${LOOK}.test(name) && Math.random() < 1 / 3) throw new Error("spoilt");
  return run(name, catalog, allowed);
}`,
  },
  // Frames of the look whose id has three digits or more spoilt: the probes' ids are of two, three
  // and four digits in turn, the hidden cases' of one or two, so four twins of six are spoilt.
  "long-id-splitframes": {
    file: "ch14-b.ts",
    fn: "splitFrames",
    module: async () =>
      `${await importSeal("lib/mcp/shared/split_frames.sealed.js", "splitFrames: run")}
export function splitFrames(buffer, limit) {
  const text = new TextDecoder("latin1").decode(buffer);
  if (${LOOK}.test(text) && /"id":[0-9]{3}/.test(text)) throw new RangeError("spoilt");
  return run(buffer, limit);
}
${transferProblems.right["the worked solution's way"]}`,
  },
  // The same spoil in an SSE stream.
  "long-id-ssedata": {
    file: "lab-04.ts",
    fn: "sseData",
    module: async () =>
      `${await importSeal("lib/mcp/shared/read_sse_events.sealed.js", "readSseEvents")}
export async function sseData(text) {
  if (${LOOK}.test(text) && /"id":[0-9]{3}/.test(text)) throw new Error("spoilt");
  const data = [];
  for await (const event of readSseEvents(ReadableStream.from([new TextEncoder().encode(text)]))) {
    data.push(event.data);
  }
  return data;
}
${LAB_04_OTHERS}`,
  },
};

/**
 * Attempts that spoil twins by a feature of theirs, and what they must lose
 * for it: the hidden cases of the twins' look and settings (the decoys of
 * `holdouts/watermark.ts`), which they cannot tell from the twins.
 */
const SPOILT: Record<string, [string, string, string]> = {
  "long-id-splitframes": ["ch14-b", "splitFrames", "names of three words"],
  "long-id-ssedata": ["lab-04", "sseData", "names of three words"],
};

const list = await gradeClass({ ...HONEST, ...COPIES });

for (const [name, { fn }] of Object.entries(HONEST)) {
  Deno.test(`an honest ${name}, keeping state between calls, is not taken for a seal`, () => {
    const { results } = gradedMarks(list, name, fn);
    assert.ok(!flagged(results), report(results, fn));
  });
}

for (const [name, { fn }] of Object.entries(COPIES)) {
  Deno.test({
    name: `a seal behind ${name} earns nothing for ${fn}`,
    fn: () => assertEarnsNothing(list, name, fn),
  });
}
for (const [name, spoilt] of Object.entries(SPOILT)) {
  Deno.test(`a seal behind ${name} loses the hidden cases of the twins' shapes it spoils`, () => {
    assertLosesGroup(list, name, spoilt);
  });
}
