// llguidance's part of row 10: it runs in Python, in a pinned virtual
// environment of its own (bench/llguidance/, git-ignored .venv), on a job
// this side writes: the same vocabulary, schemas, tokens and random model.
// Its verdicts and generations are judged here, as the others' are.

import type { Vocabulary } from "../lib/mask/mod.ts";
import { projectPath } from "./_measure.ts";
import type { BenchSchema } from "./mask_data.ts";
import {
  emptyResult,
  type EngineResult,
  generated,
  GENERATIONS,
  MAX_TOKENS,
  tally,
} from "./mask_bench.ts";

/** llguidance runs in Python (bench/llguidance/, its own pinned virtual environment). */
export async function runLlguidance(
  schemas: BenchSchema[],
  vocabulary: Vocabulary,
  scores: Float64Array,
): Promise<EngineResult> {
  const python = projectPath("bench/llguidance/.venv/bin/python");
  const result = emptyResult("llguidance", "1.9.1");
  try {
    await Deno.stat(python);
  } catch {
    result.skipped = "no bench/llguidance/.venv: python3 -m venv bench/llguidance/.venv && " +
      "bench/llguidance/.venv/bin/pip install -r bench/llguidance/requirements.txt";
    return result;
  }
  const folder = await Deno.makeTempDir({ prefix: "mask-bench-" });
  try {
    const vocab: string[] = [];
    for (let id = 0; id < vocabulary.size; id++) {
      const bytes = vocabulary.tokenBytes(id);
      if (bytes === undefined) break;
      vocab.push(Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join(""));
    }
    const special = Object.fromEntries(
      [
        "<|endoftext|>",
        "<|fim_prefix|>",
        "<|fim_middle|>",
        "<|fim_suffix|>",
        "<|im_start|>",
        "<|im_end|>",
        "<|im_sep|>",
        "<|endofprompt|>",
      ]
        .map((name, index) => [name, vocabulary.stopToken + index]),
    );
    const job = {
      vocab,
      special,
      size: vocabulary.size,
      stop: vocabulary.stopToken,
      scores: Array.from(scores),
      generations: GENERATIONS,
      maxTokens: MAX_TOKENS,
      schemas: schemas.map(({ name, schema, instances }) => ({ name, schema, instances })),
    };
    await Deno.writeTextFile(`${folder}/job.json`, JSON.stringify(job));
    const { code, stderr } = await new Deno.Command(python, {
      args: [
        projectPath("bench/llguidance/mask_bench.py"),
        `${folder}/job.json`,
        `${folder}/result.json`,
      ],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (code !== 0) {
      result.skipped = `llguidance failed: ${new TextDecoder().decode(stderr).slice(-500)}`;
      return result;
    }
    const answer = JSON.parse(await Deno.readTextFile(`${folder}/result.json`));
    result.version = answer.version;
    answer.schemas.forEach(
      (
        entry: {
          compiled: boolean;
          compileMs: number;
          fillNs: number[];
          instances: boolean[];
          generations: number[][];
        },
        index: number,
      ) => {
        if (!entry.compiled) return;
        const schema = schemas[index];
        result.compiled++;
        result.fillUs!.push(...entry.fillNs.map((ns) => ns / 1000));
        result.compileMs!.push(entry.compileMs);
        entry.instances.forEach((accepted, at) =>
          tally(result, schema.name, schema.instances[at].valid, accepted)
        );
        for (const tokens of entry.generations) generated(result, schema, tokens, vocabulary);
      },
    );
    return result;
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
}
