/**
 * What the library's token mask did in Lab 03, as the instructors' build
 * recorded it (`deno task record`, in `recorded/lab_03.json` beside this
 * file): the learners' release holds no runnable form of the mask's objects
 * and strings' characters (`lib/mask/object_grammar.ts`, `json_chars.ts`
 * are withheld), so its two steps that showed the library's mask at work
 * show this: counts and hashes, and one call per tool the stand-in wrote with
 * no mask that fails its schema; no token list, and nothing the mask wrote.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { GRAMMAR_TOOLS } from "./grammar_tools.ts";

/** What sampling one tool's arguments did, with and without the mask. */
export interface StandInRow {
  tool: string;
  samples: number;
  /** Unmasked calls that fail the schema (ajv), or are not JSON, or never stop. */
  unmaskedInvalid: number;
  /** Masked calls that fail the schema: always 0, or the mask is wrong. */
  maskedInvalid: number;
  /** Masked calls still unfinished after the token budget (valid so far, never wrong). */
  maskedUnfinished: number;
  /** One failing unmasked call, to show. */
  example?: string;
}

/** The library's mask after one prefix of a call: how many whole tokens it allows, and their hash. */
export interface RecordedCut {
  prefix: string;
  /** How many tokens, each whole UTF-8 characters, the mask allows next. */
  allowed: number;
  /** SHA-256, in hex, of `JSON.stringify` of those tokens' ids, ascending. */
  sha256: string;
}

/** Lab 03's recording. */
export interface RecordedLab03 {
  /** SHA-256 of the code that made it: `deno task record --check` fails when it changed since. */
  source: string;
  /** The stand-in model's calls of each tool, 10 each, unmasked and under the library's mask. */
  standIn: StandInRow[];
  /** By tool: the library's mask at a few prefixes of one call, and its milliseconds per mask. */
  masks: Record<string, { ms: number; cuts: RecordedCut[] }>;
}

/** Where `deno task record` writes Lab 03's recording. */
export const RECORDED_LAB_03: URL = new URL("./recorded/lab_03.json", import.meta.url);

/** A recording that is missing or not of the shape {@linkcode RecordedLab03}. */
export class RecordingError extends Error {
  override name = "RecordingError";
}

/**
 * Lab 03's recording, read from `file` and checked for its shape.
 *
 * @throws {RecordingError} when the file is missing, not JSON, or not a recording.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const recorded = await recordedLab03();
 * assert.equal(recorded.standIn.length, 4);
 * assert.ok(recorded.standIn.every((row) => row.maskedInvalid === 0));
 * assert.match(recorded.masks.conjugate.cuts[0].sha256, /^[0-9a-f]{64}$/);
 * ```
 */
export async function recordedLab03(file: URL = RECORDED_LAB_03): Promise<RecordedLab03> {
  const refuse = (why: string) =>
    new RecordingError(
      `${fileURLToPath(file)}: ${why}; the instructors' \`deno task record\` writes it`,
    );
  let value: unknown;
  try {
    value = JSON.parse(await Deno.readTextFile(file));
  } catch (error) {
    throw refuse(
      error instanceof Deno.errors.NotFound ? "no such file" : `not JSON (${error})`,
    );
  }
  const problem = shapeProblem(value);
  if (problem !== undefined) throw refuse(problem);
  return value as RecordedLab03;
}

const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isHash = (value: unknown) => typeof value === "string" && /^[0-9a-f]{64}$/.test(value);

/** What makes `value` no recording of Lab 03, or undefined when it is one. */
function shapeProblem(value: unknown): string | undefined {
  if (!isRecord(value) || !isHash(value.source)) return "no source hash";
  if (!Array.isArray(value.standIn) || value.standIn.length === 0) return "no standIn rows";
  for (const row of value.standIn) {
    const counts = ["samples", "unmaskedInvalid", "maskedInvalid", "maskedUnfinished"];
    if (!isRecord(row) || typeof row.tool !== "string" || !counts.every((k) => isCount(row[k]))) {
      return `a standIn row is not a tool's counts: ${JSON.stringify(row)}`;
    }
    if (row.example !== undefined && typeof row.example !== "string") {
      return `${row.tool}'s example is not a string`;
    }
  }
  if (!isRecord(value.masks)) return "no masks";
  for (const { name } of GRAMMAR_TOOLS) {
    if (!value.standIn.some((row) => isRecord(row) && row.tool === name)) {
      return `no standIn row of ${name}`;
    }
    if (!Object.hasOwn(value.masks, name)) return `no masks of ${name}`;
  }
  for (const [tool, mask] of Object.entries(value.masks)) {
    if (!isRecord(mask) || typeof mask.ms !== "number" || !Array.isArray(mask.cuts)) {
      return `${tool}'s mask has no ms and cuts`;
    }
    for (const cut of mask.cuts) {
      if (
        !isRecord(cut) || typeof cut.prefix !== "string" || !isCount(cut.allowed) ||
        !isHash(cut.sha256)
      ) return `${tool}'s cut is not a prefix, a count and a hash: ${JSON.stringify(cut)}`;
    }
  }
  return undefined;
}
