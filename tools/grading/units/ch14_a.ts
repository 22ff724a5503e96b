// Unit A: answerFor and authorize.

import { CASES } from "../../../cases/ch14_a.ts";
import type { UnitSpec } from "../spec.ts";

/** Unit A's graded functions. */
export const CH14_A: UnitSpec = {
  unit: "ch14-a",
  imports: {
    "mcp/shared/errors.ts": ["ProtocolError"],
    "grading/not_implemented.ts": ["NotImplementedError"],
  },
  functions: [
    {
      name: "answerFor",
      cell: "answer-for",
      cases: CASES.answerFor,
      library: [{ file: "lib/mcp/client/answer.ts", name: "answerFor" }],
    },
    {
      name: "authorize",
      cell: "authorize",
      cases: CASES.authorize,
      library: [{ file: "lib/mcp/client/allowlist.ts", name: "authorize" }],
    },
  ],
  // A COMPLETED handoff says both functions passed their visible cases.
  claims(handoff): Record<string, Record<string, boolean>> {
    if (handoff.status !== "COMPLETED") return {};
    const all = (name: "answerFor" | "authorize") =>
      Object.fromEntries(CASES[name].map((c) => [c.label, true]));
    return { answerFor: all("answerFor"), authorize: all("authorize") };
  },
};
