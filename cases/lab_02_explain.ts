/**
 * What a difference in Lab 02's observations means, in words a learner
 * reads: the observations of `tools/grading/drivers/lab_02_client.ts` (what
 * each step of a scenario returned or threw, what the server received, how
 * it ended, what the client logged) and of `lab_02_tests.ts` (how a named
 * test did against a client that works and against a faulty one). The grade
 * tables pass it as their `explain`.
 *
 * @module
 */

import type { Difference } from "../lib/grading/json_differences.ts";
import type { GradeRow } from "../lib/grading/grading.ts";
import { briefValue } from "../lib/notebook/show_value.ts";
import { isObject } from "../lib/mcp/shared/jsonrpc.ts";
import type { Scenario } from "../tools/grading/drivers/lab_02_client.ts";

const brief = (value: unknown) =>
  value === undefined ? "undefined" : briefValue(value, 44, { quoted: true });

/**
 * The sentence for the first difference of a Lab 02 row, or `undefined` to
 * leave it to the table's own wording.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { differencesOf } from "../lib/grading/json_differences.ts";
 *
 * const expected = { mentions: { kill: true } };
 * const observed = { mentions: { kill: false } };
 * const row = { case: "c", input: [{ steps: [], observe: ["mentions"] }], expected, observed, message: "", status: "FAIL" as const };
 * assert.equal(explainObservation(differencesOf(expected, observed)[0], row), 'no line the client logged of its own mentions "kill"');
 * ```
 */
export function explainObservation(difference: Difference, row: GradeRow): string | undefined {
  const [key, index] = difference.keys;
  const expected = isObject(row.expected) ? row.expected : {};
  const observed = isObject(row.observed) ? row.observed : {};
  switch (key) {
    case "steps":
      return typeof index === "number" ? stepSentence(row, index) : undefined;
    case "mentions":
      return difference.observed === false
        ? `no line the client logged of its own mentions "${index}"`
        : `a line the client logged of its own mentions "${index}": none should`;
    case "exit":
      return observed.exit === "running"
        ? `the server is still running after the steps: it should have ended with ${
          exitText(expected.exit)
        }`
        : `the server ended with ${exitText(observed.exit)}: it should end with ${
          exitText(expected.exit)
        }`;
    case "notes":
      return `the client logged ${observed.notes} line(s) of its own: it should log ${expected.notes}`;
    case "stderr":
      return linesSentence("[server] lines shown", expected.stderr, observed.stderr);
    case "sent":
      return `the server received ${messages(observed.sent)}: it should receive ${
        messages(expected.sent)
      }`;
    case "calls":
      return Array.isArray(expected.calls) && expected.calls.length === 0
        ? `a tools/call reached the server (${brief(observed.calls)}): nothing should be sent`
        : `the tools/call the server received was ${brief(observed.calls)}: it should be ${
          brief(expected.calls)
        }`;
    case "version":
      return `the client's protocolVersion is ${brief(observed.version)}: it should be ${
        brief(expected.version)
      }`;
    case "said":
      return `the client sent ${listed(observed.said)}: it should send ${listed(expected.said)}`;
    case "meta":
      return `the versions in the _meta of what the server received are ${
        listed(observed.meta)
      }: they should be ${listed(expected.meta)} (null: no _meta)`;
    case "probe":
      return `the probe's params were ${brief(observed.probe)}: they should be ${
        brief(expected.probe)
      }`;
    case "cancelled":
      return `the server was told of the cancellation of ${
        listed(observed.cancelled)
      }: it should be told of ${listed(expected.cancelled)}`;
    case "correct":
      return "your test failed against a client that works: it must pass there";
    case "faulty":
      return "your test passed against the faulty client: a test that cannot fail catches nothing";
    default:
      return undefined;
  }
}

/** What step `index` of the row's scenario did, against what it should have done. */
function stepSentence(row: GradeRow, index: number): string {
  const scenario = row.input[0] as Scenario | undefined;
  const step = scenario?.steps?.[index];
  const name = step === undefined ? `step ${index + 1}` : `step ${index + 1}, ${callText(step)}`;
  const should = (row.expected as { steps?: unknown[] }).steps?.[index];
  const did = (row.observed as { steps?: unknown[] }).steps?.[index];
  return `${name}, ${outcomeText(did)}: it should ${outcomeText(should, true)}`;
}

function callText(step: { call: string; args?: unknown[] }): string {
  const call = step.call === "dispose" ? "leaving await using" : `${step.call}(`;
  if (step.call === "dispose") return call;
  const args = (step.args ?? []).map((arg) => brief(arg)).join(", ");
  return `${call}${args.length > 40 ? "…" : args})`;
}

/** How a step ended, as words: returned, threw (with its code or message), or still waits. */
function outcomeText(outcome: unknown, future = false): string {
  if (!isObject(outcome)) return future ? "end" : "had no outcome";
  if ("waiting" in outcome) return future ? "end" : `had ${outcome.waiting}: it still waits`;
  if ("threw" in outcome) {
    const extra = typeof outcome.code === "number"
      ? ` with code ${outcome.code}`
      : typeof outcome.message === "string"
      ? ` saying ${brief(outcome.message)}`
      : "";
    return `${future ? "throw" : "threw"} ${outcome.threw}${extra}`;
  }
  return `${future ? "return" : "returned"} ${brief(outcome.returned)}`;
}

function exitText(exit: unknown): string {
  if (!isObject(exit)) return brief(exit);
  return exit.signal ? `code ${exit.code} (${exit.signal})` : `code ${exit.code}`;
}

/** `[id, method]` pairs as `initialize #0, notifications/initialized`. */
function messages(sent: unknown): string {
  if (!Array.isArray(sent)) return brief(sent);
  if (sent.length === 0) return "nothing";
  return sent.map((pair) =>
    Array.isArray(pair) ? (pair[0] === null ? `${pair[1]}` : `${pair[1]} #${pair[0]}`) : brief(pair)
  ).join(", ");
}

/** A list as words: its items, or "nothing". */
function listed(items: unknown): string {
  if (!Array.isArray(items)) return brief(items);
  return items.length === 0 ? "nothing" : items.map((item) => brief(item)).join(", ");
}

/** The first line where two lists of lines differ. */
function linesSentence(what: string, expected: unknown, observed: unknown): string {
  const want = Array.isArray(expected) ? expected : [];
  const got = Array.isArray(observed) ? observed : [];
  const at = want.findIndex((line, i) => line !== got[i]);
  if (at < 0) {
    return `the ${what} end with ${brief(got[want.length])}, which should not be there`;
  }
  return `line ${at + 1} of the ${what} is ${
    got[at] === undefined ? "missing" : brief(got[at])
  }: it should be ${brief(want[at])}`;
}
