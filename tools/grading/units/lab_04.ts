// Lab 04: the decisions of a client with many requests in flight, and of
// Streamable HTTP on both sides in both eras of MCP, each a function on plain
// values.

import { CASES, type Lab04Function } from "../../../cases/lab_04.ts";
import { headerNameCase } from "../../../lib/course/header_names.ts";
import { type GradedFunction, tableClaims, type UnitSpec } from "../spec.ts";

/** The cell each graded function is written in. */
const CELLS: Readonly<Record<Lab04Function, string>> = {
  routeReply: "route-reply",
  expiredIds: "expired-ids",
  progressOf: "progress-of",
  postHeaders: "post-headers",
  replyKind: "reply-kind",
  sseData: "sse-data",
  recoverStream: "recover-stream",
  originAllowed: "origin-allowed",
  headerCheck: "header-check",
  sessionCheck: "session-check",
};

/**
 * The library's own code for a graded idea, readable in the learners'
 * release: a copy of it in a learner's code earns nothing (the SSE reader
 * the course's HTTP client uses, pasted and wrapped, would be sseData).
 */
const LIBRARY: Partial<Record<Lab04Function, { file: string; name: string }[]>> = {
  sseData: [{ file: "lib/mcp/shared/read_sse_events.ts", name: "readSseEvents" }],
};

/**
 * The library's readable modules that do a graded decision of today's
 * protocol their own way: the headers a client mirrors from a body, and the
 * server's check of them. A block of a learner's code nearly the same as one
 * of theirs earns the function nothing.
 */
const MODULES: Partial<Record<Lab04Function, string[]>> = {
  postHeaders: ["lib/mcp/shared/mcp_headers.ts"],
  headerCheck: ["lib/mcp/server/header_check.ts"],
};

/**
 * What a report line adds to a difference its own words leave unexplained: a
 * header name in capitals is told that names are lower case here.
 */
const EXPLAIN: Partial<Record<Lab04Function, GradedFunction["explain"]>> = {
  postHeaders: headerNameCase,
};

/** Lab 04's graded functions. */
export const LAB_04: UnitSpec = {
  unit: "lab-04",
  imports: {
    "mcp/shared/errors.ts": ["ProtocolError"],
    "mcp/shared/meta.ts": ["META"],
    "grading/not_implemented.ts": ["NotImplementedError"],
  },
  functions: (Object.keys(CELLS) as Lab04Function[]).map((name) => ({
    name,
    cell: CELLS[name],
    cases: CASES[name],
    ...LIBRARY[name] && { library: LIBRARY[name] },
    ...MODULES[name] && { libraryModules: MODULES[name] },
    ...EXPLAIN[name] && { explain: EXPLAIN[name] },
  })),
  // The submission records each grade table's rows: { case, status }.
  claims: (submission) => tableClaims(submission.cases, Object.keys(CELLS)),
};
