// Round 14 of issue 38's red team: new misreadings of what Unit A's, Unit B's,
// Lab 01's and Chapter 15's graded functions must do, as a careful but wrong or
// a lazy learner writes them, each graded as a learner's module through the
// grader's own path (gradeTogether, in the sandbox, hidden cases included).
// Each one kept every mark of its function before this round; each is in its
// function's catalogue now (tests/catalogue/), where tests/grading_accuracy_test.ts grades it and it must
// lose marks; this file grades only the open ones, when asked. Readings
// the lesson text leaves open are in OPEN, skipped unless ROUND14_OPEN=1. Run:
//   deno test -A tests/attacks_round14/units_test.ts

import { type Attempt, listed, misreadingTests, workedWith } from "../catalogue/attempts.ts";

/** Each attempt, by its function (unit and name), as the catalogue's label of its misreading. */
const ATTEMPTS: Readonly<Record<string, readonly string[]>> = {
  "ch14-a answerFor": [
    "string ids trimmed",
    "string ids compared in one Unicode form",
    "string ids compared as UTF-8 bytes",
    "an error counted only when its code is a number",
    "a reply with a result and an error taken by its result",
  ],
  "ch14-a authorize": ["a name tested for truth first", "an entry of null taken as not advertised"],
  "ch14-b splitFrames": ["frames split as text, the rest as bytes"],
  "ch14-b transferProblems": ["negative integers refused", "kinds looked up with in"],
  "lab-01 negotiateVersion": [
    "versions looked up with in",
    "versions looked up by a truthy entry",
    "versions looked up with Object.hasOwn",
    "the version made text first",
  ],
  "lab-01 handleMessage": [
    "jsonrpc compared loosely",
    "params of null taken for none",
    "params checked before notifications",
    "arguments that are a list taken as an object",
    "arguments of null taken for none",
    "an empty method taken for none",
    "a _meta of null asked with in",
    "an empty protocolVersion taken for none",
    "a tool's name compared loosely",
    "a blank line skipped",
    "a negative id refused",
    "an id that is any integer",
  ],
  "ch15 limitCommand": ["empty arguments left out", "arguments trimmed"],
  "ch15 denoFlags": [
    "a comma in a folder it writes passed through",
    "commas refused only in paths",
  ],
  "ch15 bwrapCommand": [
    "the writable folders bound before the read-only ones",
    "empty arguments left out",
    "the runtime's value wins a variable named twice",
  ],
};

/**
 * Readings the lesson text leaves open, each with what it earned, for the
 * instructors to decide: not misreadings this round could call wrong.
 */
const OPEN: readonly Attempt[] = [
  // Problems sorted by localeCompare, not by code unit (the worked way's sort()). It earned 34/34:
  // "returns a sorted list" does not say in which order "Tubs" and "order_id" come.
  {
    unit: "ch14-b",
    fn: "transferProblems",
    label: "problems sorted by localeCompare",
    source: workedWith(
      "ch14-b",
      "transferProblems",
      "return problems.sort();",
      "return problems.sort((a, b) => a.localeCompare(b));",
    ),
  },
  // A key named twice in required reported missing once. It earned 34/34: "for each key in
  // required" may be read per entry (the worked way) or per key.
  {
    unit: "ch14-b",
    fn: "transferProblems",
    label: "a key required twice reported once",
    source: workedWith(
      "ch14-b",
      "transferProblems",
      "return problems.sort();",
      "return [...new Set(problems)].sort();",
    ),
  },
  // A byte order mark before the JSON dropped, so the request is answered (the worked way's
  // JSON.parse refuses it: -32700). It earned 111/111: RFC 8259 lets a parser ignore a BOM, and the
  // lab's "not JSON" does not say which.
  {
    unit: "lab-01",
    fn: "handleMessage",
    label: "a byte order mark dropped",
    source: workedWith(
      "lab-01",
      "handleMessage",
      "message = JSON.parse(line);",
      'message = JSON.parse(line.replace(/^\\uFEFF/, ""));',
    ),
  },
];

// Closed: each is in its catalogue (listed refuses one that is not), graded by grading_accuracy_test.ts.
listed(ATTEMPTS);
await misreadingTests(OPEN, "ROUND14_OPEN");
