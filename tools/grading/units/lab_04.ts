// Lab 04: the decisions of a client with many requests in flight, and of
// Streamable HTTP on both sides, each a function on plain values.

import { CASES, type Lab04Function } from "../../../cases/lab_04.ts";
import { tableClaims, type UnitSpec } from "../spec.ts";

/** The cell each graded function is written in. */
const CELLS: Readonly<Record<Lab04Function, string>> = {
  routeReply: "route-reply",
  expiredIds: "expired-ids",
  progressOf: "progress-of",
  postHeaders: "post-headers",
  replyKind: "reply-kind",
  sseData: "sse-data",
  originAllowed: "origin-allowed",
  sessionCheck: "session-check",
};

/**
 * The library's own code for a graded idea, readable in the learners'
 * release: a copy of it in a learner's code earns nothing (the SSE reader
 * the course's HTTP client uses, pasted and wrapped, would be sseData).
 */
const LIBRARY: Partial<Record<Lab04Function, { file: string; name: string }[]>> = {
  sseData: [{ file: "lib/mcp/shared/sse.ts", name: "readSseEvents" }],
};

/** Lab 04's graded functions. */
export const LAB_04: UnitSpec = {
  unit: "lab-04",
  imports: {
    "mcp/shared/errors.ts": ["ProtocolError"],
    "grading/not_implemented.ts": ["NotImplementedError"],
  },
  functions: (Object.keys(CELLS) as Lab04Function[]).map((name) => ({
    name,
    cell: CELLS[name],
    cases: CASES[name],
    ...LIBRARY[name] && { library: LIBRARY[name] },
  })),
  // The submission records each grade table's rows: { case, status }.
  claims: (submission) => tableClaims(submission.cases, Object.keys(CELLS)),
};
