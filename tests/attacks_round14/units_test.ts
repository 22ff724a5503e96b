// Round 14 of issue 38's red team: new misreadings of what Unit A's, Unit B's,
// Lab 01's and Chapter 15's graded functions must do, as a careful but wrong or
// a lazy learner writes them. Each one kept every mark of its function before
// this round; each is in its function's catalogue now (tests/catalogue/), where
// tests/grading_accuracy_test.ts grades it through the grader's own path
// (gradeTogether, in the sandbox, hidden cases included) and it must lose
// marks. The six readings the round left open are decided (OPEN, below).
//   deno test -A tests/attacks_round14/units_test.ts

import { type Attempt, listed, misreadingTests } from "../catalogue/attempts.ts";

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
  "ch14-b transferProblems": [
    "negative integers refused",
    "kinds looked up with in",
    "problems sorted by localeCompare",
  ],
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
 * Readings the lesson text left open, each decided since: the table or the lesson now says which
 * (an id past 2 ** 53, commas in every entry of denoFlags, the value of a variable named twice in
 * bwrapCommand, problems sorted by code unit: each in ATTEMPTS above), or a text makes both right
 * (a byte order mark ignored, RFC 8259; a key named twice in required, which JSON Schema forbids),
 * each then a right way of its catalogue. None is left open.
 */
const OPEN: readonly Attempt[] = [];

// Closed: each is in its catalogue (listed refuses one that is not), graded by grading_accuracy_test.ts.
listed(ATTEMPTS);
await misreadingTests(OPEN, "ROUND14_OPEN");
