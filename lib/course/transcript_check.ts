/**
 * A learner's transcript compared with the instructors' reference (Lab 02):
 * line by line, each message as JSON, so that neither whitespace nor the
 * order of keys in an object counts, and every difference is named by its
 * line and its place in the message.
 *
 * @module
 */

import { jsonDifferences } from "../grading/json_differences.ts";
import { roundTrips } from "./round_trips.ts";

/**
 * The reference transcript of Lab 02's canonical flow: the instructors'
 * client on the course's grammar server, of both eras, in 2026-07-28 (the
 * probe, then each request with its `_meta`). It sits with the visible cases
 * (`cases/`), so the learners' release holds it: the seed's learner compares
 * their transcript with it once their tests pass.
 */
export const REFERENCE_TRANSCRIPT: URL = new URL(
  "../../cases/lab_02_transcript.txt",
  import.meta.url,
);

/**
 * The same flow on a grammar server of the handshake era only: the probe
 * refused (-32601), then the handshake, as the original lab recorded it.
 */
export const LEGACY_REFERENCE_TRANSCRIPT: URL = new URL(
  "../../cases/lab_02_transcript_legacy.txt",
  import.meta.url,
);

/**
 * The reference to compare `transcript` with: the legacy one when its first
 * request, the probe, got no result (the server was of the handshake era),
 * otherwise today's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const probe = '> {"jsonrpc":"2.0","id":0,"method":"server/discover","params":{}}\n';
 * const discovered = '< {"jsonrpc":"2.0","id":0,"result":{"supportedVersions":["2026-07-28"]}}\n';
 * assert.equal(referenceTranscriptFor(`${probe}${discovered}`), REFERENCE_TRANSCRIPT);
 * const refused = '< {"jsonrpc":"2.0","id":0,"error":{"code":-32601,"message":"Method not found"}}\n';
 * assert.equal(referenceTranscriptFor(`${probe}${refused}`), LEGACY_REFERENCE_TRANSCRIPT);
 * ```
 */
export function referenceTranscriptFor(transcript: string): URL {
  const [probe] = roundTrips(transcript);
  const legacy = probe?.method === "server/discover" && probe.reply !== "result";
  return legacy ? LEGACY_REFERENCE_TRANSCRIPT : REFERENCE_TRANSCRIPT;
}

/**
 * Only the lines of `transcript` that the client sent (`>`): the part a
 * client decides, whichever server answered. A cancellation is left out:
 * only a server that stays silent calls for one, and its reason is the
 * client's own words.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(sentLines('> {"id":0}\n< {"id":0}\n> {"method":"x"}\n'), '> {"id":0}\n> {"method":"x"}\n');
 * assert.equal(sentLines('> {"id":0}\n> {"method":"notifications/cancelled","params":{"requestId":0}}\n'), '> {"id":0}\n');
 * ```
 */
export function sentLines(transcript: string): string {
  return transcript.split("\n")
    .filter((line) => line.startsWith(">") && !CANCELLATION.test(line))
    .map((line) => `${line}\n`).join("");
}

/** A line that sends `notifications/cancelled`. */
const CANCELLATION = /"method"\s*:\s*"notifications\/cancelled"/;

/**
 * Where transcript `mine` differs from `reference`, one sentence each; `[]`
 * when they are the same. Blank lines and the white space around and inside
 * the JSON are ignored; a line that is not JSON is compared with its white
 * space removed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const reference = '> {"jsonrpc":"2.0","id":0,"method":"ping","params":{}}\n';
 * assert.deepEqual(transcriptDifferences('>  { "id": 0, "jsonrpc": "2.0", "method": "ping", "params": {} }\n\n', reference), []);
 * assert.deepEqual(transcriptDifferences('> {"jsonrpc":"2.0","id":1,"method":"ping","params":{}}', reference), [
 *   "line 1 (> ping): id: expected 0, observed 1",
 * ]);
 * assert.deepEqual(transcriptDifferences("", reference), [
 *   'line 1: the reference has > {"jsonrpc":"2.0","id":0,"method":"ping","params":{}}, yours has nothing',
 * ]);
 * ```
 */
export function transcriptDifferences(mine: string, reference: string): string[] {
  const lines = (text: string) =>
    text.split("\n").map((line) => line.trim()).filter((line) => line !== "");
  const ours = lines(mine);
  const theirs = lines(reference);
  const found: string[] = [];
  for (let i = 0; i < Math.max(ours.length, theirs.length); i++) {
    const [line, expected] = [ours[i], theirs[i]];
    if (line === undefined || expected === undefined) {
      found.push(
        `line ${i + 1}: the reference has ${expected ?? "nothing"}, yours has ${line ?? "nothing"}`,
      );
      continue;
    }
    const [ourMessage, theirMessage] = [json(line.slice(1)), json(expected.slice(1))];
    const where = `line ${i + 1} (${expected[0]} ${label(theirMessage)})`;
    if (line[0] !== expected[0]) {
      found.push(`${where}: the reference's goes ${arrow(expected[0])}, yours ${arrow(line[0])}`);
    } else if (ourMessage === undefined || theirMessage === undefined) {
      const squeeze = (text: string) => text.replace(/\s+/g, "");
      if (squeeze(line) !== squeeze(expected)) {
        found.push(`${where}: expected ${expected}, observed ${line}`);
      }
    } else {
      const shown = jsonDifferences(theirMessage, ourMessage, { limit: SHOWN_PER_LINE });
      for (const difference of shown) found.push(`${where}: ${difference}`);
    }
  }
  return found;
}

/**
 * The most differences said of one line: a learner's line with a million
 * keys the reference lacks cost the grader's loop seconds to list them all,
 * then threw `RangeError` (each was an argument of one call).
 */
const SHOWN_PER_LINE = 5;

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What a message is, for a line's label: its method, or "reply" and its id. */
function label(message: unknown): string {
  const { method, id } = (message ?? {}) as { method?: unknown; id?: unknown };
  return typeof method === "string" ? method : `reply ${JSON.stringify(id) ?? "?"}`;
}

function arrow(mark: string): string {
  return mark === ">"
    ? "from client to server"
    : mark === "<"
    ? "from server to client"
    : `with ${JSON.stringify(mark)}`;
}
