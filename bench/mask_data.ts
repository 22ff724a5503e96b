// Row 10's data: JSONSchemaBench's Glaiveai2K schemas (function-calling
// schemas, each with valid and invalid instances), read from a copy of the
// benchmark's maskbench/data folder. Nothing here downloads: where the data is
// absent, the row is skipped and says where it looked. To get the data, from a
// clone of guidance-ai/jsonschemabench (commit ba103c73), beside the project:
//
//     git -C jsonschemabench archive ba103c73 ':(glob)maskbench/data/Glaiveai2K---*' |
//       tar -x -C shared/jsonschemabench

import { existsSync } from "node:fs";
import { inSchemaOrder, schemaProblems, type Vocabulary } from "../lib/mask/mod.ts";
import { projectPath } from "./_measure.ts";

/** Where the row looks for the data, in order, unless told (--mask-data or JSONSCHEMABENCH). */
export const DATA_PLACES = [
  "../shared/jsonschemabench/maskbench/data",
  "../../shared/jsonschemabench/maskbench/data",
];

/** One instance: its text in the schema's order, its tokens, and whether it is valid. */
export interface BenchInstance {
  text: string;
  tokens: number[];
  /** Valid by the benchmark's label and by ajv (with ajv-formats) alike. */
  valid: boolean;
}

/** One schema and its instances (those on which the label and ajv disagree left out). */
export interface BenchSchema {
  name: string;
  schema: unknown;
  instances: BenchInstance[];
  /** Instances left out because the benchmark's label and ajv disagree. */
  disagreements: number;
}

/** The data folder: `explicit`, else $JSONSCHEMABENCH, else the first of DATA_PLACES that exists. */
export function findData(explicit?: string): string | undefined {
  const given = explicit ?? Deno.env.get("JSONSCHEMABENCH");
  if (given !== undefined) return existsSync(given) ? given : undefined;
  return DATA_PLACES.map((place) => projectPath(place)).find((place) => existsSync(place));
}

/**
 * The first `count` Glaiveai2K schemas by file name, each instance written
 * compact in the schema's order and tokenized with `vocabulary`.
 */
export function loadSchemas(folder: string, count: number, vocabulary: Vocabulary): BenchSchema[] {
  const names = [...Deno.readDirSync(folder)]
    .map((entry) => entry.name)
    .filter((name) => name.startsWith("Glaiveai2K---") && name.endsWith(".json"))
    .sort()
    .slice(0, count);
  return names.map((name) => {
    const { schema, tests } = JSON.parse(Deno.readTextFileSync(`${folder}/${name}`));
    const instances: BenchInstance[] = [];
    let disagreements = 0;
    for (const test of tests as { valid: boolean; data: unknown }[]) {
      const valid = schemaProblems(schema, test.data).length === 0;
      if (valid !== test.valid) {
        disagreements++;
        continue;
      }
      const text = JSON.stringify(inSchemaOrder(test.data, schema));
      instances.push({ text, tokens: vocabulary.encode(text), valid });
    }
    return { name: name.replace(/^Glaiveai2K---|\.json$/g, ""), schema, instances, disagreements };
  });
}
