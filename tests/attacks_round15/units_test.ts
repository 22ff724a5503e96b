// Round 15 of issue 38's red team: new misreadings of what Lab 02's, Lab 03's
// and Lab 04's graded functions must do, as a careful but wrong or a lazy
// learner writes them from the lesson text, each graded as a learner's module
// through the grader's own path (gradeTogether, in the sandbox, hidden cases
// included). Each one kept every mark of its function before this round; each
// is in its function's catalogue now (tests/catalogue/), where
// tests/grading_accuracy_test.ts grades it and it must lose marks.
// Readings the lesson text leaves open are in OPEN, skipped unless
// ROUND15_OPEN=1. Run:
//   deno test -A tests/attacks_round15/units_test.ts

import { type Attempt, listed, misreadingTests, workedWith } from "../catalogue/attempts.ts";

/** Each attempt, by its function (unit and name), as the catalogue's label of its misreading. */
const ATTEMPTS: Readonly<Record<string, readonly string[]>> = {
  "lab-02 HandshakeClient": ["capabilities kept before the version check"],
  "lab-02 ListingClient": ["schemas from an earlier listing kept"],
  "lab-02 RpcLink": ["a failed write thrown as it is"],
  "lab-02 McpClient": [
    "the first text item read, wherever it is",
    "a failure with no text still a ToolError",
    "every text item joined",
    "structuredContent taken first",
  ],
  "lab-04 replyKind": ["only spaces trimmed"],
  "lab-04 sseData": ["a field known by its start", "a comment line ends the event"],
};

/**
 * Readings the lesson text leaves open, each with what it earned, for the
 * instructors to decide: not misreadings this round could call wrong.
 */
const OPEN: readonly Attempt[] = [
  // An empty message taken for none (null). It earned 22/22: the lesson keeps message "only as a
  // string", and "" is one, but no case or sentence says an empty one is a message.
  {
    unit: "lab-04",
    fn: "progressOf",
    label: "an empty message taken for none",
    source: workedWith(
      "lab-04",
      "progressOf",
      'message: typeof p.message === "string" ? p.message : null',
      'message: typeof p.message === "string" && p.message !== "" ? p.message : null',
    ),
  },
  // A total kept only when finite (the worked way keeps any number, Infinity from 1e400 too). It
  // earned 22/22: the lesson refuses a progress that is not finite and says nothing of the total's.
  {
    unit: "lab-04",
    fn: "progressOf",
    label: "a total kept only when finite",
    source: workedWith(
      "lab-04",
      "progressOf",
      'total: typeof p.total === "number" ? p.total : null',
      "total: Number.isFinite(p.total) ? p.total : null",
    ),
  },
  // The stop put first among the allowed, so a tie between it and a token stops (the worked way
  // gives a tie to the token, the stop's id being tokens.length). It earned 14/14: the lesson does
  // not say who wins a tie with the stop.
  {
    unit: "lab-03",
    fn: "decode",
    label: "the stop weighed first",
    source: workedWith(
      "lab-03",
      "decode",
      "if (complete) allowed.push(stop);",
      "if (complete) allowed.unshift(stop);",
    ),
  },
  // An id both in flight and cancelled routed as cancelled (null; the worked way routes it to the
  // request). It earned 13/13: ids are not reused in a session, so the lesson never meets one id
  // in both lists.
  {
    unit: "lab-04",
    fn: "routeReply",
    label: "the cancelled ids looked at first",
    source: workedWith(
      "lab-04",
      "routeReply",
      "  if (inFlight.includes(reply.id)) return reply.id;\n  if (cancelled.includes(reply.id)) return null;",
      "  if (cancelled.includes(reply.id)) return null;\n  if (inFlight.includes(reply.id)) return reply.id;",
    ),
  },
  // A leading byte order mark dropped, as the SSE specification (WHATWG) says a reader does; the
  // worked way keeps it, so "\uFEFFdata: x" names no data field there. It earned 27/27: the
  // lesson says nothing of a BOM, and no case holds one.
  {
    unit: "lab-04",
    fn: "sseData",
    label: "a leading byte order mark dropped",
    source: workedWith(
      "lab-04",
      "sseData",
      "const lines = text.split(",
      'const lines = text.replace(/^\\uFEFF/, "").split(',
    ),
  },
  // Only a message with an id taken as today's: a notification whose _meta names a version gets
  // the session's headers (the worked way mirrors its body). It earned 23/23: the lesson's text
  // sends "a notification" the session's way, its hint takes any version in _meta as today's.
  {
    unit: "lab-04",
    fn: "postHeaders",
    label: "only a request with an id is today's",
    source: workedWith(
      "lab-04",
      "postHeaders",
      '  if (typeof version === "string") {',
      '  if (typeof version === "string" && "id" in message) {',
    ),
  },
];

// Closed: each is in its catalogue (listed refuses one that is not), graded by grading_accuracy_test.ts.
listed(ATTEMPTS);
await misreadingTests(OPEN, "ROUND15_OPEN");
