// Lab 02: correlate and unwrap.

import { CASES } from "../../../cases/lab_02.ts";
import type { UnitSpec } from "../spec.ts";

/** Lab 02's graded functions. */
export const LAB_02: UnitSpec = {
  unit: "lab-02",
  imports: { "errors.ts": ["ProtocolError"], "not_implemented.ts": ["NotImplementedError"] },
  functions: [
    { name: "correlate", cell: "correlate", cases: CASES.correlate },
    { name: "unwrap", cell: "unwrap", cases: CASES.unwrap },
  ],
  // The lab's saved files record the demo, not the graded functions: nothing to compare.
  claims: () => ({}),
};
