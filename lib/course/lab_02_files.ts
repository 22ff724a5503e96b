/**
 * What Lab 02's saved files must hold, checked as the autograder checks them:
 * `transcript.txt` the canonical flow, every line a JSON-RPC message, each
 * request answered, the client's own lines the reference's; `results.json`
 * valid and in agreement with the transcript it names. Each check passes or
 * fails with sentences that say what is wrong; nothing here trusts what the
 * files claim about themselves.
 *
 * @module
 */

import { evidenceProblems } from "./evidence.ts";
import { roundTrips } from "./round_trips.ts";
import { sentLines, transcriptDifferences } from "./transcript_check.ts";
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

/** The exchanges of the canonical flow, in order. */
const CANONICAL = [
  "initialize -> result",
  "notifications/initialized",
  "tools/list -> result",
  "tools/call -> result",
  "tools/call -> result",
  "tools/call -> result",
  "tools/call -> result",
];

/**
 * Check `files` against `reference`, the reference transcript: the
 * transcript's flow and its lines sent (whichever server answered: a
 * learner's own Lab 01 server words its replies its own way), and
 * `results.json` against its schema and against the transcript.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { REFERENCE_TRANSCRIPT } from "./transcript_check.ts";
 *
 * const reference = await Deno.readTextFile(REFERENCE_TRANSCRIPT);
 * const results = JSON.stringify({ tools_discovered: 4, calls_made: 4, calls_failed: 0, transcript_path: "transcript.txt" });
 * const checks = await lab02FileChecks({ transcript: reference, results }, reference);
 * assert.ok(checks.every((check) => check.passed));
 * const claims = JSON.stringify({ tools_discovered: 5, calls_made: 4, calls_failed: 0, transcript_path: "transcript.txt" });
 * const [, wrong] = await lab02FileChecks({ transcript: reference, results: claims }, reference);
 * assert.deepEqual(wrong.problems, ["results.json says tools_discovered 5; the transcript's tools/list answered 4"]);
 * ```
 */
export async function lab02FileChecks(files: Lab02Files, reference: string): Promise<FileCheck[]> {
  const transcript = transcriptProblems(files.transcript, reference);
  const results = await resultsProblems(files.results, files.transcript);
  return [
    { name: "transcript", passed: transcript.length === 0, problems: transcript },
    { name: "results", passed: results.length === 0, problems: results },
  ];
}

function transcriptProblems(text: string | undefined, reference: string): string[] {
  if (text === undefined) return ["there is no transcript.txt"];
  let flow: string[];
  try {
    flow = roundTrips(text).map(({ method, id, reply }) =>
      id === undefined ? method : `${method} -> ${reply ?? "no reply"}`
    );
  } catch (error) {
    return [`transcript.txt cannot be read: ${(error as Error).message}`];
  }
  if (JSON.stringify(flow) !== JSON.stringify(CANONICAL)) {
    return [
      `transcript.txt is not the canonical flow: it holds ${flow.join(", ") || "nothing"}`,
    ];
  }
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
  const invalid = await evidenceProblems("lab-02-results", results);
  if (invalid.length > 0) return invalid.map((problem) => `results.json: ${problem}`);
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
