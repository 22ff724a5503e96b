/**
 * Lab 03's decoding driver: a case gives its model as a table
 * ({@linkcode ModelTable}), and the learner's `decode` is given it
 * as what a model is, a function from the tokens written so far to a score
 * for each token and for stopping. It reports what `decode` returned, or
 * lets what it threw be judged.
 *
 * @module
 */

/**
 * A model as a table: for the last token written (`""` before any, `default`
 * for any other), a score for each token and, last, for stopping.
 */
export type ModelTable = Record<string, number[]>;

/** A model: the tokens written so far in, a score for each token (and, last, for stopping) out. */
export type Model = (ids: readonly number[]) => readonly number[];

/**
 * The model a table describes: the row of the last token written, `""`
 * before any, `default` for a token with no row of its own.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const model = modelOf({ "": [1, 0], default: [0, 1] });
 * assert.deepEqual(model([]), [1, 0]);
 * assert.deepEqual(model([0, 0]), [0, 1]);
 * ```
 */
export function modelOf(table: ModelTable): Model {
  return (ids) => {
    const row = table[ids.length === 0 ? "" : String(ids[ids.length - 1])] ?? table.default;
    if (row === undefined) throw new RangeError(`the model has no row after token ${ids.at(-1)}`);
    return [...row];
  };
}

/**
 * Run `decode(schema, tokens, model, maxTokens)`, the model made from the
 * case's table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const first = (_s: unknown, tokens: string[], model: Model) => tokens[model([]).indexOf(1)];
 * assert.equal(await drive(first, [{}, ["a", "b"], { "": [0, 1, 0] }, 5]), "b");
 * ```
 */
export async function drive(candidate: unknown, args: unknown[]): Promise<unknown> {
  const [schema, tokens, table, maxTokens] = args;
  const decode = candidate as (...args: unknown[]) => unknown;
  return await decode(schema, tokens, modelOf(table as ModelTable), maxTokens);
}
