/**
 * Predictions that count: a unit asks its questions, the learner answers
 * them in a cell before the cells that reveal what happens, and each reveal
 * checks the answer against what was observed (✓ or ✗, never a mark). The
 * list is saved with the unit's evidence as
 * `predictions: [{ name, predicted, observed, matched }]`.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { notice, showTable } from "../notebook/display.ts";
import { briefValue } from "../notebook/show_value.ts";

/** One question: what to predict, and how an answer is compared with what happened. */
export interface Question {
  /** The question, as the learner reads it. */
  ask: string;
  /**
   * How answers compare: `value` (strings without regard to case or the
   * spaces around them), `unordered` (a list, in any order), or `json` (a
   * line of JSON, whatever its spacing and key order). @default {"value"}
   */
  compare?: "value" | "unordered" | "json";
}

/**
 * What a learner writes for a question they choose not to predict (in any
 * case, with any spaces around it): the steps that show its answer then run,
 * and the evidence saves no prediction for it.
 */
export const NO_PREDICTION = "no prediction";

/** A prediction as the evidence saves it. */
export interface Prediction {
  name: string;
  /** The learner's answer, `null` when none was written before the reveal (or none was chosen). */
  predicted: unknown;
  /** What happened, `null` when the step that shows it has not run. */
  observed: unknown;
  /** Whether they agree; `null` while either is missing. */
  matched: boolean | null;
}

/**
 * A unit's predictions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const predictions = new Predictions({ calls: { ask: "How many calls reach the server?" } });
 * await predictions.record({ calls: 0 });
 * await predictions.reveal("calls", 0);
 * assert.deepEqual(predictions.list(), [{ name: "calls", predicted: 0, observed: 0, matched: true }]);
 * ```
 */
export class Predictions {
  readonly #questions: Readonly<Record<string, Question>>;
  readonly #predicted = new Map<string, unknown>();
  readonly #declined = new Set<string>();
  readonly #observed = new Map<string, unknown>();

  /** The unit's questions, by name, in the order they are answered. */
  constructor(questions: Readonly<Record<string, Question>>) {
    this.#questions = questions;
  }

  /**
   * Record the learner's answers (`undefined` for one not written yet,
   * {@linkcode NO_PREDICTION} for one they choose not to make) and show them.
   * An answer to a question already revealed is not taken: the prediction
   * made before the reveal stands. Throws `TypeError` for a name that is not
   * one of the questions.
   */
  async record(answers: Readonly<Record<string, unknown>>): Promise<void> {
    const unknown = Object.keys(answers).filter((name) => !Object.hasOwn(this.#questions, name));
    if (unknown.length > 0) {
      throw new TypeError(
        `No question named ${unknown.join(", ")}: the questions are ${
          Object.keys(this.#questions).join(", ")
        }`,
      );
    }
    const late: string[] = [];
    for (const [name, answer] of Object.entries(answers)) {
      if (this.#observed.has(name)) {
        const before = this.#declined.has(name) ? NO_PREDICTION : this.#predicted.get(name);
        const now = declines(answer) ? NO_PREDICTION : answer;
        if (!isDeepStrictEqual(now ?? null, before ?? null)) late.push(name);
        continue;
      }
      this.#predicted.delete(name);
      this.#declined.delete(name);
      if (declines(answer)) this.#declined.add(name);
      else if (answer !== undefined) this.#predicted.set(name, structuredClone(answer));
    }
    await showTable(
      Object.keys(answers).map((name) => ({
        question: this.#questions[name].ask,
        "your prediction": this.#predicted.has(name)
          ? briefValue(this.#predicted.get(name), 80, { quoted: true })
          : this.#declined.has(name)
          ? "none: you chose not to predict"
          : "not written yet",
      })),
      { title: "your predictions, recorded before the cells that show what happens" },
    );
    const missing = Object.keys(answers).filter((name) => !this.#written(name));
    if (missing.length > 0) {
      await notice(
        "warning",
        `${missing.length} prediction(s) not written yet (${missing.join(", ")}): write each ` +
          "before you run the cells below, then run this cell again. They are never marked. " +
          `The steps that show them wait until then; to see one without predicting, write "${NO_PREDICTION}".`,
      );
    }
    if (late.length > 0) {
      await notice(
        "info",
        `Already revealed, so your first prediction stands: ${late.join(", ")}. To predict ` +
          "afresh, restart the kernel (Kernel → Restart Kernel…) and run the cells again.",
      );
    }
  }

  /**
   * Whether a step may show what the questions `names` ask about: once each
   * is written, or declined with {@linkcode NO_PREDICTION} (or was shown
   * before). Until then it shows a ↷ notice saying that the step waits for
   * those predictions, written in `cell`, and resolves `false`: the step
   * shows none of it, so that Run All reveals no answer before its
   * prediction, however much else the learner has written. Every step that
   * reveals an answer asks this first. Throws `TypeError` for a name that is
   * not one of the questions.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   *
   * const predictions = new Predictions({ calls: { ask: "How many calls?" } });
   * assert.equal(await predictions.shown(["calls"], "the ✏️ predictions cell"), false);
   * await predictions.record({ calls: 0 });
   * assert.equal(await predictions.shown(["calls"], "the ✏️ predictions cell"), true);
   * ```
   */
  async shown(names: readonly string[], cell: string): Promise<boolean> {
    const unknown = names.filter((name) => !Object.hasOwn(this.#questions, name));
    if (unknown.length > 0) throw new TypeError(`No question named ${unknown.join(", ")}`);
    const missing = names.filter((name) => !this.#written(name) && !this.#observed.has(name));
    if (missing.length === 0) return true;
    await notice(
      "skipped",
      `This step shows what you predict (${missing.join(", ")}), and waits for your ` +
        `prediction: write it in ${cell} and run that cell, then run this step again ` +
        `(or write "${NO_PREDICTION}" there to see it without predicting).`,
    );
    return false;
  }

  /**
   * Check the prediction `name` against `observed` and show ✓ or ✗ (or that
   * the learner chose not to predict); {@linkcode Predictions.list} keeps the
   * outcome. Throws `TypeError` for a name that is not one of the questions,
   * and `Error` when the prediction is neither written nor declined and the
   * answer was not shown before: the step should have asked
   * {@linkcode Predictions.shown} first.
   */
  async reveal(name: string, observed: unknown): Promise<void> {
    if (!Object.hasOwn(this.#questions, name)) throw new TypeError(`No question named ${name}`);
    if (!this.#written(name) && !this.#observed.has(name)) {
      throw new Error(
        `A step revealed "${name}" before its prediction was written: it should wait for it (shown)`,
      );
    }
    const question = this.#questions[name];
    this.#observed.set(name, structuredClone(observed));
    const seen = briefValue(observed, 70, { quoted: true });
    if (!this.#predicted.has(name)) {
      await notice("info", `${question.ask} It was ${seen}. (You chose not to predict it.)`);
      return;
    }
    const said = briefValue(this.#predicted.get(name), 70, { quoted: true });
    const matched = agree(this.#predicted.get(name), observed, question.compare ?? "value");
    await notice(
      matched ? "matched" : "missed",
      `${question.ask} You predicted ${said}; it was ${seen}.`,
    );
  }

  /** Whether the learner has answered `name`, with a prediction or by choosing not to. */
  #written(name: string): boolean {
    return this.#predicted.has(name) || this.#declined.has(name);
  }

  /** The questions, by name. */
  get questions(): Readonly<Record<string, Question>> {
    return this.#questions;
  }

  /** Every question, in order, as the evidence saves it. */
  list(): Prediction[] {
    return Object.keys(this.#questions).map((name) => {
      const predicted = this.#predicted.has(name) ? this.#predicted.get(name) : null;
      const observed = this.#observed.has(name) ? this.#observed.get(name) : null;
      const compare = this.#questions[name].compare ?? "value";
      const matched = this.#predicted.has(name) && this.#observed.has(name)
        ? agree(predicted, observed, compare)
        : null;
      return { name, predicted: predicted ?? null, observed: observed ?? null, matched };
    });
  }
}

const UNITS = new Map<string, Predictions>();

/**
 * The predictions of `unit` in this kernel: made once with `questions`, and
 * the same ones when the cell that asks them runs again, so that answers
 * recorded and steps revealed are kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const questions = { calls: { ask: "How many calls?" } };
 * assert.equal(predictionsFor("unit-x", questions), predictionsFor("unit-x", questions));
 * ```
 */
export function predictionsFor(
  unit: string,
  questions: Readonly<Record<string, Question>>,
): Predictions {
  const known = UNITS.get(unit);
  if (known !== undefined && isDeepStrictEqual(known.questions, questions)) return known;
  const made = new Predictions(questions);
  UNITS.set(unit, made);
  return made;
}

/** Whether a learner's answer says they choose not to predict. */
function declines(answer: unknown): boolean {
  return typeof answer === "string" && answer.trim().toLowerCase() === NO_PREDICTION;
}

/** Whether an answer agrees with what happened, compared as the question says. */
function agree(predicted: unknown, observed: unknown, compare: Question["compare"]): boolean {
  return isDeepStrictEqual(normal(predicted, compare), normal(observed, compare));
}

function normal(value: unknown, compare: Question["compare"]): unknown {
  if (compare === "json" && typeof value === "string") {
    try {
      return sortedKeys(JSON.parse(value));
    } catch {
      return value.trim();
    }
  }
  if (typeof value === "string") return value.trim().toLowerCase();
  if (Array.isArray(value)) {
    const items = value.map((item) => normal(item, "value"));
    return compare === "unordered" ? items.map((item) => JSON.stringify(item)).sort() : items;
  }
  return compare === "json" ? sortedKeys(value) : value;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value).sort().map((
      key,
    ) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}
