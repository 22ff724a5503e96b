// Guessing earns next to nothing: for every graded function of every unit, a
// constant answer (the same return for every input: each value the visible
// cases return, `undefined`, or the same error thrown every time) and a table
// of the visible cases' answers (the visible inputs looked up, any constant
// for the rest) earn at most 20 % of the function's hidden marks. The guesses
// are made from the units' case lists, so a new function or case is covered
// by construction, and graded as a learner's modules through the grader's
// own path (gradeTogether, in the sandbox, hidden cases included).

import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { threwOutcome } from "../lib/grading/threw_outcome.ts";
import { parseNotebook } from "../tools/editions/notebook.ts";
import { gradeTogether } from "../tools/grading/grade_learner.ts";
import { learnerModule } from "../tools/grading/scratch.ts";
import type { GradedFunction, UnitSpec } from "../tools/grading/spec.ts";
import { loadHoldouts, UNITS } from "../tools/grading/units/mod.ts";

/** The most of a function's hidden marks a guess may earn. */
const MOST = 0.2;

const ROOT = new URL("../", import.meta.url);
const scratch = await Deno.makeTempDir({ prefix: "guessing-" });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));
const holdouts = await loadHoldouts();

/** What a function does on one input: returns a value, or throws an error of a name with fields. */
type Outcome = { returned: unknown } | { threw: string; with?: Record<string, unknown> };

/** The worked edition's graded functions, as a module the test imports. */
async function worked(spec: UnitSpec): Promise<Record<string, (...args: unknown[]) => unknown>> {
  const path = `${scratch}/${spec.unit}-worked.ts`;
  const notebook = `solutions/${spec.unit}.ipynb`;
  const text = await Deno.readTextFile(new URL(notebook, ROOT));
  const lib = new URL("lib/", ROOT).href;
  await Deno.writeTextFile(path, learnerModule(parseNotebook(text, notebook), spec, { lib }));
  return (await import(pathToFileURL(path).href)).graded;
}

/**
 * What each visible case of `fn` gets from the worked solution: its value
 * before the grader normalizes it (`normalize`), or the error it throws.
 * A function graded through a driver is never called on a case's arguments
 * as they are: its outcomes are the cases' expected ones.
 */
async function visibleOutcomes(
  fn: GradedFunction,
  solution: (...args: unknown[]) => unknown,
): Promise<Outcome[]> {
  return await Promise.all(fn.cases.map(async (testCase) => {
    if (fn.driver !== undefined) return expectedOutcome(testCase.expected);
    try {
      return { returned: await solution(...structuredClone(testCase.args)) };
    } catch (error) {
      const { threw, fields } = threwOutcome(error);
      return { threw, with: fields };
    }
  }));
}

/** An expected value as the outcome that meets it. */
function expectedOutcome(expected: unknown): Outcome {
  const spec = expected as { throws?: unknown; with?: Record<string, unknown> };
  return typeof spec?.throws === "string"
    ? { threw: spec.throws, ...spec.with && { with: spec.with } }
    : { returned: expected };
}

/** `value` as JavaScript source that makes it again. */
function sourceOf(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "number") {
    return Object.is(value, -0) ? "-0" : Number.isFinite(value) ? String(value) : `${value}`;
  }
  if (typeof value === "bigint") return `${value}n`;
  if (value === null || typeof value === "boolean" || typeof value === "string") {
    return JSON.stringify(value);
  }
  if (value instanceof Uint8Array) return `new Uint8Array([${value.join(",")}])`;
  if (value instanceof Set) return `new Set(${sourceOf([...value])})`;
  if (value instanceof Map) return `new Map(${sourceOf([...value])})`;
  if (Array.isArray(value)) return `[${value.map(sourceOf).join(",")}]`;
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return `{${
      Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}:${sourceOf(item)}`)
        .join(",")
    }}`;
  }
  throw new TypeError(`no source for ${Object.prototype.toString.call(value)}`);
}

/**
 * A learner's module exporting `name`, which answers `table`'s outcome for an
 * input deep-equal to one of its inputs (a function among the arguments,
 * which a driver makes of a case's data, matches anything), and `otherwise`
 * for the rest. Called with `new`, it is an object whose every method answers
 * `otherwise`.
 */
function guess(name: string, table: [unknown[], Outcome][], otherwise: Outcome): string {
  const entries = table.map(([args, outcome]) => `[${sourceOf(args)}, ${outcomeSource(outcome)}]`);
  return String.raw`
class Guessed extends Error {
  constructor(name, fields) {
    super("a guess");
    Object.assign(this, fields);
    Object.defineProperty(this, "name", { value: name });
  }
}
const same = (known, given) => {
  if (typeof given === "function") return true;
  if (known === given || (Number.isNaN(known) && Number.isNaN(given))) return true;
  if (typeof known !== "object" || known === null || typeof given !== "object" || given === null) {
    return false;
  }
  const keys = Object.keys(known);
  return keys.length === Object.keys(given).length && keys.every((key) => same(known[key], given[key]));
};
const answer = (outcome) => {
  if ("threw" in outcome) throw new Guessed(outcome.threw, outcome.with);
  return structuredClone(outcome.returned);
};
const TABLE = [${entries.join(",\n")}];
const OTHERWISE = ${outcomeSource(otherwise)};
export function ${name}(...args) {
  if (new.target) {
    return new Proxy(this, { get: (_, key) => key === "then" ? undefined : () => answer(OTHERWISE) });
  }
  const found = TABLE.find(([input]) => same(input, args));
  return answer(found === undefined ? OTHERWISE : found[1]);
}
`;
}

function outcomeSource(outcome: Outcome): string {
  return "returned" in outcome
    ? `{ returned: ${sourceOf(outcome.returned)} }`
    : `{ threw: ${JSON.stringify(outcome.threw)}, with: ${sourceOf(outcome.with ?? {})} }`;
}

/**
 * What a driver reports a step of the learner's code returning or throwing,
 * wherever it is in `expected` (`{ returned: VALUE }`, `{ threw: NAME, code?,
 * message? }`), as outcomes: a class whose every method answers one of them
 * is a constant answer too.
 */
function stepsWithin(expected: unknown): Outcome[] {
  if (Array.isArray(expected)) return expected.flatMap(stepsWithin);
  if (typeof expected !== "object" || expected === null) return [];
  const { threw, ...fields } = expected as Record<string, unknown>;
  const own: Outcome[] = typeof threw === "string"
    ? [{ threw, with: fields }]
    : Object.hasOwn(fields, "returned")
    ? [{ returned: fields.returned }]
    : [];
  return [...own, ...Object.values(fields).flatMap(stepsWithin)];
}

/** Every guess at `fn`, by what it is: constants, and tables with each constant for the rest. */
function guesses(fn: GradedFunction, outcomes: Outcome[]): Map<string, string> {
  const constants: Outcome[] = [{ returned: undefined }, { returned: {} }, { threw: "Error" }];
  const driven = fn.driver === undefined ? [] : fn.cases.flatMap((c) => stepsWithin(c.expected));
  for (const outcome of [...outcomes, ...driven]) {
    if (!constants.some((known) => isDeepStrictEqual(known, outcome))) constants.push(outcome);
  }
  const table = fn.cases.map((testCase, index): [unknown[], Outcome] => [
    testCase.args,
    outcomes[index],
  ]);
  const made = new Map<string, string>();
  for (const constant of constants) {
    const shown = outcomeSource(constant).slice(0, 80);
    made.set(`always ${shown}`, guess(fn.name, [], constant));
    if (!BLIND_DRIVERS.includes(fn.driver ?? "")) {
      made.set(`the visible answers, else ${shown}`, guess(fn.name, table, constant));
    }
  }
  return made;
}

/**
 * The drivers that never hand the learner's code a case's arguments (Lab 02's
 * client and test drivers give a class a server and options, a test a way to
 * connect): a table of those arguments is never looked up, and is the constant.
 */
const BLIND_DRIVERS = [
  "tools/grading/drivers/lab_02_client.ts",
  "tools/grading/drivers/lab_02_tests.ts",
];

/** What a guess earned: its share of the function's hidden marks, and whether it earned every mark. */
interface Earned {
  share: number;
  every: boolean;
}

/** What each guess at `fn` earns, by guess. */
async function earned(
  spec: UnitSpec,
  fn: GradedFunction,
  made: Map<string, string>,
): Promise<Map<string, Earned>> {
  const labels = [...made.keys()];
  const learners = await Promise.all(labels.map(async (label) => {
    const path = `${scratch}/${crypto.randomUUID()}.ts`;
    await Deno.writeTextFile(path, made.get(label)!);
    return {
      name: label,
      submissions: [{ unit: spec.unit, code: { kind: "module" as const, path } }],
    };
  }));
  const graded = await gradeTogether(learners, holdouts, { functions: [fn.name] });
  return new Map(graded.map(([results], index) => {
    const tests = results.tests.filter((t) => t.name.startsWith(`${fn.name}: `));
    const hidden = tests.filter((t) => t.name.startsWith(`${fn.name}: hidden case `));
    assert.ok(hidden.length > 0, `${spec.unit} ${fn.name} has no hidden case`);
    return [labels[index], {
      share: hidden.reduce((sum, t) => sum + t.score, 0) / hidden.length,
      every: tests.every((t) => t.score === t.max_score),
    }];
  }));
}

/**
 * The functions whose whole rule is a table of their visible cases, so that
 * the table is no guess but a right answer: Lab 01's negotiateVersion keeps
 * the one older version it speaks (a visible case) and answers its own for
 * anything else.
 */
const TABLE_IS_THE_RULE = ["lab-01 negotiateVersion"];

for (const spec of UNITS.values()) {
  Deno.test(`${spec.unit}: no guess earns more than ${MOST * 100} % of a function's hidden marks`, async (t) => {
    const solutions = await worked(spec);
    for (const fn of spec.functions) {
      await t.step(fn.name, async () => {
        const made = guesses(fn, await visibleOutcomes(fn, solutions[fn.name]));
        const guessed = await earned(spec, fn, made);
        const rule = TABLE_IS_THE_RULE.includes(`${spec.unit} ${fn.name}`);
        const over = [...guessed].filter(([, { share, every }]) => share > MOST && !(rule && every))
          .map(([label, { share }]) => `${label}: ${Math.round(share * 100)} %`);
        assert.deepEqual(over, [], `${fn.name}: guesses that earn too much`);
        assert.equal(
          [...guessed.values()].some(({ every }) => every),
          rule,
          rule ? `${fn.name}'s rule is no longer a table` : `a guess at ${fn.name} is right`,
        );
      });
    }
  });
}

Deno.test("every group of hidden cases tests its rule from both sides: no one answer meets it all", () => {
  const oneSided: string[] = [];
  for (const [unit, functions] of holdouts ?? []) {
    for (const [fn, cases] of Object.entries(functions)) {
      const groups = Map.groupBy(cases.filter((c) => c.group !== undefined), (c) => c.group!);
      for (const [group, members] of groups) {
        if (members.every((c) => isDeepStrictEqual(c.expected, members[0].expected))) {
          oneSided.push(`${unit} ${fn}: ${group}`);
        }
      }
    }
  }
  assert.ok(holdouts !== undefined);
  assert.deepEqual(oneSided, []);
});
