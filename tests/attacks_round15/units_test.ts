// Round 15 of issue 38's red team: new misreadings of what Lab 02's, Lab 03's
// and Lab 04's graded functions must do, as a careful but wrong or a lazy
// learner writes them from the lesson text, each graded as a learner's module
// through the grader's own path (gradeTogether, in the sandbox, hidden cases
// included). Each one kept every mark of its function before this round; each
// is in its function's catalogue now (tests/catalogue/), where
// tests/grading_accuracy_test.ts grades it and it must lose marks.
// The readings the round left open are decided (OPEN, below). Run:
//   deno test -A tests/attacks_round15/units_test.ts

import { type Attempt, listed, misreadingTests } from "../catalogue/attempts.ts";

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
  "lab-04 sseData": [
    "a field known by its start",
    "a comment line ends the event",
    "a leading byte order mark dropped",
  ],
  "lab-04 progressOf": ["an empty message taken for none", "a total of Infinity kept"],
};

/**
 * Readings the lesson text left open, each decided since. Wrong, as the lesson now says: an empty
 * progress message taken for none, and a U+FEFF at the start of sseData's text dropped (the text is
 * decoded, and the decoder dropped the stream's one BOM: WHATWG HTML 9.2.6), each in ATTEMPTS
 * above. A total kept only when finite is the worked way now: a total of Infinity (1e400 in JSON)
 * is no total a server sent, and keeping it is the wrong entry in ATTEMPTS. Right by a text, each
 * a right way of its catalogue: the stop weighed first in decode (no token may follow a complete
 * call, so it never ties), the cancelled ids looked at first in routeReply (ids are never reused
 * in a session, so none is in both lists), and a notification with a version in _meta sent the
 * session's headers (2026-07-28 defines no headers for a notification's POST). None is left open.
 */
const OPEN: readonly Attempt[] = [];

// Closed: each is in its catalogue (listed refuses one that is not), graded by grading_accuracy_test.ts.
listed(ATTEMPTS);
await misreadingTests(OPEN, "ROUND15_OPEN");
