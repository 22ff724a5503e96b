/**
 * Lab 03's recording (`lib/course/recorded.ts`): what the library's mask did
 * to the stand-in model's calls, and the masks it gave at a few prefixes of
 * one call of each tool, as counts and hashes. The instructors' build
 * computes it with the library's mask, which the learners' release holds no
 * runnable form of.
 *
 * @module
 */

import {
  compileJsonSchema,
  generateArguments,
  generateUnmasked,
  GrammarMatcher,
  inSchemaOrder,
  MaxTokensError,
  o200kVocabulary,
  type Vocabulary,
} from "../../lib/mask/mod.ts";
import { GRAMMAR_TOOLS } from "../../lib/course/grammar_tools.ts";
import { sha256Hex } from "../../lib/course/manifest.ts";
import {
  type RecordedCut,
  type RecordedLab03,
  recordedLab03,
  type StandInRow,
} from "../../lib/course/recorded.ts";
import { standInModel } from "../../lib/course/stand_in.ts";
import { walk } from "./contents.ts";

/**
 * Sample each of the four tools' arguments `samples` times from the
 * stand-in model (temperature 1, seeded), unmasked and masked, and count
 * the calls ajv refuses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const rows = measureStandIn({ samples: 3 });
 * assert.equal(rows.length, 4);
 * assert.ok(rows.every((row) => row.maskedInvalid === 0));
 * ```
 */
export function measureStandIn(
  options: { samples?: number; seed?: number; maxTokens?: number } = {},
): StandInRow[] {
  const samples = options.samples ?? 20;
  const maxTokens = options.maxTokens ?? 48;
  const vocabulary = o200kVocabulary();
  const model = standInModel().model;
  return GRAMMAR_TOOLS.map((tool, toolIndex) => {
    const compiled = compileJsonSchema(tool.inputSchema, vocabulary);
    const row: StandInRow = {
      tool: tool.name,
      samples,
      unmaskedInvalid: 0,
      maskedInvalid: 0,
      maskedUnfinished: 0,
    };
    for (let index = 0; index < samples; index++) {
      const seed = (options.seed ?? 1) * 7919 + toolIndex * 1000 + index;
      const free = generateUnmasked(tool, model, { vocabulary, temperature: 1, seed, maxTokens });
      if (free.problems.length > 0) {
        row.unmaskedInvalid++;
        row.example ??= free.text;
      }
      try {
        const masked = generateArguments(tool, model, {
          compiled,
          temperature: 1,
          seed,
          maxTokens,
        });
        if (masked.problems.length > 0) row.maskedInvalid++;
        // the mask writes properties in the schema's order
        if (JSON.stringify(inSchemaOrder(masked.arguments, tool.inputSchema)) !== masked.text) {
          row.maskedInvalid++;
        }
      } catch (error) {
        if (!(error instanceof MaxTokensError)) throw error;
        row.maskedUnfinished++;
      }
    }
    return row;
  });
}

/** One call of each tool, whose prefixes Lab 03's timing step masks. */
const WRITTEN: Record<string, string> = {
  conjugate: '{"verb":"eat","tense":"past_simple","person":"3sg"}',
  lookup_spanish: '{"english_form":"ate"}',
  lookup_irregular_verb: '{"verb":"go"}',
  check_subject_verb_agreement: '{"subject":"he","verb_form":"goes"}',
};

/**
 * Whether each token of `vocabulary` is whole UTF-8 characters, as Lab 03's
 * vocabulary step reads it: the stop token, and a token that is empty, a
 * piece of a character or a NUL, are not.
 */
function wholeTokens(vocabulary: Vocabulary): boolean[] {
  const whole = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  return Array.from({ length: vocabulary.size }, (_, id) => {
    const bytes = vocabulary.tokenBytes(id);
    if (id === vocabulary.stopToken || bytes === undefined || bytes.length === 0) return false;
    try {
      return whole.decode(bytes) !== "\0";
    } catch {
      return false;
    }
  });
}

/**
 * The library's mask for each tool at four prefixes of its call in
 * {@linkcode WRITTEN} (none, 2 characters, 9, all but the last 3): how many
 * whole tokens it allows, the hash of their ids, and the milliseconds a
 * mask took on average here.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const masks = await measureMasks();
 * assert.deepEqual(masks.conjugate.cuts.map((cut) => cut.prefix), ["", '{"', '{"verb":"', '{"verb":"eat","tense":"past_simple","person":"3s']);
 * assert.equal(masks.conjugate.cuts[0].allowed, 2);
 * ```
 */
export async function measureMasks(): Promise<RecordedLab03["masks"]> {
  const vocabulary = o200kVocabulary();
  const whole = wholeTokens(vocabulary);
  const masks: RecordedLab03["masks"] = {};
  for (const tool of GRAMMAR_TOOLS) {
    const compiled = compileJsonSchema(tool.inputSchema, vocabulary);
    const text = WRITTEN[tool.name];
    const cuts: RecordedCut[] = [];
    let ms = 0;
    for (const cut of [0, 2, 9, text.length - 3]) {
      const prefix = text.slice(0, cut);
      const matcher = new GrammarMatcher(compiled);
      for (const id of vocabulary.encode(prefix)) matcher.acceptToken(id);
      const bitmask = new Uint32Array(Math.ceil(vocabulary.size / 32));
      const began = performance.now();
      matcher.fillNextTokenBitmask(bitmask);
      ms += performance.now() - began;
      const allowed = whole.flatMap((is, id) =>
        is && bitmask[id >>> 5] & (1 << (id & 31)) ? [id] : []
      );
      const sha256 = await sha256Hex(new TextEncoder().encode(JSON.stringify(allowed)));
      cuts.push({ prefix, allowed: allowed.length, sha256 });
    }
    masks[tool.name] = { ms: Number((ms / cuts.length).toFixed(3)), cuts };
  }
  return masks;
}

/** What the recording is made from, besides `lib/mask/` and `lib/formats/`. */
const SOURCES = [
  "lib/course/grammar_tools.ts",
  "lib/course/stand_in.ts",
  "lib/course/recorded.ts",
  "tools/release/record_lab_03.ts",
];

/**
 * The files under `root` the recording is made from, sorted: `lib/mask/` and
 * `lib/formats/` (tests and seals left out), the stand-in model, the tools'
 * schemas, the recording's shape, and this recorder.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const files = await recordingFiles(new URL("../../", import.meta.url));
 * assert.ok(files.includes("lib/mask/object_grammar.ts"));
 * assert.ok(!files.some((file) => file.endsWith(".sealed.js") || file.endsWith("_test.ts")));
 * ```
 */
export async function recordingFiles(root: URL): Promise<string[]> {
  return [...await walk(root, "lib/mask"), ...await walk(root, "lib/formats"), ...SOURCES]
    .filter((file) => !file.endsWith("_test.ts") && !file.endsWith(".sealed.js")).sort();
}

/**
 * The SHA-256, in hex, of the code the recording under `root` is made from
 * ({@linkcode recordingFiles}): each file's path and text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.match(await recordingSource(new URL("../../", import.meta.url)), /^[0-9a-f]{64}$/);
 * ```
 */
export async function recordingSource(root: URL): Promise<string> {
  const texts = [];
  for (const file of await recordingFiles(root)) {
    texts.push(file, await Deno.readTextFile(new URL(file, root)));
  }
  return await sha256Hex(new TextEncoder().encode(texts.join("\0")));
}

/**
 * Lab 03's recording: the hash of its sources under `root`, 10 calls of each
 * tool by the stand-in model ({@linkcode measureStandIn}), and the masks of
 * {@linkcode measureMasks}. Not run as a test here: `tests/recorded_test.ts`
 * compares it with the committed recording.
 *
 * @example
 * ```ts ignore
 * const recorded = await recordLab03(new URL("../../", import.meta.url));
 * console.log(recorded.standIn.map((row) => `${row.tool}: ${row.unmaskedInvalid} of 10`));
 * ```
 */
export async function recordLab03(root: URL): Promise<RecordedLab03> {
  return {
    source: await recordingSource(root),
    standIn: measureStandIn({ samples: 10 }),
    masks: await measureMasks(),
  };
}

/** Where the recording is, under the repository's root. */
export const RECORDING = "lib/course/recorded/lab_03.json";

/**
 * Why the recording under `root` cannot be shipped: it was made from code
 * that has changed since (or it is missing or malformed, a `RecordingError`);
 * undefined when it is fresh.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(await staleRecording(new URL("../../", import.meta.url)), undefined);
 * ```
 */
export async function staleRecording(root: URL): Promise<string | undefined> {
  const { source } = await recordedLab03(new URL(RECORDING, root));
  if (source === await recordingSource(root)) return undefined;
  return `${RECORDING} is stale (the mask or its recorder changed): run \`deno task record\``;
}
