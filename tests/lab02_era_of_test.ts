// Lab 02's eraOf, the decision of the stdio probe, proved against the
// library's own (`probeOutcome`, lib/mcp/client/negotiation.ts), which speaks
// with real servers of both eras in the interop tests: on answers generated
// from a fixed seed (DiscoverResults and UnsupportedProtocolVersionErrors
// naming versions in any order, results of other shapes, other errors,
// silence) and clients of today's version and any handshakes, the worked
// eraOf and the library must choose the same era and version, and refuse the
// same servers. Codes -32020 and -32021 are left out: the library refuses a
// probe answered with them, and the lab, whose client meets them on no stdio
// server, takes them for a legacy server's.

import assert from "node:assert/strict";
import fc from "fast-check";
import { probeOutcome } from "../lib/mcp/client/negotiation.ts";
import { ProtocolError, TimeoutError } from "../lib/mcp/shared/errors.ts";
import { LEGACY_VERSIONS, MCP_VERSIONS, type McpVersion } from "../lib/mcp/shared/versions.ts";
import { referenceModule } from "../tools/grading/scratch.ts";
import { UNITS } from "../tools/grading/units/mod.ts";

const SEED = 20260728;

const source = await referenceModule(UNITS.get("lab-02")!, new URL("../", import.meta.url));
const { eraOf } = (await import(`data:application/typescript,${encodeURIComponent(source!)}`))
  .graded as { eraOf: (answer: unknown, versions: readonly string[]) => unknown };

type Answer = { result: unknown } | { error: { code: number; message: string; data?: unknown } } | {
  silence: true;
};

/** What the library's client has in hand when the probe ends, for `answer`. */
function libraryAnswer(answer: Answer): unknown {
  if ("silence" in answer) return new TimeoutError("no answer in time");
  if ("error" in answer) {
    const { code, message, data } = answer.error;
    return new ProtocolError(message, { code, data });
  }
  return answer.result;
}

/** The library's decision, as eraOf states it. */
function libraryDecision(answer: Answer, versions: McpVersion[]): unknown {
  const outcome = probeOutcome(libraryAnswer(answer), versions[0], versions);
  if (outcome.era === "none") return "refused";
  if (outcome.era === "modern") return { era: "modern", version: outcome.version };
  const version = outcome.version ?? versions.find((mine) => LEGACY_VERSIONS.includes(mine));
  return version === undefined ? "refused" : { era: "legacy", version };
}

/** The lab's decision. */
function labDecision(answer: Answer, versions: McpVersion[]): unknown {
  try {
    return eraOf(structuredClone(answer), versions);
  } catch (error) {
    if (error instanceof ProtocolError) return "refused";
    throw error;
  }
}

// Versions a server may name: the library's, and some no client speaks.
const named = fc.array(fc.constantFrom<unknown>(...MCP_VERSIONS, "2027-01-01", "1900-01-01", 42), {
  maxLength: 6,
});
const answers: fc.Arbitrary<Answer> = fc.oneof(
  named.map((supportedVersions) => ({
    result: { supportedVersions, capabilities: { tools: {} } },
  })),
  fc.record({
    result: fc.constantFrom<unknown>({}, { ok: true }, {
      supportedVersions: "2026-07-28",
      capabilities: {},
    }, { supportedVersions: ["2026-07-28"] }),
  }),
  named.map((supported) => ({
    error: {
      code: -32022,
      message: "Unsupported protocol version",
      data: { supported, requested: "2026-07-28" },
    },
  })),
  fc.record({
    error: fc.record({
      code: fc.constantFrom(-32601, -32602, -32600, -32603, -32000, -32002, -32700, -32022),
      message: fc.constant("refused"),
    }),
  }),
  fc.constant({ silence: true as const }),
);
// Clients of today's version, newest first, with any handshakes after it.
const clients = fc.subarray([...LEGACY_VERSIONS]).map((legacy) =>
  ["2026-07-28", ...legacy] as McpVersion[]
);

Deno.test("eraOf chooses as the library's client does, on 2,000 probes' answers", () => {
  fc.assert(
    fc.property(answers, clients, (answer, versions) => {
      assert.deepEqual(labDecision(answer, versions), libraryDecision(answer, versions));
    }),
    { seed: SEED, numRuns: 2000 },
  );
});
