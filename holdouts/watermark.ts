/**
 * The seals' watermark: three secrets of one shape, and the probes the grader
 * sends each graded function that has sealed library copies. Each probe is
 * valid input of the function's contract, and a seal answers it as no code of
 * the learner's own can: `deno task seal` marks each sealed function so
 * (`tools/release/watermarked.ts`), and the grader reads the answers
 * (`tools/grading/watermark.ts`). Kept with the hidden cases: the learners'
 * release holds none of it.
 *
 * @module
 */

import type { WatermarkProbe } from "../tools/grading/watermark.ts";

/** In a probe's input, where a right answer carries it over to what it returns. */
export const PROBE = "c88206e08dea55041e4824ca21873056";
/** What a seal writes where a right answer writes the probe, and reads as the probe. */
export const TOKEN = "571a7119e2350588946ca1bef31437b5";
/** Of the token's shape, and nothing to a seal: what an answer to the token is set against. */
export const CONTROL = "1e8552e82f2ae7da4bfc65c4a9f88905";

const bytes = (text: string) => new TextEncoder().encode(text);

/** A server's reply to a tool call, whose text is the probe. */
const REPLY = {
  jsonrpc: "2.0",
  id: 7,
  result: { content: [{ type: "text", text: PROBE }], isError: false },
};
/** A log notification, cut after the probe: the rest a reader keeps for the next read. */
const PARTIAL =
  `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"${PROBE}`;
/** A catalogue of one tool, named by the probe. */
const CATALOG = {
  [PROBE]: { name: PROBE, description: "Looks a word up.", inputSchema: { type: "object" } },
};
const holds = { holds: TOKEN };
/**
 * The version the seal of the server's dispatcher answers one it does not
 * speak with: its newest (`tests/watermark_test.ts` holds the two to agree).
 */
const NEWEST = "2025-06-18";

/** One unit's probes, by graded function. */
type UnitProbes = Readonly<Record<string, readonly WatermarkProbe[]>>;

/** The probes, by unit, then by graded function. */
export const PROBES: ReadonlyMap<string, UnitProbes> = new Map<string, UnitProbes>([
  ["ch14-a", {
    answerFor: [{ args: [7, REPLY], seal: holds }],
    authorize: [
      { args: [TOKEN, CATALOG, new Set([PROBE])], seal: { returns: true } },
      { args: [CONTROL, CATALOG, new Set([PROBE])], seal: { returns: false } },
    ],
  }],
  ["ch14-b", {
    splitFrames: [{ args: [bytes(`${JSON.stringify(REPLY)}\n${PARTIAL}`), 65536], seal: holds }],
    transferProblems: [{
      args: [{
        type: "object",
        properties: { [PROBE]: { type: "string" }, tubs: { type: "integer" } },
        required: [PROBE, "tubs"],
      }, { tubs: 2 }],
      seal: holds,
    }],
  }],
  ["lab-01", {
    negotiateVersion: [
      { args: [TOKEN], seal: { returns: TOKEN } },
      { args: [CONTROL], seal: { returns: NEWEST } },
    ],
    handleMessage: [{
      args: [JSON.stringify({ jsonrpc: "2.0", id: PROBE, method: "ping" })],
      seal: holds,
    }],
  }],
  ["lab-02", { correlate: [{ args: [7, REPLY], seal: holds }] }],
  ["lab-04", {
    sseData: [{ args: [`event: message\ndata: ${JSON.stringify(REPLY)}\n\n`], seal: holds }],
  }],
]);
