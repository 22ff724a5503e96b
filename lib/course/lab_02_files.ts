/**
 * What Lab 02's saved files must hold, checked as the autograder checks them:
 * `transcript.txt` the canonical flow of one era, every line a JSON-RPC
 * message, each request answered, the client's own lines those of the
 * reference of that era; `results.json` valid and in agreement with the
 * transcript it names. Each check passes or fails with sentences that say
 * what is wrong; nothing here trusts what the files claim about themselves.
 *
 * @module
 */

import { firstEvidenceProblem } from "./evidence.ts";
import { roundTrips } from "./round_trips.ts";
import {
  LEGACY_REFERENCE_TRANSCRIPT,
  REFERENCE_TRANSCRIPT,
  sentLines,
  transcriptDifferences,
} from "./transcript_check.ts";
import { isObject } from "../mcp/shared/jsonrpc.ts";

/** Lab 02's saved files, as text; `undefined` for one that is not there. */
export interface Lab02Files {
  transcript?: string;
  results?: string;
}

/** One check of the files. */
export interface FileCheck {
  name: "transcript" | "results";
  passed: boolean;
  /** What is wrong, in sentences; `[]` when it passed. */
  problems: string[];
}

/** The reference transcripts, as text: today's protocol's, and the handshake era's. */
export interface References {
  modern: string;
  legacy: string;
}

/** After the era is agreed, the same requests whichever it is: the tools, and four calls. */
const AFTER_THE_PROBE = [
  "tools/list -> result",
  ...Array.from({ length: 4 }, () => "tools/call -> result"),
];

/**
 * The canonical flow in each way the probe can go, by name, each exchange
 * as `method -> reply`: the probe answered (2026-07-28, no handshake), or
 * refused or unanswered (the handshake era).
 */
export const CANONICAL_FLOWS: Readonly<Record<string, readonly string[]>> = {
  "2026-07-28": ["server/discover -> result", ...AFTER_THE_PROBE],
  "the handshake, after the probe was refused": [
    "server/discover -> error",
    "initialize -> result",
    "notifications/initialized",
    ...AFTER_THE_PROBE,
  ],
  "the handshake, after the probe went unanswered": [
    "server/discover -> no reply",
    "notifications/cancelled",
    "initialize -> result",
    "notifications/initialized",
    ...AFTER_THE_PROBE,
  ],
};

/**
 * Each exchange of `transcript` as `method -> reply` (or the method alone, for
 * a notification). Throws `SyntaxError` for a transcript that cannot be read
 * (see `roundTrips`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const text = '> {"jsonrpc":"2.0","id":0,"method":"server/discover","params":{}}\n';
 * assert.deepEqual(exchangesOf(text), ["server/discover -> no reply"]);
 * ```
 */
export function exchangesOf(transcript: string): string[] {
  return roundTrips(transcript).map(({ method, id, reply }) =>
    id === undefined ? method : `${method} -> ${reply ?? "no reply"}`
  );
}

/**
 * The name of the canonical flow `transcript` holds (a key of
 * {@linkcode CANONICAL_FLOWS}), or `undefined` when it holds none. Throws
 * `SyntaxError` for a transcript that cannot be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { REFERENCE_TRANSCRIPT } from "./transcript_check.ts";
 *
 * assert.equal(canonicalFlowOf(await Deno.readTextFile(REFERENCE_TRANSCRIPT)), "2026-07-28");
 * assert.equal(canonicalFlowOf(""), undefined);
 * ```
 */
export function canonicalFlowOf(transcript: string): string | undefined {
  const exchanges = JSON.stringify(exchangesOf(transcript));
  return Object.keys(CANONICAL_FLOWS).find((name) =>
    JSON.stringify(CANONICAL_FLOWS[name]) === exchanges
  );
}

/**
 * The two reference transcripts, read from the course's files.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const { modern, legacy } = await readReferences();
 * assert.equal(canonicalFlowOf(legacy), "the handshake, after the probe was refused");
 * assert.equal(canonicalFlowOf(modern), "2026-07-28");
 * ```
 */
export async function readReferences(): Promise<References> {
  return {
    modern: await Deno.readTextFile(REFERENCE_TRANSCRIPT),
    legacy: await Deno.readTextFile(LEGACY_REFERENCE_TRANSCRIPT),
  };
}

/**
 * Check `files` against `references`: the transcript's flow, and its lines
 * sent against those of the reference of its era (whichever server
 * answered: a learner's own Lab 01 server words its replies its own way),
 * and `results.json` against its schema and against the transcript.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const references = await readReferences();
 * const results = JSON.stringify({ tools_discovered: 4, calls_made: 4, calls_failed: 0, transcript_path: "transcript.txt" });
 * const checks = await lab02FileChecks({ transcript: references.modern, results }, references);
 * assert.ok(checks.every((check) => check.passed));
 * const legacy = await lab02FileChecks({ transcript: references.legacy, results }, references);
 * assert.ok(legacy.every((check) => check.passed));
 * const claims = JSON.stringify({ tools_discovered: 5, calls_made: 4, calls_failed: 0, transcript_path: "transcript.txt" });
 * const [, wrong] = await lab02FileChecks({ transcript: references.modern, results: claims }, references);
 * assert.deepEqual(wrong.problems, ["results.json says tools_discovered 5; the transcript's tools/list answered 4"]);
 * ```
 */
export async function lab02FileChecks(
  files: Lab02Files,
  references: References,
): Promise<FileCheck[]> {
  const transcript = transcriptProblems(files.transcript, references);
  const results = await resultsProblems(files.results, files.transcript);
  return [
    { name: "transcript", passed: transcript.length === 0, problems: transcript },
    { name: "results", passed: results.length === 0, problems: results },
  ];
}

/** The most exchanges a problem with a transcript lists (the canonical flows have at most 10). */
const SHOWN_EXCHANGES = 16;

function transcriptProblems(text: string | undefined, references: References): string[] {
  if (text === undefined) return ["there is no transcript.txt"];
  let flow: string | undefined;
  try {
    flow = canonicalFlowOf(text);
  } catch (error) {
    return [`transcript.txt cannot be read: ${(error as Error).message}`];
  }
  if (flow === undefined) {
    // A learner's file: what the problem shows of it is bounded, however long it is.
    const exchanges = exchangesOf(text);
    const shown = exchanges.slice(0, SHOWN_EXCHANGES)
      .map((exchange) => exchange.length > 100 ? `${exchange.slice(0, 100)}…` : exchange);
    const more = exchanges.length - shown.length;
    return [
      `transcript.txt is not the canonical flow: it holds ${
        [...shown, ...more > 0 ? [`${more} more`] : []].join(", ") || "nothing"
      }`,
    ];
  }
  const reference = flow === "2026-07-28" ? references.modern : references.legacy;
  return transcriptDifferences(sentLines(text), sentLines(reference))
    .slice(0, 5)
    .map((difference) => `a line the client sent differs from the reference's: ${difference}`);
}

async function resultsProblems(text: string | undefined, transcript?: string): Promise<string[]> {
  if (text === undefined) return ["there is no results.json"];
  let results: unknown;
  try {
    results = JSON.parse(text);
  } catch {
    return ["results.json is not JSON"];
  }
  // A learner's file: its first problem, in time linear in its size whatever it holds.
  const invalid = await firstEvidenceProblem("lab-02-results", results);
  if (invalid !== undefined) return [`results.json: ${invalid}`];
  const claimed = results as Record<string, unknown>;
  if (claimed.transcript_path !== "transcript.txt") {
    return [`results.json names ${JSON.stringify(claimed.transcript_path)}, not transcript.txt`];
  }
  const counted = transcript === undefined ? undefined : counts(transcript);
  if (counted === undefined) return ["results.json names a transcript that cannot be read"];
  return (["tools_discovered", "calls_made", "calls_failed"] as const).flatMap((key) =>
    claimed[key] === counted[key]
      ? []
      : [`results.json says ${key} ${claimed[key]}; the transcript's ${WHAT[key]} ${counted[key]}`]
  );
}

const WHAT = {
  tools_discovered: "tools/list answered",
  calls_made: "tools/call requests number",
  calls_failed: "failed calls number",
};

/** What the transcript shows: the tools listed, the calls made and the calls that failed. */
function counts(transcript: string) {
  const messages = transcript.split("\n").filter((line) => line !== "").map((line) => {
    try {
      return { direction: line[0], message: JSON.parse(line.slice(2)) };
    } catch {
      return undefined;
    }
  });
  if (messages.some((line) => line === undefined)) return undefined;
  const sent = messages.filter((line) => line!.direction === ">").map((line) => line!.message);
  const replies = new Map(
    messages.filter((line) => line!.direction === "<").map((
      line,
    ) => [line!.message.id, line!.message]),
  );
  const list = sent.find((message) => message.method === "tools/list");
  const listed = replies.get(list?.id)?.result?.tools;
  const calls = sent.filter((message) => message.method === "tools/call" && "id" in message);
  const failed = calls.filter((call) => {
    const reply = replies.get(call.id);
    return reply === undefined || "error" in reply ||
      (isObject(reply.result) && reply.result.isError === true);
  });
  return {
    tools_discovered: Array.isArray(listed) ? listed.length : 0,
    calls_made: calls.length,
    calls_failed: failed.length,
  };
}
