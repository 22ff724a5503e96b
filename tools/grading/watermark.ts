/**
 * The seals' watermark, the grader's side: how a graded function that runs a
 * seal of the library, in whatever form the learner carried it (pasted,
 * obfuscated again, encoded and evaluated, behind a guard or a `catch` of
 * their own), is found by what it does. In the instructors' repository,
 * `deno task seal` marks each sealed graded function so that it answers a few
 * valid inputs of its contract, the probes, as no code of the learner's own
 * can: it refuses, or drops, what holds the token, where a right answer
 * returns it, and answers the same input with the control in its place right
 * (its twin); or it takes the token for what it reads. A type guard cannot
 * refuse a probe without refusing real input, and the mark is in what the
 * function decides, not in an error's words a `catch` could replace.
 *
 * The grader runs each graded function that has sealed copies on its probes
 * among its hidden cases, in the same realm; when every probe of a mark is
 * answered as a seal answers it, the function scores 0 (`grade_learner.ts`).
 * A probe is never a mark. The secrets and the probes are kept with the hidden cases
 * (the watermark module in their folder), which the learners' release does
 * not hold; there, nothing is probed.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { fileURLToPath } from "node:url";
import type { GradedCase, GradedFunction, SealAnswer } from "./spec.ts";

/** One probe of a graded function: its arguments, and how a seal answers them. */
export interface WatermarkProbe {
  args: unknown[];
  seal: SealAnswer;
  /**
   * The sealed library function whose mark it probes, where a graded
   * function is probed for more than one (Lab 03's, for the object grammar's
   * and the JSON characters'): a seal is found when every probe of one mark
   * is answered as a seal answers it. After a `#`, the mark's own name,
   * where one function is marked in more than one way (a decision on a
   * reply's id, and on its text): `"#id"` is a mark of its own, of no
   * sealed function named. @default {undefined: one mark, every probe}
   */
  of?: string;
  /**
   * Right code answers it as a seal does (a twin, or an input the seal's
   * mark leaves alone): it never sifts ({@linkcode withProbes}). A twin of
   * a decision (`right`) is so whatever this says. @default {false}
   */
  alike?: boolean;
}

/** The watermark's secrets, and the probes of each graded function that has sealed copies. */
export interface Watermark {
  /** What a seal takes the token for, or writes it in place of (printable ASCII). */
  probe: string;
  /** What a seal decides on, or takes for the probe (as long as the probe). */
  token: string;
  /** Of the token's shape, and nothing to a seal: a twin's. */
  control: string;
  /** The probes, by unit, then by graded function. */
  probes: ReadonlyMap<string, Readonly<Record<string, readonly WatermarkProbe[]>>>;
}

const WATERMARK = new URL("../../holdouts/watermark.ts", import.meta.url);

/** A watermark module that is there but does not hold what a watermark is. */
export class WatermarkError extends Error {
  override name = "WatermarkError";
}

/**
 * The watermark, or `undefined` when this copy of the course has none (the
 * learners' release). Throws {@linkcode WatermarkError} when its module does
 * not hold three different secrets of one length and a map of probes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const watermark = await loadWatermark();
 * assert.ok(watermark === undefined || watermark.probes.has("ch14-b"));
 * ```
 */
export async function loadWatermark(): Promise<Watermark | undefined> {
  try {
    await Deno.stat(WATERMARK);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  const { PROBE: probe, TOKEN: token, CONTROL: control, PROBES: probes } = await import(
    WATERMARK.href
  );
  const secrets = [probe, token, control];
  if (
    !secrets.every((secret) => typeof secret === "string" && /^[ -~]+$/.test(secret)) ||
    new Set(secrets.map((secret) => secret.length)).size !== 1 || new Set(secrets).size !== 3 ||
    !(probes instanceof Map)
  ) {
    throw new WatermarkError(
      `${
        fileURLToPath(WATERMARK)
      } must export PROBE, TOKEN and CONTROL (three different printable ASCII strings of one length) and PROBES (a Map)`,
    );
  }
  return { probe, token, control, probes };
}

/**
 * `cases` (the visible cases of `fn`, a graded function of `unit`, then its
 * hidden ones) with `fn`'s probes among the hidden ones, each run of probes
 * of one mark together, in its order, at a place of its own drawn at random:
 * code that counts its calls cannot tell a probe by its place, and a probe
 * of a decision is answered among its twins, so that code whose answers
 * drift from call to call (a learner's that keeps state, right or wrong)
 * does not answer them as a seal does. None for a function without library copies, or without a
 * `watermark`. A probe is never a mark: its result carries only whether the
 * reply answered as a seal does ({@linkcode answersAsSeal}), and its group,
 * the mark it probes ({@linkcode WatermarkProbe.of}). A driven function's
 * probes are run by its driver, as its cases are. Throws
 * {@linkcode WatermarkError} when a function with sealed copies has no probe.
 *
 * `sift` puts only each mark's first probe that right code answers
 * otherwise than a seal (not {@linkcode WatermarkProbe.alike}) in place of
 * its run: code that answers it right is no seal, whatever the rest would
 * show, and only a function that answers a sifting probe as a seal is run
 * with the whole runs, where its marks are judged. A sifted run finds no
 * seal by itself ({@linkcode marksAnswered} of a mark of one probe is no
 * proof): it spares every other learner eleven calls in twelve.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * const [answerFor] = UNITS.get("ch14-a")!.functions;
 * const probes = new Map([["ch14-a", { answerFor: [{ args: [1, { id: 1, result: "ab" }], seal: { right: "ab" } }] }]]);
 * const cases = [false, true, true].map((hidden, at) => ({ label: `${at}`, args: [], expected: null, hidden }));
 * const probed = withProbes(cases, "ch14-a", answerFor, { probe: "ab", token: "cd", control: "ef", probes });
 * assert.equal(probed.length, 4);
 * assert.equal(probed[0], cases[0]);
 * const probe = probed.find((c) => c.probe !== undefined)!;
 * assert.deepEqual(probe.args, [1, { id: 1, result: "ab" }]);
 * assert.ok(probe.hidden);
 * ```
 */
export function withProbes(
  cases: readonly GradedCase[],
  unit: string,
  fn: GradedFunction,
  watermark: Watermark | undefined,
  { sift = false }: { sift?: boolean } = {},
): GradedCase[] {
  const probed = [...cases];
  if (watermark === undefined || !fn.library?.length) return probed;
  const probes = watermark.probes.get(unit)?.[fn.name];
  if (probes === undefined || probes.length === 0) {
    throw new WatermarkError(`${unit}'s ${fn.name} has sealed copies, and the watermark no probe`);
  }
  // Consecutive probes of one mark make a block, placed whole among the hidden cases.
  const visible = probed.filter((testCase) => !testCase.hidden).length;
  const places: GradedCase[][] = probed.slice(visible).map((testCase) => [testCase]);
  const blocks: WatermarkProbe[][] = [];
  for (const [index, probe] of probes.entries()) {
    if (index === 0 || probe.of !== probes[index - 1].of) blocks.push([]);
    blocks.at(-1)!.push(probe);
  }
  const cased = (probe: WatermarkProbe): GradedCase => ({
    label: `the seals' watermark probe ${probes.indexOf(probe) + 1}`,
    args: probe.args,
    expected: null,
    hidden: true,
    probe: probe.seal,
    ...(probe.alike || "right" in probe.seal ? { twin: true } : {}),
    ...(probe.of === undefined ? {} : { group: probe.of }),
  });
  const runs = blocks.map((block) => {
    if (!sift) return block.map(cased);
    const sifting = block.find((probe) => !probe.alike && !("right" in probe.seal));
    return [cased(sifting ?? block[0])];
  });
  for (const run of runs) {
    const [draw] = crypto.getRandomValues(new Uint32Array(1));
    places.splice(draw % (places.length + 1), 0, run);
  }
  return [...probed.slice(0, visible), ...places.flat()];
}

/**
 * The marks a graded function's probe results (`results`, what the sandbox
 * reported of each probe: answered as a seal or not, whether it is a twin,
 * and its group) show to be a seal's, by the sealed function each names
 * (`""` for probes of no group, or of a group with no name before its `#`),
 * once each. A group is a seal's when every probe of it that is not a twin
 * was answered as a seal answers it, and at least two thirds of its twins
 * were answered right (as a seal answers them); a group of twins alone, when
 * every one was. Code of the learner's own cannot tell a probe from its
 * twin: a twin it answers right, it answers that twin's probe right too, so
 * no group of it is a seal's, whatever its twins; a copy that throws in the
 * seal's place on some calls, to spoil a run, spoils twins, and the probes
 * it throws on are answered as a seal answers them. Empty when no mark is.
 *
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const results = [
 *   { watermark: true, group: "objectDfa" },
 *   { watermark: true, group: "objectDfa" },
 *   { watermark: true, group: "jsonChar" },
 *   { watermark: false, group: "jsonChar" },
 * ];
 * assert.deepEqual(marksAnswered(results), ["objectDfa"]);
 * assert.deepEqual(marksAnswered([{ watermark: true }, { watermark: false }]), []);
 * assert.deepEqual(marksAnswered([{ watermark: true }]), [""]);
 * const pairs = [
 *   { watermark: true, group: "#id" },
 *   { watermark: false, group: "#text" },
 *   { watermark: true, group: "#frames" },
 * ];
 * assert.deepEqual(marksAnswered(pairs), [""]);
 * // Three twins in four answered right, every probe as a seal: a seal's.
 * const twins = [true, true, true, false].map((watermark) => ({ watermark, twin: true }));
 * const probes = [true, true, true, true].map((watermark) => ({ watermark }));
 * assert.deepEqual(marksAnswered([...twins, ...probes]), [""]);
 * // A probe answered right, as code of the learner's own answers it with its twin: none.
 * assert.deepEqual(marksAnswered([...twins, ...probes.slice(1), { watermark: false }]), []);
 * // Two twins in four answered right: too few.
 * assert.deepEqual(marksAnswered([...twins.slice(1), { watermark: false, twin: true }, ...probes]), []);
 * ```
 */
export function marksAnswered(
  results: readonly { watermark?: boolean; group?: string; twin?: boolean }[],
): string[] {
  const groups = new Map<string, MarkRun>();
  for (const { watermark, group = "", twin = false } of results) {
    if (watermark === undefined) continue;
    const run = groups.get(group) ?? { probes: 0, sealed: true, twins: 0, right: 0 };
    if (twin) {
      run.twins++;
      if (watermark) run.right++;
    } else {
      run.probes++;
      run.sealed &&= watermark;
    }
    groups.set(group, run);
  }
  const seal = ({ probes, sealed, twins, right }: MarkRun) =>
    probes === 0 ? right === twins : sealed && 3 * right >= 2 * twins;
  return [
    ...new Set([...groups].filter(([, run]) => seal(run)).map(([group]) => group.split("#")[0])),
  ];
}

/** What a mark's probes came to: how many probes, whether each was answered as a seal; twins, and how many right. */
interface MarkRun {
  probes: number;
  sealed: boolean;
  twins: number;
  right: number;
}

/**
 * Whether `reply` (what a probe case came to: returned or thrown, printed,
 * the arguments after) is what a seal answers: it returned exactly the
 * value a seal returns; for a probe of a decision, it is not the right
 * answer (`wrong`: returned otherwise, or threw), and for its twin, it is
 * (`right`), as the graded function `normalize`s what it returns. A reply
 * that is a problem (a time limit, an exit) is no seal's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(answersAsSeal({ returned: true }, { returns: true }));
 * assert.ok(!answersAsSeal({ threw: "Error", message: "true" }, { returns: true }));
 * assert.ok(answersAsSeal({ threw: "Error", message: "1" }, { wrong: 1 }));
 * assert.ok(!answersAsSeal({ returned: 1 }, { wrong: 1 }));
 * assert.ok(answersAsSeal({ returned: "1" }, { right: 1 }, Number));
 * assert.ok(!answersAsSeal({ problem: "timed out" }, { right: 1 }));
 * assert.ok(!answersAsSeal({ problem: "timed out" }, { wrong: 1 }));
 * ```
 */
export function answersAsSeal(
  reply: Record<string, unknown>,
  seal: SealAnswer,
  normalize: (value: unknown) => unknown = (value) => value,
): boolean {
  if ("right" in seal || "wrong" in seal) {
    // A case the sandbox could not finish (a time limit on a busy machine) decides nothing.
    if (Object.hasOwn(reply, "problem")) return false;
    let right = false;
    try {
      right = Object.hasOwn(reply, "returned") &&
        isDeepStrictEqual(normalize(reply.returned), "right" in seal ? seal.right : seal.wrong);
    } catch {
      // What no normalizing reads is no right answer.
    }
    return right === ("right" in seal);
  }
  return Object.hasOwn(reply, "returned") && isDeepStrictEqual(reply.returned, seal.returns);
}

/**
 * The character a seal marked `escapes` reads in one spelling more, picked
 * by `secret`: a CJK ideograph (U+4E00 to U+9FFF), which `JSON.stringify`
 * writes as itself, never as its `\u` escape.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const code = secretCharacter("ab");
 * assert.ok(code >= 0x4e00 && code <= 0x9fff);
 * assert.equal(secretCharacter("ab"), code);
 * assert.equal(JSON.stringify(String.fromCodePoint(code)).length, 3);
 * ```
 */
export function secretCharacter(secret: string): number {
  let hash = 0;
  for (const char of secret) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return 0x4e00 + hash % 0x5200;
}

/**
 * The `\u` escape of code point `code` (of the Basic Multilingual Plane),
 * lower-case hex, as JSON could spell it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(unicodeEscape(0x4e2d), "\\u4e2d");
 * assert.equal(JSON.parse(`"${unicodeEscape(0x4e2d)}"`), "\u4e2d");
 * ```
 */
export function unicodeEscape(code: number): string {
  return `\\u${code.toString(16).padStart(4, "0")}`;
}
