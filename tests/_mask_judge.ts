// The judge the mask's differential tests share: a schema compiled (or
// refused, naming a keyword it uses), each instance written as the mask
// writes it and fed token by token, the mask before each token and the stop
// token after, and ajv's verdict beside it. A mask that completes what ajv
// refuses is a disagreement; so is one that refuses what ajv accepts, within
// the mask's documented limits (`withinLimits`), and a schema refused as
// satisfying nothing that ajv finds satisfied. Random generations under each
// mask must pass ajv too (they reach texts no instance list holds).

import {
  canonicalText,
  type CompiledGrammar,
  compileJsonSchema,
  generateArguments,
  GrammarMatcher,
  MaxTokensError,
  schemaProblems,
  SchemaTooLargeError,
  UnsupportedSchemaError,
  type Vocabulary,
} from "../lib/mask/mod.ts";
import { closingModel } from "./_mask_models.ts";

/** What a run judged. */
export interface Tally {
  schemas: number;
  compiled: number;
  /** Refusals by the keyword they name. */
  refused: Record<string, number>;
  validCompleted: number;
  invalidRefused: number;
  /** Valid instances outside the mask's documented limits (not judged), by the limit. */
  outside: Record<string, number>;
  generated: number;
  disagreements: string[];
}

/** An empty tally. */
export function tally(): Tally {
  return {
    schemas: 0,
    compiled: 0,
    refused: {},
    validCompleted: 0,
    invalidRefused: 0,
    outside: {},
    generated: 0,
    disagreements: [],
  };
}

/** True when every token of `text` is in the mask before it and the matcher takes it, then the stop token. */
export function completes(compiled: CompiledGrammar, text: string): boolean {
  const { vocabulary } = compiled;
  const matcher = new GrammarMatcher(compiled);
  const mask = new Uint32Array(compiled.maskWords);
  for (const id of [...vocabulary.encode(text), vocabulary.stopToken]) {
    matcher.fillNextTokenBitmask(mask);
    const inMask = (mask[id >>> 5] & (1 << (id & 31))) !== 0;
    if (!inMask) return false;
    if (!matcher.acceptToken(id)) {
      throw new Error(`token ${id} in the mask, refused by the matcher`);
    }
  }
  return true;
}

/** Judge one schema on these values, over `vocabulary`, adding to `into`. */
export function judge(
  schema: unknown,
  values: unknown[],
  into: Tally,
  vocabulary: Vocabulary,
  generations = 2,
): void {
  into.schemas++;
  const show = JSON.stringify(schema);
  const valid = values.map((value) => {
    try {
      return schemaProblems(schema, value).length === 0;
    } catch {
      return false;
    }
  });
  let compiled: CompiledGrammar;
  try {
    compiled = compileJsonSchema(schema, vocabulary);
  } catch (error) {
    if (!(error instanceof UnsupportedSchemaError || error instanceof SchemaTooLargeError)) {
      into.disagreements.push(`${show}: ${error}`);
      return;
    }
    const keyword = error.keyword;
    into.refused[keyword] = (into.refused[keyword] ?? 0) + 1;
    if (keyword === "a schema no value satisfies") {
      const found = values.findIndex((value, index) => valid[index] && withinLimits(value, schema));
      if (found >= 0) {
        into.disagreements.push(
          `${show}: refused as unsatisfiable, ajv accepts ${JSON.stringify(values[found])}`,
        );
      }
    } else if (!show.includes(`"${keyword}"`) && keyword !== "type") {
      into.disagreements.push(`${show}: refused naming ${keyword}, which it does not use`);
    }
    return;
  }
  into.compiled++;
  values.forEach((value, index) => {
    const text = canonicalText(value, schema);
    if (!valid[index] && completes(compiled, text)) {
      into.disagreements.push(`${show}: the mask completes ${text}, ajv refuses it`);
    } else if (!valid[index]) into.invalidRefused++;
    else if (!withinLimits(value, schema)) {
      const limit = beyond(value, schema)!;
      into.outside[limit] = (into.outside[limit] ?? 0) + 1;
    } else if (completes(compiled, text)) into.validCompleted++;
    else into.disagreements.push(`${show}: ajv accepts ${text}, the mask refuses it`);
  });
  for (let seed = 1; seed <= generations; seed++) {
    try {
      const result = generateArguments({ inputSchema: schema }, closingModel(vocabulary, seed), {
        compiled,
        temperature: 1,
        seed,
        maxTokens: 48,
      });
      if (result.problems.length > 0) into.disagreements.push(`${show}: generated ${result.text}`);
      into.generated++;
    } catch (error) {
      if (error instanceof MaxTokensError) continue;
      into.disagreements.push(`${show}: generation ${(error as Error).message}`);
    }
  }
}

/**
 * True when a valid `value` is within what the mask promises to write:
 * every object's names are named at their place (by the schemas that may
 * apply there, their branches' included) unless `additionalProperties` is
 * given there; numbers have at most 15 significant digits and no exponent;
 * no time has a leap second; a value no schema constrains nests at most
 * three deep.
 */
export function withinLimits(value: unknown, schema: unknown): boolean {
  return beyond(value, schema) === undefined;
}

/** The first limit `value` is beyond, or `undefined`. */
function beyond(value: unknown, schema: unknown): string | undefined {
  if (!plainNumbers(value)) return "numbers";
  if (/:60/.test(JSON.stringify(value))) return "leap seconds";
  return placed(value, applying([schema], schema), schema);
}

function depth(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depth));
  if (isObject(value)) return 1 + Math.max(0, ...Object.values(value).map(depth));
  return 0;
}

function plainNumbers(value: unknown): boolean {
  if (typeof value === "number") {
    const text = JSON.stringify(value);
    return !/e/i.test(text) && text.replace(/^-|\./g, "").replace(/^0+/, "").length <= 15;
  }
  if (Array.isArray(value)) return value.every(plainNumbers);
  if (isObject(value)) return Object.values(value).every(plainNumbers);
  return true;
}

/** The schemas that may apply where these do: each, its `$ref` target, every branch, again and again. */
function applying(schemas: unknown[], root: unknown): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const visit = (schema: unknown, hops: number) => {
    if (!isObject(schema) || found.includes(schema) || hops > 8) return;
    found.push(schema);
    if (typeof schema.$ref === "string") {
      const target = schema.$ref.slice(2).split("/").reduce(
        (at: unknown, key) => isObject(at) ? at[key] : undefined,
        root,
      );
      visit(target, hops + 1);
    }
    for (const key of ["anyOf", "oneOf", "allOf"]) {
      if (Array.isArray(schema[key])) (schema[key] as unknown[]).forEach((b) => visit(b, hops));
    }
    visit(schema.not, hops);
  };
  schemas.forEach((schema) => visit(schema, 0));
  return found;
}

/**
 * "names" when an object has a name its place does not name, "depth" when a
 * value no schema constrains nests more than three deep, else `undefined`.
 */
function placed(
  value: unknown,
  schemas: Record<string, unknown>[],
  root: unknown,
): string | undefined {
  if (schemas.every((schema) => Object.keys(schema).every((key) => ANNOTATIONS.includes(key)))) {
    return depth(value) > 3 ? "depth" : undefined;
  }
  if (Array.isArray(value)) {
    const items = applying(schemas.flatMap((s) => s.items === undefined ? [] : [s.items]), root);
    return value.map((item) => placed(item, items, root)).find((limit) => limit !== undefined);
  }
  if (!isObject(value)) return undefined;
  const names = new Set<string>();
  for (const schema of schemas) {
    Object.keys(isObject(schema.properties) ? schema.properties : {}).forEach((n) => names.add(n));
    if (Array.isArray(schema.required)) schema.required.forEach((n) => names.add(String(n)));
    if (isObject(schema.dependencies)) {
      for (const [name, needs] of Object.entries(schema.dependencies)) {
        names.add(name);
        if (Array.isArray(needs)) needs.forEach((n) => names.add(String(n)));
      }
    }
  }
  const others = schemas.some((s) =>
    s.additionalProperties !== undefined && s.additionalProperties !== false
  );
  for (const [key, item] of Object.entries(value)) {
    if (!names.has(key) && !others) return "names";
    const inner = schemas.flatMap((s) => {
      const properties = isObject(s.properties) ? s.properties : {};
      if (Object.hasOwn(properties, key)) return [properties[key]];
      return isObject(s.additionalProperties) ? [s.additionalProperties] : [];
    });
    const limit = placed(item, applying(inner, root), root);
    if (limit !== undefined) return limit;
  }
  return undefined;
}

const ANNOTATIONS = ["description", "title", "$comment", "default", "examples", "$defs"];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
