// Unit B: splitFrames and transferProblems.

import { CASES, framesAsText } from "../../../cases/ch14_b.ts";
import { isObject } from "../../../lib/mcp/shared/jsonrpc.ts";
import type { UnitSpec } from "../spec.ts";

/** Unit B's graded functions. */
export const CH14_B: UnitSpec = {
  unit: "ch14-b",
  imports: { "grading/not_implemented.ts": ["NotImplementedError"] },
  functions: [
    {
      name: "splitFrames",
      cell: "split-frames",
      normalize: framesAsText,
      cases: CASES.splitFrames,
      library: [{ file: "lib/mcp/shared/split_frames.ts", name: "splitFrames" }],
    },
    {
      name: "transferProblems",
      cell: "transfer-problems",
      cases: CASES.transferProblems,
      library: [{ file: "lib/mcp/shared/transfer_problems.ts", name: "transferProblems" }],
    },
  ],
  claims(submission) {
    const rows = (key: string) => (Array.isArray(submission[key]) ? submission[key] : []);
    const claimed = (key: string, passed: (row: Record<string, unknown>) => boolean) =>
      Object.fromEntries(
        rows(key).filter(isObject).filter((row) => typeof row.case === "string")
          .map((row) => [row.case as string, passed(row)]),
      );
    return {
      splitFrames: claimed("frames", (row) => row.status === "PASS"),
      transferProblems: claimed("transfer", (row) => row.passed === true),
    };
  },
};
