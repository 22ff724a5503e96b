// Round 13 of issue 38's red team: new misreadings of what Lab 02's, Lab 03's
// and Lab 04's graded functions must do, as a careful but wrong learner
// writes them, each graded as a learner's module through the grader's own
// path (gradeTogether, in the sandbox, hidden cases included). Each one kept
// every mark of its function before this round; each is in its function's
// catalogue now (tests/catalogue/), where tests/grading_accuracy_test.ts grades it and it must
// lose marks. The attempt the round left open is decided (OPEN, below). Run:
//   deno test -A tests/attacks_round13/labs_test.ts

import { type Attempt, listed, misreadingTests } from "../catalogue/attempts.ts";

/** Each attempt, by its function (unit and name), as the catalogue's label of its misreading. */
const ATTEMPTS: Readonly<Record<string, readonly string[]>> = {
  "lab-02 eraOf": [
    "the code compared loosely",
    "capabilities that are a list taken for an object",
    "the server's versions trimmed",
    "an empty list of versions taken for no DiscoverResult",
  ],
  "lab-02 HandshakeClient": [
    "a tools capability tested for truth",
    "a modern tools capability tested for truth",
  ],
  "lab-02 McpClient": ["isError tested for truth"],
  "lab-02 ListingClient": ["an inputSchema that is a list accepted"],
  "lab-02 ServerLink": ["each read of stderr decoded on its own"],
  "lab-02 RpcLink": [
    "a server request known by a truthy id",
    "an abandoned id compared as text",
    "an abandoned id forgotten after its first late reply",
  ],
  "lab-02 unwrap": ["a number read from the start of the text"],
  "lab-02 correlate": ["falsy data left out", "the result read first"],
  "lab-03 prefixStatus": [
    "an enum member's length in graphemes",
    "an empty enum member dropped",
    "a lone surrogate written raw",
    "maxLength checked only once an escape ends",
  ],
  "lab-03 decode": ["the best found from a score of -Infinity up"],
  "lab-03 nextMove": ["the context trimmed"],
  "lab-03 retryRequest": [
    "an answer looked up through the prototype",
    "an answer found with in",
  ],
  "lab-04 routeReply": ["a reply without an id dropped"],
  "lab-04 originAllowed": ["the Origin trimmed", "http and https the same", "the port ignored"],
  "lab-04 sseData": [
    "any white space after the colon dropped",
    "data trimmed at its end",
    "U+2028 and U+2029 line ends",
  ],
  "lab-04 recoverStream": [
    "the era told by a version of any type",
    "an event id of white space taken for none",
    "an event id of digits made a number",
  ],
  "lab-04 postHeaders": [
    "the era told by a version of any type",
    "an empty name left out",
    "a name of any type sent as text",
  ],
  "lab-04 headerCheck": ["header values trimmed", "Mcp-Name compared loosely"],
  "lab-04 progressOf": ["negative progress refused"],
};

/**
 * The attempt this round left open is decided since: inputRequests: {} taken to ask nothing is a
 * right way of retryRequest's catalogue, since the schema asks an answer "for each key in the
 * response's inputRequests field" and inputResponses is optional (2026-07-28). None is left open.
 */
const OPEN: readonly Attempt[] = [];

// Closed: each is in its catalogue (listed refuses one that is not), graded by grading_accuracy_test.ts.
listed(ATTEMPTS);
await misreadingTests(OPEN, "ROUND13_OPEN");
