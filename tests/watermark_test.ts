// The seals' watermark: the marks `deno task seal` puts in the seals and the
// probes the grader sends agree, function by function, and the library's
// readable modules (which are what right answers do) answer no probe as a seal.

import assert from "node:assert/strict";
import { answersAsSeal, loadWatermark, withProbes } from "../tools/grading/watermark.ts";
import { sealedPath } from "../tools/grading/library_copies.ts";
import { UNITS } from "../tools/grading/units/mod.ts";
import { MARKS } from "../tools/release/watermarked.ts";

type Module = Record<string, (...args: unknown[]) => unknown>;
const stream = (text: string) => ReadableStream.from([new TextEncoder().encode(text)]);

/** Each probed graded function as a learner's code would make it of its library module. */
const GRADED: Record<string, (module: Module) => (...args: unknown[]) => unknown> = {
  "ch14-a/answerFor": (m) => m.answerFor,
  "ch14-a/authorize": (m) => m.authorize,
  "ch14-b/splitFrames": (m) => m.splitFrames,
  "ch14-b/transferProblems": (m) => m.transferProblems,
  "lab-01/negotiateVersion": (m) => m.negotiateVersion,
  "lab-01/handleMessage": (m) => (line) =>
    m.handleLine(line, { name: "grammar", version: "1.0.0", tools: [] }),
  "lab-02/correlate": (m) => m.answerFor,
  "lab-04/sseData": (m) => async (text) =>
    (await Array.fromAsync(m.readSseEvents(stream(text as string)) as AsyncIterable<object>))
      .map((event) => (event as { data: string }).data),
};

/** What a call came to, as the grader's sandbox reports it. */
async function replyOf(fn: (...args: unknown[]) => unknown, args: unknown[]) {
  try {
    return { returned: await fn(...structuredClone(args)) };
  } catch (error) {
    return { threw: (error as Error).name, message: (error as Error).message };
  }
}

const watermark = await loadWatermark();
const probed = [...UNITS.values()].flatMap((spec) =>
  spec.functions.filter((fn) => fn.library?.length && fn.driver === undefined)
    .map((fn) => ({ key: `${spec.unit}/${fn.name}`, unit: spec.unit, fn }))
);

Deno.test("every sealed library function has a mark, and every function graded against one a probe", () => {
  const names = probed.flatMap(({ fn }) => fn.library!.map(({ name }) => name));
  assert.deepEqual([...new Set(names)].sort(), Object.keys(MARKS).sort());
  assert.deepEqual(probed.map(({ key }) => key).sort(), Object.keys(GRADED).sort());
  for (const { unit, fn } of probed) {
    assert.ok(watermark!.probes.get(unit)?.[fn.name]?.length, `${unit}'s ${fn.name} has no probe`);
  }
});

Deno.test("a seal answers every probe of each function graded against it as a seal; its readable module none", async () => {
  for (const { key, unit, fn } of probed) {
    const probes = watermark!.probes.get(unit)![fn.name];
    for (const { file } of fn.library!) {
      for (const [path, sealed] of [[sealedPath(file), true], [file, false]] as const) {
        const graded = GRADED[key](await import(`../${path}`));
        const answers = [];
        for (const { args, seal } of probes) {
          answers.push(answersAsSeal(await replyOf(graded, args), seal));
        }
        if (sealed) assert.ok(answers.every(Boolean), `${path} as ${key}: ${answers}`);
        else assert.ok(!answers.every(Boolean), `${path} as ${key}: ${answers}`);
      }
    }
  }
});

Deno.test("a probe is valid input: the readable library answers it, and throws nothing", async () => {
  for (const { key, unit, fn } of probed) {
    const graded = GRADED[key](await import(`../${fn.library![0].file}`));
    for (const { args } of watermark!.probes.get(unit)![fn.name]) {
      const reply = await replyOf(graded, args);
      assert.ok("returned" in reply, `${key}: ${JSON.stringify(reply)}`);
    }
  }
});

Deno.test("the probes come among the hidden cases at places drawn at random, never among the visible", () => {
  // Last of all, a probe could be told by its place: code that answers the first calls by the
  // seal and the rest by itself would keep every mark whenever it knew how many hidden cases came.
  const spec = UNITS.get("ch14-b")!;
  const fn = spec.functions.find((f) => f.name === "splitFrames")!;
  const cases = [false, false, true, true, true].map((hidden, at) => ({
    label: `case ${at}`,
    args: [],
    expected: null,
    hidden,
  }));
  const places = new Set<number>();
  for (let draw = 0; draw < 200; draw++) {
    const probed = withProbes(cases, spec.unit, fn, watermark);
    assert.deepEqual(probed.filter((c) => c.probe === undefined), cases);
    const at = probed.findIndex((c) => c.probe !== undefined);
    assert.ok(at >= 2 && probed[at].hidden, `a probe at ${at}`);
    places.add(at);
  }
  assert.deepEqual([...places].sort(), [2, 3, 4, 5]);
});
