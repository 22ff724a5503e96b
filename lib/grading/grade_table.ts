/**
 * Grade tables a learner reads at a glance: each case, its status, and what
 * differs first, in a sentence that carries the error's own message; then
 * the input, expected and observed values, each short or summarised, the
 * whole of each a click away.
 *
 * @module
 */

import { showTable } from "../notebook/display.ts";
import { CallArguments, CodeValue, type Row, type ShowTableOptions } from "../notebook/tables.ts";
import { briefValue } from "../notebook/show_value.ts";
import type { GradeRow } from "./grading.ts";
import { type Difference, differencesOf } from "./json_differences.ts";
import { isObject } from "../mcp/shared/jsonrpc.ts";

/** Options for {@linkcode gradeTable}. */
export interface GradeTableOptions {
  /**
   * Show only each case, its status and what differs: for observations too
   * large to read whole (a driver's report of a scenario). @default {false}
   */
  brief?: boolean;
  /**
   * Says in words what one difference between the expected and the observed
   * values means, for the row it is in; `undefined` leaves it to the table's
   * own wording. @default {undefined}
   */
  explain?: (difference: Difference, row: GradeRow) => string | undefined;
  /**
   * The arguments as columns of their own, in place of the one `input`
   * column: each column's name, and the index of the argument it shows, in
   * the order the columns come. What a case tests goes first (the text
   * under test), what it is tested against after (a schema, shown by its
   * name, whole a click away); the arguments it does not name share one
   * last column, `the rest`, as a call writes them, so that a function of
   * many arguments still fits the page. @default {undefined} (one `input`
   * column, the arguments as a call writes them)
   */
  inputs?: Readonly<Record<string, number>>;
}

/** How long a value may be inside a sentence of the "what differs" column. */
const IN_SENTENCE = 48;

/**
 * `rows` as a table: `case`, `status`, `what differs` (only when a row did
 * not pass), then `input` (or the columns `inputs` names), `expected` and
 * `observed` (unless `brief`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gradeCases } from "./grading.ts";
 *
 * const rows = gradeCases((n: number) => n + 2, [
 *   { label: "adds one", args: [1], expected: 2 },
 *   { label: "refuses a negative", args: [-1], expected: { throws: "RangeError" } },
 * ]);
 * const table = gradeTable(rows);
 * assert.deepEqual(Object.keys(table[0]), ["case", "status", "what differs", "input", "expected", "observed"]);
 * assert.equal(table[0]["what differs"], "expected 2, got 3");
 * assert.equal(table[1]["what differs"], "returned 1: it should throw RangeError");
 * ```
 *
 * @example What is tested first: each argument a column of its own
 * ```ts
 * import assert from "node:assert/strict";
 * import { gradeCases } from "./grading.ts";
 *
 * const startsWith = (prefix: string, text: string) => text.startsWith(prefix);
 * const rows = gradeCases(startsWith, [{ label: "a prefix", args: ["ab", "abc"], expected: true }]);
 * const [row] = gradeTable(rows, { inputs: { text: 1, prefix: 0 } });
 * assert.deepEqual(Object.keys(row), ["case", "status", "text", "prefix", "expected", "observed"]);
 * const [named] = gradeTable(rows, { inputs: { text: 1 } });
 * assert.deepEqual(Object.keys(named), ["case", "status", "text", "the rest", "expected", "observed"]);
 * ```
 */
export function gradeTable(rows: readonly GradeRow[], options: GradeTableOptions = {}): Row[] {
  const failing = rows.some((row) => row.status !== "PASS");
  return rows.map((row) => ({
    case: row.case,
    status: row.status,
    ...(failing ? { "what differs": whatDiffers(row, options.explain) } : {}),
    ...(options.brief ? {} : {
      ...inputColumns(row.input, options.inputs),
      expected: new CodeValue(row.expected),
      observed: row.status === "UNFINISHED" ? "" : observedCell(row),
    }),
  }));
}

/**
 * The input cells: one for the call's arguments, or one for each argument
 * `inputs` names and one for the rest.
 */
function inputColumns(input: unknown[], inputs: GradeTableOptions["inputs"]): Row {
  if (inputs === undefined) return { input: new CallArguments(input) };
  const named = new Set(Object.values(inputs));
  const rest = input.filter((_, index) => !named.has(index));
  return {
    ...Object.fromEntries(
      Object.entries(inputs).map(([name, index]) => [name, new CodeValue(input[index])]),
    ),
    ...(rest.length > 0 ? { "the rest": new CallArguments(rest) } : {}),
  };
}

/** The observed cell: a value as code, or the words that say what happened instead. */
function observedCell(row: GradeRow): unknown {
  const said = row.observed === "changed its input" || row.observed === "printed on stdout";
  return said ? row.observed : new CodeValue(row.observed);
}

/**
 * Show `rows` as {@linkcode gradeTable} lays them out.
 *
 * @example
 * ```ts
 * await showGrades([
 *   { case: "c", input: [1], expected: 2, observed: 3, message: "", status: "FAIL" },
 * ], { title: "addOne" });
 * ```
 */
export async function showGrades(
  rows: readonly GradeRow[],
  options: ShowTableOptions & GradeTableOptions = {},
): Promise<void> {
  await showTable(gradeTable(rows, options), options);
}

/**
 * What differs first between a row's expected and observed outcomes, as a
 * sentence of at most 160 characters: `""` for a row that passed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const row = {
 *   case: "c", input: [], expected: [["a"], ""], observed: { throws: "TypeError" },
 *   message: "buffer.indexOf is not a function", status: "FAIL" as const,
 * };
 * assert.equal(whatDiffers(row), "threw TypeError: buffer.indexOf is not a function");
 * ```
 */
export function whatDiffers(row: GradeRow, explain?: GradeTableOptions["explain"]): string {
  if (row.status === "PASS") return "";
  if (row.status === "UNFINISHED") return "not written yet";
  return cut(sentence(row, explain));
}

function sentence(row: GradeRow, explain: GradeTableOptions["explain"]): string {
  const { expected, observed, message } = row;
  const said = message === "" ? "" : `: ${message}`;
  if (observed === "changed its input") {
    return "it changed the arguments it was given: they must stay as they were";
  }
  if (observed === "printed on stdout") {
    return `it printed ${message} on stdout, where only replies may go`;
  }
  const threw = thrownName(observed);
  const shouldThrow = thrownName(expected);
  if (threw !== undefined) {
    const carried = withFields(observed);
    if (shouldThrow === undefined) return `threw ${threw}${carried}${said}`;
    if (threw !== shouldThrow) return `threw ${threw}${said}: it should throw ${shouldThrow}`;
    return `threw ${threw}${carried}: it should carry${withFields(expected).slice(" with".length)}`;
  }
  if (isObject(observed) && Object.keys(observed).length === 1 && "returned" in observed) {
    // What the table could not read is said in the words of what reads it (a flag Deno refuses).
    if (message !== "") return message;
    if (shouldThrow !== undefined) {
      return `returned ${brief(observed.returned)}: it should throw ${shouldThrow}`;
    }
  }
  const found = differencesOf(expected, observed);
  if (found.length === 0) return message || "differs";
  // Differences said in the same words (one step of a scenario, one list) are one.
  const words = [
    ...new Set(
      found.map((difference) => explain?.(difference, row) ?? differenceText(difference, row)),
    ),
  ];
  const more = words.length > 1 ? ` (and ${words.length - 1} more)` : "";
  return `${words[0]}${more}${said}`;
}

/**
 * A difference in the table's own words: a list of plain values (a command
 * line's grants, a list of problems) by what it lacks and what it has too,
 * anything else by where it differs.
 */
function differenceText(difference: Difference, row: GradeRow): string {
  const index = difference.keys.at(-1);
  if (typeof index === "number") {
    const parent = difference.keys.slice(0, -1);
    const [want, got] = [at(row.expected, parent), at(row.observed, parent)];
    if (plainList(want) && plainList(got)) {
      const lacks = want.filter((item) => !got.includes(item));
      const extra = got.filter((item) => !want.includes(item));
      const where = parent.length === 0 ? "the list" : pathText(parent);
      if (lacks.length > 0 || extra.length > 0) {
        return [
          lacks.length > 0 ? `${where} lacks ${lacks.map(brief).join(", ")}` : "",
          extra.length > 0
            ? `${where} has ${extra.map(brief).join(", ")}, which it should not`
            : "",
        ].filter((part) => part !== "").join("; ");
      }
      return `${where} holds the right items in the wrong order: ${brief(got)}`;
    }
  }
  const side = (which: "expected" | "observed") =>
    difference.missing === which ? "nothing" : brief(difference[which]);
  const where = difference.path === "" ? "" : `${difference.path}: `;
  return `${where}expected ${side("expected")}, got ${side("observed")}`;
}

/** The value at `keys` inside `value`, or undefined. */
function at(value: unknown, keys: readonly (string | number)[]): unknown {
  return keys.reduce<unknown>(
    (inside, key) =>
      typeof inside === "object" && inside !== null
        ? (inside as Record<string | number, unknown>)[key]
        : undefined,
    value,
  );
}

function plainList(value: unknown): value is (string | number | boolean | null)[] {
  return Array.isArray(value) && value.every((item) => item === null || typeof item !== "object");
}

/** `keys` in JavaScript notation, as a difference's path is written. */
function pathText(keys: readonly (string | number)[]): string {
  return differencesOf(1, 2, { keys: [...keys] })[0].path;
}

/** The name in `{ throws: NAME }`, or undefined for any other value. */
function thrownName(value: unknown): string | undefined {
  return isObject(value) && typeof value.throws === "string" ? value.throws : undefined;
}

/** ` with code -32601` for an error outcome that lists fields, `""` otherwise. */
function withFields(value: unknown): string {
  if (!isObject(value) || !isObject(value.with)) return "";
  const fields = Object.entries(value.with).map(([key, field]) => `${key} ${brief(field)}`);
  return fields.length === 0 ? "" : ` with ${fields.join(", ")}`;
}

function brief(value: unknown): string {
  return value === undefined ? "undefined" : briefValue(value, IN_SENTENCE, { quoted: true });
}

function cut(text: string): string {
  return text.length <= 160 ? text : `${text.slice(0, 159)}…`;
}
