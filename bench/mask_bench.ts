// Row 10: the token mask (lib/mask/) against XGrammar's WebAssembly build and
// llguidance, in one run, on the same JSONSchemaBench schemas, the same
// vocabulary (o200k_base as gpt-tokenizer has it) and the same tokens:
// schemas compiled, valid instances accepted, invalid ones refused, random
// generations under each mask checked by ajv, and the time to fill one mask.
// Compact JSON, properties in the schema's order; XGrammar in strict mode.

import {
  compileJsonSchema,
  GrammarMatcher,
  o200kVocabulary,
  schemaProblems,
  type Vocabulary,
} from "../lib/mask/mod.ts";
import { type BenchSchema, DATA_PLACES, findData, loadSchemas } from "./mask_data.ts";
import { loadXGrammar } from "./mask_xgrammar.ts";
import { cpuMs, median } from "./_measure.ts";
import { runLlguidance } from "./mask_llguidance.ts";
import { closingScores, sample } from "./mask_sampling.ts";
import { seeded } from "../lib/mask/generate.ts";

/** What one engine did on the schemas. */
export interface EngineResult {
  engine: string;
  version: string;
  /** Why it was not run, when it was not. */
  skipped?: string;
  compiled: number;
  validAccepted: number;
  validTotal: number;
  /** The schemas of valid instances it refused. */
  validRefused: string[];
  invalidRefused: number;
  invalidTotal: number;
  /** The schemas of invalid instances it let complete. */
  invalidLetThrough: string[];
  generations: number;
  /** The schemas of generations ajv refuses. */
  generationsFailing: string[];
  /** Generations still unfinished after the token budget (neither valid nor invalid). */
  generationsUnfinished: number;
  /** Every mask fill, in microseconds (dropped from the results once summed up in `fill`). */
  fillUs?: number[];
  /** The time to fill one mask, in microseconds: median and 95th percentile over every fill. */
  fill?: { count: number; medianUs: number; p95Us: number };
  /** Each compiled schema's compile time, CPU milliseconds (dropped once summed up in `compile`). */
  compileMs?: number[];
  /** The CPU time to compile one schema, in milliseconds: median and 95th percentile. */
  compile?: { medianMs: number; p95Ms: number };
}

/** Row 10's results. */
export interface MaskResult {
  /** Why the row was skipped (no data). */
  skipped?: string;
  schemas: number;
  disagreements: number;
  engines: EngineResult[];
}

/** Random generations per schema, and their token budget. */
export const GENERATIONS = 2;
export const MAX_TOKENS = 256;

/** Run row 10 on the first `schemas` schemas (a smoke run takes a few). */
export async function measureMask(
  options: { schemas: number; data?: string },
): Promise<MaskResult> {
  const folder = findData(options.data);
  if (folder === undefined) {
    const where = options.data ?? Deno.env.get("JSONSCHEMABENCH") ?? DATA_PLACES.join(" or ");
    return {
      skipped: `no JSONSchemaBench data at ${where} (BENCHMARKS.md, row 10, says how to get it)`,
      schemas: 0,
      disagreements: 0,
      engines: [],
    };
  }
  const vocabulary = o200kVocabulary();
  const schemas = loadSchemas(folder, options.schemas, vocabulary);
  const scores = closingScores(vocabulary);
  const engines = [
    await runOurs(schemas, vocabulary, scores),
    await runXGrammar(schemas, vocabulary, scores),
    await runLlguidance(schemas, vocabulary, scores),
  ].map(summed);
  return {
    schemas: schemas.length,
    disagreements: schemas.reduce((sum, s) => sum + s.disagreements, 0),
    engines,
  };
}

/** The result with its fill times summed up. */
function summed(result: EngineResult): EngineResult {
  const { fillUs = [], compileMs = [], ...rest } = result;
  const p95 = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length * 0.95)];
  if (compileMs.length > 0) rest.compile = { medianMs: median(compileMs), p95Ms: p95(compileMs) };
  if (fillUs.length > 0) {
    rest.fill = { count: fillUs.length, medianUs: median(fillUs), p95Us: p95(fillUs) };
  }
  return rest;
}

export function emptyResult(engine: string, version: string): EngineResult {
  return {
    engine,
    version,
    compiled: 0,
    validAccepted: 0,
    validTotal: 0,
    validRefused: [],
    invalidRefused: 0,
    invalidTotal: 0,
    invalidLetThrough: [],
    generations: 0,
    generationsFailing: [],
    generationsUnfinished: 0,
    fillUs: [],
    compileMs: [],
  };
}

/** A matcher as the benchmark drives it: fill a mask, test a bit, accept. */
interface Driver {
  fill(): Promise<(id: number) => boolean> | ((id: number) => boolean);
  accept(id: number): boolean;
  reset(): void;
}

/** Replay every instance and sample the generations through one engine's driver. */
async function judge(
  result: EngineResult,
  schema: BenchSchema,
  driver: Driver,
  vocabulary: Vocabulary,
  scores: Float64Array,
): Promise<void> {
  result.compiled++;
  for (const instance of schema.instances) {
    driver.reset();
    let accepted = true;
    for (const id of [...instance.tokens, vocabulary.stopToken]) {
      const started = performance.now();
      const allowed = await driver.fill();
      result.fillUs!.push((performance.now() - started) * 1000);
      if (!allowed(id) || !driver.accept(id)) {
        accepted = false;
        break;
      }
    }
    tally(result, schema.name, instance.valid, accepted);
  }
  for (let seed = 1; seed <= GENERATIONS; seed++) {
    driver.reset();
    const random = seeded(seed);
    const tokens: number[] = [];
    while (tokens.length < MAX_TOKENS && tokens.at(-1) !== vocabulary.stopToken) {
      const allowed = await driver.fill();
      const id = sample(scores, allowed, random);
      if (id < 0 || !driver.accept(id)) break;
      tokens.push(id);
    }
    generated(result, schema, tokens, vocabulary);
  }
}

export function tally(result: EngineResult, name: string, valid: boolean, accepted: boolean): void {
  if (valid) {
    result.validTotal++;
    if (accepted) result.validAccepted++;
    else result.validRefused.push(name);
  } else {
    result.invalidTotal++;
    if (accepted) result.invalidLetThrough.push(name);
    else result.invalidRefused++;
  }
}

/** Count one generation: finished (ended by the stop token) and valid by ajv, or not. */
export function generated(
  result: EngineResult,
  schema: BenchSchema,
  tokens: number[],
  vocabulary: Vocabulary,
): void {
  result.generations++;
  if (tokens.at(-1) !== vocabulary.stopToken) {
    result.generationsUnfinished++;
    return;
  }
  let problems: string[];
  try {
    problems = schemaProblems(schema.schema, JSON.parse(vocabulary.decode(tokens.slice(0, -1))));
  } catch {
    problems = ["not JSON"];
  }
  if (problems.length > 0) result.generationsFailing.push(schema.name);
}

async function runOurs(
  schemas: BenchSchema[],
  vocabulary: Vocabulary,
  scores: Float64Array,
): Promise<EngineResult> {
  const result = emptyResult("lib/mask", "this project");
  // the vocabulary's prefix tree is built once, on the first compile: outside the timing, as
  // XGrammar's tokenizer info is
  compileJsonSchema({ type: "boolean" }, vocabulary);
  const bitmask = new Uint32Array(Math.ceil(vocabulary.size / 32));
  const allowed = (id: number) => (bitmask[id >>> 5] & (1 << (id & 31))) !== 0;
  for (const schema of schemas) {
    let matcher: GrammarMatcher;
    // compile time is CPU time: other processes on a shared machine do not count in it
    const started = cpuMs();
    try {
      matcher = new GrammarMatcher(compileJsonSchema(schema.schema, vocabulary));
    } catch {
      continue;
    }
    result.compileMs!.push(cpuMs() - started);
    await judge(
      result,
      schema,
      {
        fill: () => (matcher.fillNextTokenBitmask(bitmask), allowed),
        accept: (id) => matcher.acceptToken(id),
        reset: () => matcher.reset(),
      },
      vocabulary,
      scores,
    );
  }
  return result;
}

async function runXGrammar(
  schemas: BenchSchema[],
  vocabulary: Vocabulary,
  scores: Float64Array,
): Promise<EngineResult> {
  const xgrammar = await loadXGrammar();
  const result = emptyResult("XGrammar (web-xgrammar)", xgrammar.version);
  const compiler = await xgrammar.compiler(await xgrammar.tokenizerInfo(vocabulary));
  for (const schema of schemas) {
    let compiled: unknown;
    const started = cpuMs();
    try {
      compiled = await compiler.compileJSONSchema(JSON.stringify(schema.schema), false, -1, [
        ",",
        ":",
      ], true);
    } catch {
      continue;
    }
    result.compileMs!.push(cpuMs() - started);
    const matcher = await xgrammar.matcher(compiled, vocabulary.stopToken);
    await judge(
      result,
      schema,
      {
        // XGrammar aborts the whole process when asked for a mask after the stop token: never ask
        fill: async () => {
          if (matcher.isTerminated()) return () => false;
          const mask = await matcher.getNextTokenBitmask();
          return (id) => ((mask[id >>> 5] >>> (id & 31)) & 1) === 1;
        },
        accept: (id) => matcher.acceptToken(id),
        reset: () => matcher.reset(),
      },
      vocabulary,
      scores,
    );
    matcher.dispose();
  }
  return result;
}
