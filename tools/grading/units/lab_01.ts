// Lab 01: negotiateVersion and handleMessage, the learner's server side.

import { CASES, replyShape } from "../../../cases/lab_01.ts";
import { tableClaims, type UnitSpec } from "../spec.ts";

/** The library's dispatcher, whose functions do the work of Lab 01's (the handshake's). */
const DISPATCH = "lib/mcp/server/dispatch.ts";

/** Lab 01's graded functions. */
export const LAB_01: UnitSpec = {
  unit: "lab-01",
  imports: {
    "mcp/shared/framing.ts": ["readFrames"],
    "grading/not_implemented.ts": ["NotImplementedError"],
    "mcp/server/arguments.ts": ["argumentProblems"],
    "course/grammar_tools.ts": ["GRAMMAR_TOOLS"],
    "mcp/shared/meta.ts": ["META"],
  },
  functions: [
    {
      name: "negotiateVersion",
      cell: "negotiate-version",
      cases: CASES.negotiateVersion,
      library: [{ file: DISPATCH, name: "negotiateVersion" }],
    },
    {
      name: "handleMessage",
      cell: "handle-message",
      // Its later steps, which it calls.
      parts: ["answer-request", "answer-today", "answer-handshake", "answer-tools"],
      normalize: replyShape,
      // Its replies are a stdio server's stdout: a log line there breaks every client.
      quiet: true,
      cases: CASES.handleMessage,
      library: [{ file: DISPATCH, name: "handleLine" }, { file: DISPATCH, name: "respond" }],
      // Today's protocol, as the library's servers answer it: readable in the learners' release.
      libraryModules: ["lib/mcp/server/modern_request.ts", "lib/mcp/server/modern_answer.ts"],
    },
  ],
  // The reply helpers the notebook gives; and the stdio loop: the notebook runs it as a process,
  // and five clients judge it there.
  supportCells: ["reply-helpers", "serve-stdio"],
  // The submission records each grade table's rows: { case, status }.
  claims: (submission) => tableClaims(submission.cases, ["negotiateVersion", "handleMessage"]),
};
