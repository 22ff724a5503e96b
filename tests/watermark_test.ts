// The seals' watermark: the marks `deno task seal` puts in the seals and the
// probes the grader sends agree, function by function, and the library's
// readable modules (which are what right answers do) answer no probe as a seal.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  answersAsSeal,
  loadWatermark,
  marksAnswered,
  secretCharacter,
  withProbes,
} from "../tools/grading/watermark.ts";
import { sealedPath } from "../tools/grading/library_copies.ts";
import type { GradedFunction } from "../tools/grading/spec.ts";
import { UNITS } from "../tools/grading/units/mod.ts";
import { drive } from "../tools/grading/drivers/lab_03_decode.ts";
import { MARKS } from "../tools/release/watermarked.ts";
import { maskAnswers, releasedMask } from "./_released_mask.ts";
import { CATALOGUES } from "./catalogue/mod.ts";
import { answerFor } from "../lib/mcp/client/answer.ts";
import { authorize } from "../lib/mcp/client/allowlist.ts";
import { splitFrames } from "../lib/mcp/shared/framing.ts";
import { readSseEvents } from "../lib/mcp/shared/sse.ts";

type Module = Record<string, (...args: unknown[]) => unknown>;
const stream = (text: string) => ReadableStream.from([new TextEncoder().encode(text)]);
const ROOT = fileURLToPath(new URL("../", import.meta.url));
const scratch = await Deno.makeTempDir({ prefix: "watermark-test-" });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));

/** `source` imported as a module of its own, from a file beside the library (`../lib/` resolves). */
async function moduleOf(source: string): Promise<Module> {
  const file = `${scratch}/${crypto.randomUUID()}.ts`;
  await Deno.writeTextFile(file, source);
  return await import(`file://${file}`);
}

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
  "lab-03/prefixStatus": (m) => m.prefixStatus,
  "lab-03/tokenMask": (m) => m.tokenMask,
  "lab-03/trieMask": (m) => m.trieMask,
  "lab-03/decode": (m) => (...args) => drive(m.decode, args),
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
  spec.functions.filter((fn) => fn.library?.length)
    .map((fn) => ({ key: `${spec.unit}/${fn.name}`, unit: spec.unit, fn }))
);

/**
 * The modules a learner's code could make `unit`'s `fn` of, from its library
 * copies, `sealed` as the release holds them or readable: each copy's
 * module; for Lab 03, the catalogue's worked answers over the mask's
 * schema compiler, which compiles through the sealed modules.
 */
async function modulesFor(unit: string, fn: GradedFunction, sealed: boolean): Promise<Module[]> {
  if (unit === "lab-03") {
    const folder = sealed ? await releasedMask() : ROOT.slice(0, -1);
    const grammar = `${folder}/lib/mask/json_schema_grammar.ts`;
    return [await moduleOf(maskAnswers(`import { JsonSchemaGrammar } from "file://${grammar}";`))];
  }
  return await Promise.all(
    fn.library!.map(({ file }) => import(`../${sealed ? sealedPath(file) : file}`)),
  );
}

/**
 * The marks `graded` answers as a seal does, on `unit`'s `fn`'s probes: each
 * group (a probe's `of`) whose every probe it answers as a seal does, as the
 * grader judges them, sorted.
 */
async function marksOf(unit: string, fn: GradedFunction, graded: (...args: unknown[]) => unknown) {
  const groups = new Map<string, boolean>();
  for (const { args, seal, of = "" } of watermark!.probes.get(unit)![fn.name]) {
    const sealed = answersAsSeal(await replyOf(graded, args), seal, fn.normalize);
    groups.set(of, (groups.get(of) ?? true) && sealed);
  }
  const answered = [...groups].filter(([, sealed]) => sealed).map(([of]) => of).sort();
  assert.deepEqual(
    marksAnswered([...groups].map(([group, watermark]) => ({ group, watermark }))).sort(),
    [...new Set(answered.map((of) => of.split("#")[0]))].sort(),
  );
  return answered;
}

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
    const marks = [
      ...new Set(watermark!.probes.get(unit)![fn.name].map(({ of }) => of ?? "")),
    ].sort();
    for (const sealed of [true, false]) {
      for (const module of await modulesFor(unit, fn, sealed)) {
        const answered = await marksOf(unit, fn, GRADED[key](module));
        assert.deepEqual(
          answered,
          sealed ? marks : [],
          `${key} (${sealed ? "sealed" : "readable"})`,
        );
      }
    }
  }
});

/**
 * The strings `value` holds, at any depth (bytes read as Latin-1, keys
 * too), each string that is JSON read for the strings it holds instead.
 */
function leaves(value: unknown, into: string[] = []): string[] {
  if (value instanceof Uint8Array) return leaves(new TextDecoder("latin1").decode(value), into);
  if (typeof value === "string") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      // Not JSON: the string itself.
    }
    if (typeof parsed === "object" && parsed !== null) return leaves(parsed, into);
    into.push(value);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) into.push(key), leaves(item, into);
  }
  return into;
}

/** The words of `value`'s strings ({@linkcode leaves}). */
const wordsOf = (value: unknown) =>
  leaves(value).flatMap((text) => text.match(/[\p{L}\p{N}_]+/gu) ?? []);

/**
 * `graded` behind a stripper: its answer kept only when each word it holds is
 * in the input, or in `known` (the words of its answers to the visible cases:
 * "missing", "result"), which a right answer may add.
 */
const heldToInput =
  (graded: (...args: unknown[]) => unknown, known: ReadonlySet<string>) =>
  async (...args: unknown[]) => {
    const answer = await graded(...args);
    const seen = new Set(wordsOf(args));
    if (wordsOf(answer).every((word) => seen.has(word) || known.has(word))) return answer;
    throw new Error("an answer the input does not hold");
  };

Deno.test("a seal whose every answer is held to its input still answers each decision's probes as a seal", async () => {
  // Round 6's strippers kept a seal's answer only when it carried nothing the input did not.
  for (const { key, unit, fn } of probed) {
    if (unit === "lab-03") continue; // the mask's marks are in what it takes, not in a decision
    const decisions = [
      ...new Set(
        watermark!.probes.get(unit)![fn.name].filter(({ seal }) => "wrong" in seal)
          .map(({ of }) => of ?? ""),
      ),
    ].sort();
    // Every one is a decision: the allowlist's too (it allows the token, where a right answer
    // refuses it). The version negotiation decides between two real versions.
    assert.ok(decisions.length > 0, key);
    for (const module of await modulesFor(unit, fn, true)) {
      const graded = GRADED[key](module);
      const known = new Set<string>();
      for (const { args } of fn.cases) {
        const reply = await replyOf(graded, args);
        if ("returned" in reply) { for (const word of wordsOf(reply.returned)) known.add(word); }
      }
      const answered = await marksOf(unit, fn, heldToInput(graded, known));
      assert.deepEqual(answered.filter((of) => decisions.includes(of)), decisions, key);
    }
  }
});

Deno.test("a probe is valid input: the readable library answers it, and throws nothing", async () => {
  for (const { key, unit, fn } of probed) {
    const [module] = await modulesFor(unit, fn, false);
    for (const { args } of watermark!.probes.get(unit)![fn.name]) {
      const reply = await replyOf(GRADED[key](module), args);
      assert.ok("returned" in reply, `${key}: ${JSON.stringify(reply)}`);
    }
  }
});

Deno.test("a sifted run holds one probe of each mark, which right code answers otherwise than a seal and every seal as one", async () => {
  // Only a function that answers a sifting probe as a seal is run with the whole runs: the
  // readable library (right answers) must never be, and a seal must always be.
  for (const { key, unit, fn } of probed) {
    const probes = watermark!.probes.get(unit)![fn.name];
    const marks = new Set(probes.map(({ of = "" }) => of));
    const sifted = withProbes([], unit, fn, watermark, { sift: true });
    assert.deepEqual(sifted.map(({ group = "" }) => group).sort(), [...marks].sort(), key);
    for (const sealed of [false, true]) {
      for (const module of await modulesFor(unit, fn, sealed)) {
        for (const { args, probe } of sifted) {
          const reply = await replyOf(GRADED[key](module), args);
          assert.equal(answersAsSeal(reply, probe!, fn.normalize), sealed, `${key} ${args}`);
        }
      }
    }
  }
});

/** The graded function a catalogue's module (a learner's, of `unit`) exports as `fn`. */
function learners(unit: string, fn: string, module: Module): (...args: unknown[]) => unknown {
  return unit === "lab-03" ? GRADED[`lab-03/${fn}`](module) : module[fn];
}

Deno.test("no answer of the catalogue, right or wrong, answers a mark of the watermark", async () => {
  // A mark answered scores the function 0: an honest learner's code, right or wrong, must never.
  for (const { unit, fn: name, right, wrong } of CATALOGUES) {
    const fn = UNITS.get(unit)!.functions.find((f) => f.name === name)!;
    if (!fn.library?.length) continue;
    for (const [label, source] of [...Object.entries(right), ...Object.entries(wrong)]) {
      const module = await moduleOf(source.replaceAll('"../lib/', `"file://${ROOT}lib/`));
      assert.deepEqual(
        await marksOf(unit, fn, learners(unit, name, module)),
        [],
        `${name}: ${label}`,
      );
    }
  }
});

/**
 * Honest wrong code whose answers drift from call to call, each made anew
 * (with no state yet) by unit and graded function: right answers of the
 * library's but for the state it keeps.
 */
const DRIFTING: Record<string, () => (...args: never[]) => unknown> = {
  // Each id answered once: a second reply to a request is refused.
  "ch14-a/answerFor": () => {
    const answered = new Set<unknown>();
    return (id: string, message: Parameters<typeof answerFor>[1]) => {
      const result = answerFor(id, message);
      if (answered.has(id)) throw new Error(`request ${id} was answered already`);
      answered.add(id);
      return result;
    };
  },
  // Every other call says yes, whatever the name (a global regular expression's lastIndex does so).
  "ch14-a/authorize": () => {
    let calls = 0;
    return (...args: Parameters<typeof authorize>) => ++calls % 2 === 0 || authorize(...args);
  },
  // The rest kept from one call to the next, and read again before the new bytes.
  "ch14-b/splitFrames": () => {
    let kept = new Uint8Array();
    return (buffer: Uint8Array, limit: number) => {
      const [frames, rest] = splitFrames(new Uint8Array([...kept, ...buffer]), limit);
      kept = rest.slice();
      return [frames, rest];
    };
  },
  // Every other call answers nothing (a global regular expression's lastIndex does so).
  "lab-04/sseData": () => {
    let calls = 0;
    return async (text: string) =>
      ++calls % 2 === 0
        ? []
        : (await Array.fromAsync(readSseEvents(stream(text)))).map((event) => event.data);
  },
};

Deno.test("code whose answers drift from call to call is never taken for a seal, wherever its probes come", async () => {
  // A probe of a decision is answered otherwise than right, and its twin right, by a seal: code
  // that keeps state answers the same input differently at another call, and must not pass so.
  for (const [key, made] of Object.entries(DRIFTING)) {
    const [unit, name] = key.split("/");
    const fn = UNITS.get(unit)!.functions.find((f) => f.name === name)!;
    const cases = [
      ...fn.cases.map((c) => ({ ...c, hidden: false })),
      ...fn.cases.map((c) => ({ ...c, hidden: true })),
    ];
    for (let draw = 0; draw < 100; draw++) {
      const drifting = made() as (...args: unknown[]) => unknown;
      const results = [];
      for (const testCase of withProbes(cases, unit, fn, watermark)) {
        const reply = await replyOf(drifting, testCase.args);
        if (testCase.probe === undefined) continue;
        results.push({
          watermark: answersAsSeal(reply, testCase.probe, fn.normalize),
          group: testCase.group,
        });
      }
      assert.deepEqual(marksAnswered(results), [], `${key}, draw ${draw}`);
    }
  }
});

Deno.test("the mask's two escapes differ before their last digit, as its prefix-tree probes need", () => {
  // Each trieMask probe writes all but the escape's last digit: the other's must be dead there.
  const [token, control] = [watermark!.token, watermark!.control].map(secretCharacter);
  assert.notEqual(token >> 4, control >> 4);
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
