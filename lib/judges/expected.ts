/**
 * What every client that judges a grammar server must see: the four tools
 * listed, and the four canonical calls answered with `ate`, `comió` and two
 * objects. Each judge (a hand-crafted byte stream, the course's client, the
 * SDK's client, the MCP Inspector) fills in a {@linkcode ClientReport}, and
 * {@linkcode verdictOf} compares it with this.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import type { JsonObject } from "../mcp/shared/jsonrpc.ts";

/** The four tools a grammar server lists, in name order. */
export const GRAMMAR_TOOL_NAMES: readonly string[] = [
  "check_subject_verb_agreement",
  "conjugate",
  "lookup_irregular_verb",
  "lookup_spanish",
];

/** The canonical calls, one for each tool, as Lab 02 makes them. */
export const CANONICAL_CALLS: readonly (readonly [string, JsonObject])[] = [
  ["conjugate", { verb: "eat", tense: "past_simple", person: "3sg" }],
  ["lookup_spanish", { english_form: "ate" }],
  ["lookup_irregular_verb", { verb: "go" }],
  ["check_subject_verb_agreement", { subject: "he", verb_form: "go" }],
];

/** The answer to each canonical call: a word, or the object its JSON text holds. */
export const EXPECTED_ANSWERS: Readonly<Record<string, unknown>> = {
  conjugate: "ate",
  lookup_spanish: "comió",
  lookup_irregular_verb: {
    verb: "go",
    irregular: true,
    past_simple: "went",
    past_participle: "gone",
  },
  check_subject_verb_agreement: { subject: "he", verb_form: "go", agrees: false, expected: "goes" },
};

/**
 * What `tool` answered with `text`, in the form {@linkcode EXPECTED_ANSWERS}
 * writes it: the text itself where a word is expected, the value of its JSON
 * where an object is (the text when that is not JSON).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(answerFrom("conjugate", "ate"), "ate");
 * assert.deepEqual(answerFrom("lookup_irregular_verb", '{"verb":"go"}'), { verb: "go" });
 * assert.equal(answerFrom("lookup_irregular_verb", "{oops"), "{oops");
 * ```
 */
export function answerFrom(tool: string, text: string): unknown {
  if (typeof EXPECTED_ANSWERS[tool] === "string") return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The clients that judge a server. */
export type ClientName = "bytes" | "course" | "sdk" | "inspector";

/** What one client observed of a server, and its verdict. */
export interface ClientReport {
  client: ClientName;
  /** `NOT_RUN` when the client could not be started (such as an Inspector not installed). */
  status: "PASSED" | "FAILED" | "NOT_RUN";
  /** The tool names it listed, sorted. */
  tools: string[];
  /** Each canonical call's answer ({@linkcode answerFrom}), by tool name. */
  answers: Record<string, unknown>;
  /** What each deliberate mistake came back as: a JSON-RPC code, or `"isError"`. */
  errors: Record<string, number | string>;
  /** What was not as expected; empty when it passed. */
  problems: string[];
}

/**
 * The report with its status and problems: `PASSED` when the tools listed
 * and the answers are the expected ones, the `errors` are the `expectedErrors`
 * and nothing else went wrong (`problems` already found are kept).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const observed = { tools: [...GRAMMAR_TOOL_NAMES], answers: { ...EXPECTED_ANSWERS }, errors: {} };
 * assert.equal(verdictOf("course", observed).status, "PASSED");
 * const wrong = verdictOf("course", { ...observed, answers: { ...EXPECTED_ANSWERS, conjugate: "eated" } });
 * assert.deepEqual(wrong.problems, ['conjugate answered "eated", expected "ate"']);
 * ```
 */
export function verdictOf(
  client: ClientName,
  observed: Pick<ClientReport, "tools" | "answers" | "errors"> & { problems?: string[] },
  expectedErrors: Record<string, number | string> = {},
): ClientReport {
  const problems = [...observed.problems ?? []];
  const tools = [...observed.tools].sort();
  if (!isDeepStrictEqual(tools, GRAMMAR_TOOL_NAMES)) {
    problems.push(`listed ${show(tools)}, expected ${show(GRAMMAR_TOOL_NAMES)}`);
  }
  for (const [name, expected] of Object.entries(EXPECTED_ANSWERS)) {
    const answer = observed.answers[name];
    if (!isDeepStrictEqual(answer, expected)) {
      problems.push(`${name} answered ${show(answer)}, expected ${show(expected)}`);
    }
  }
  for (const [what, expected] of Object.entries(expectedErrors)) {
    const got = observed.errors[what];
    if (got !== expected) {
      problems.push(`${what} came back as ${show(got)}, expected ${show(expected)}`);
    }
  }
  return {
    client,
    status: problems.length === 0 ? "PASSED" : "FAILED",
    tools,
    answers: observed.answers,
    errors: observed.errors,
    problems,
  };
}

/**
 * The report of a client that could not run, saying why.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(notRun("inspector", "not installed").status, "NOT_RUN");
 * ```
 */
export function notRun(client: ClientName, why: string): ClientReport {
  return { client, status: "NOT_RUN", tools: [], answers: {}, errors: {}, problems: [why] };
}

function show(value: unknown): string {
  return value === undefined ? "nothing" : JSON.stringify(value);
}
