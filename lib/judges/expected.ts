/**
 * What every client that judges a grammar server must see: the four tools
 * listed, and the four canonical calls answered with `ate`, `comió` and two
 * objects, in the protocol version the judge speaks. Each judge (a
 * hand-crafted byte stream of both eras, the course's client and the SDK's
 * v2 client at 2026-07-28, the SDK's 1.x client and the MCP Inspector
 * through the handshake) fills in a {@linkcode ClientReport}, and
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
export type ClientName = "bytes" | "course" | "sdk_v2" | "sdk" | "inspector";

/**
 * The protocol versions each judge must end up speaking with a grammar
 * server of both eras, in the order it speaks them: today's for the clients
 * of 2026-07-28, the handshake's newest (what `initialize` agrees on) for
 * the others; the Inspector's command-line mode does not say which.
 */
export const SPOKEN: Readonly<Record<ClientName, readonly string[]>> = {
  bytes: ["2026-07-28", "2025-06-18"],
  course: ["2026-07-28"],
  sdk_v2: ["2026-07-28"],
  sdk: ["2025-06-18"],
  inspector: [],
};

/** What one client observed of a server, and its verdict. */
export interface ClientReport {
  client: ClientName;
  /** `NOT_RUN` when the client could not be started (such as an Inspector not installed). */
  status: "PASSED" | "FAILED" | "NOT_RUN";
  /** The protocol versions it spoke with the server, in order (empty: not known, or none). */
  spoke: string[];
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
 * The report with its status and problems: `PASSED` when the client spoke
 * the versions {@linkcode SPOKEN} names for it, the tools listed and the
 * answers are the expected ones, the `errors` are the `expectedErrors` and
 * nothing else went wrong (`problems` already found are kept).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const observed = { spoke: ["2026-07-28"], tools: [...GRAMMAR_TOOL_NAMES], answers: { ...EXPECTED_ANSWERS }, errors: {} };
 * assert.equal(verdictOf("course", observed).status, "PASSED");
 * const wrong = verdictOf("course", { ...observed, answers: { ...EXPECTED_ANSWERS, conjugate: "eated" } });
 * assert.deepEqual(wrong.problems, ['conjugate answered "eated", expected "ate"']);
 * const legacy = verdictOf("course", { ...observed, spoke: ["2025-06-18"] });
 * assert.deepEqual(legacy.problems, ['spoke 2025-06-18, expected 2026-07-28']);
 * ```
 */
export function verdictOf(
  client: ClientName,
  observed: Pick<ClientReport, "spoke" | "tools" | "answers" | "errors"> & {
    problems?: string[];
  },
  expectedErrors: Record<string, number | string> = {},
): ClientReport {
  const problems = [...observed.problems ?? []];
  if (!isDeepStrictEqual(observed.spoke, SPOKEN[client])) {
    const said = (versions: readonly string[]) => versions.join(" then ") || "nothing";
    problems.push(`spoke ${said(observed.spoke)}, expected ${said(SPOKEN[client])}`);
  }
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
    spoke: observed.spoke,
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
  return {
    client,
    status: "NOT_RUN",
    spoke: [],
    tools: [],
    answers: {},
    errors: {},
    problems: [why],
  };
}

function show(value: unknown): string {
  return value === undefined ? "nothing" : JSON.stringify(value);
}
