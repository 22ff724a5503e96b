/**
 * The official conformance suite's verdict on the course's library, as
 * `deno task conformance` recorded it in the instructors' repository (in
 * `conformance_verdict.json` beside this file, which the learners' release
 * ships): for each specification version, how many server and client
 * scenarios passed. Lab 04's Block J shows it; a learner's release has no
 * suite to run.
 *
 * @module
 */

/** What the suite said at one specification version. */
export interface VersionVerdict {
  /** e.g. `32 of 32 passed`. */
  server: string;
  /** e.g. `18 of 18 passed`. */
  client: string;
}

/** The recorded verdict. */
export interface ConformanceVerdict {
  /** The suite and its version, e.g. `@modelcontextprotocol/conformance 0.1.16`. */
  suite: string;
  /** Each specification version judged, with its verdict. */
  versions: Record<string, VersionVerdict>;
}

/** Where `deno task conformance` records the verdict. */
export const VERDICT_FILE: URL = new URL("./conformance_verdict.json", import.meta.url);

/**
 * The verdict last recorded by `deno task conformance`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const { suite, versions } = await conformanceVerdict();
 * assert.match(suite, /^@modelcontextprotocol\/conformance /);
 * assert.match(versions["2025-11-25"].client, /^\d+ of \d+ passed$/);
 * ```
 */
export async function conformanceVerdict(): Promise<ConformanceVerdict> {
  return JSON.parse(await Deno.readTextFile(VERDICT_FILE));
}
