// Lab 02: correlate, unwrap and eraOf (the decision of the stdio probe); the
// client the learner builds, layer by layer (each class graded by the client
// driver on scenarios); and the six named tests (each graded by the test
// driver against correct and faulty clients).

import { CASES } from "../../../cases/lab_02.ts";
import { CLIENT_CASES, TEST_CASES } from "../../../cases/lab_02_client.ts";
import type { GradedFunction, UnitSpec } from "../spec.ts";

/** The cells the client's layers are written in, by class name. */
const LAYER_CELLS = {
  ServerLink: "server-link",
  RpcLink: "rpc-link",
  HandshakeClient: "handshake",
  ListingClient: "tool-list",
  McpClient: "call-tool",
};

const layers: GradedFunction[] = Object.keys(CLIENT_CASES).map((name) => ({
  name,
  cell: LAYER_CELLS[name as keyof typeof LAYER_CELLS],
  cases: CASES[name as keyof typeof CLIENT_CASES],
  driver: "tools/grading/drivers/lab_02_client.ts",
}));

const tests: GradedFunction[] = Object.keys(TEST_CASES).map((name) => ({
  name,
  cell: "named-tests",
  cases: CASES[name as keyof typeof TEST_CASES],
  driver: "tools/grading/drivers/lab_02_tests.ts",
  withReference: true,
}));

/** Lab 02's graded functions, classes and tests. */
export const LAB_02: UnitSpec = {
  unit: "lab-02",
  imports: {
    "mcp/shared/errors.ts": ["ProtocolError", "TimeoutError", "ToolError"],
    "grading/not_implemented.ts": ["NotImplementedError"],
    "mcp/shared/framing.ts": ["readFrames"],
    "mcp/shared/jsonrpc.ts": ["isObject", "parseMessage"],
    "mcp/shared/schema.ts": ["schemaProblems"],
    "node:assert": ["strict as assert"],
  },
  reference: "solutions/lab-02.ipynb",
  functions: [
    {
      name: "correlate",
      cell: "correlate",
      cases: CASES.correlate,
      library: [{ file: "lib/mcp/client/answer.ts", name: "answerFor" }],
    },
    { name: "unwrap", cell: "unwrap", cases: CASES.unwrap },
    {
      name: "eraOf",
      cell: "era-of",
      cases: CASES.eraOf,
      // The library's client decides the same way, in a shape of its own (probeOutcome).
      libraryModules: ["lib/mcp/client/negotiation.ts"],
    },
    ...layers,
    ...tests,
  ],
  // The lab's saved files record the demo, not the graded code: nothing to compare.
  claims: () => ({}),
};
