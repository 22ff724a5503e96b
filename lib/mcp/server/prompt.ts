/**
 * A prompt as a server holds it: what it advertises in `prompts/list` (its
 * name and the arguments it declares), and the function that fills it in
 * for `prompts/get`, called only with arguments that fit the declared ones.
 *
 * @module
 */

import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import {
  type PromptArgument,
  promptArgumentProblems,
  type PromptMessage,
} from "../shared/prompt.ts";
import { describeError } from "../shared/errors.ts";
import { ERROR_CODES, failure, success } from "./replies.ts";

/** What a prompt gives when it is filled in. */
export interface PromptOutcome {
  description?: string;
  messages: readonly PromptMessage[];
}

/** One prompt a server offers. */
export interface ServerPrompt {
  name: string;
  title?: string;
  description?: string;
  /** The arguments it takes, each a string. @default {[]} */
  arguments?: readonly PromptArgument[];
  /** Fills the prompt in, given arguments that fit `arguments` (see {@linkcode promptProblems}). */
  get(args: Record<string, string>): PromptOutcome;
}

/**
 * How a prompt is advertised in `prompts/list`: everything but its function.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const prompt = { name: "practise", arguments: [{ name: "verb", required: true }], get: () => ({ messages: [] }) };
 * assert.deepEqual(advertisedPrompt(prompt), { name: "practise", arguments: [{ name: "verb", required: true }] });
 * ```
 */
export function advertisedPrompt(prompt: ServerPrompt): JsonObject {
  const { get: _, ...described } = prompt;
  return described;
}

/**
 * What is wrong with `args` for `prompt`, one line each: what
 * `promptArgumentProblems` finds (a required argument missing, a value that
 * is not a string), and, since a server checks its own inputs strictly,
 * `unexpected NAME` for an argument the prompt does not declare.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const prompt = { name: "practise", arguments: [{ name: "verb", required: true }], get: () => ({ messages: [] }) };
 * assert.deepEqual(promptProblems(prompt, { verb: "eat" }), []);
 * assert.deepEqual(promptProblems(prompt, { mood: "glad" }), ["missing verb", "unexpected mood"]);
 * ```
 */
export function promptProblems(prompt: ServerPrompt, args: unknown): string[] {
  const problems = promptArgumentProblems(prompt.arguments, args);
  if (!isObject(args)) return problems;
  const declared = new Set((prompt.arguments ?? []).map((argument) => argument.name));
  const unexpected = Object.keys(args).filter((name) => !declared.has(name));
  return [...problems, ...unexpected.map((name) => `unexpected ${name}`)].sort();
}

/**
 * The `prompts/get` result of `prompt` for `args` that fit it: its
 * description (the outcome's, else the prompt's) and its messages.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const prompt = {
 *   name: "practise",
 *   description: "Practise a verb",
 *   get: ({ verb }: Record<string, string>) => ({
 *     messages: [{ role: "user" as const, content: { type: "text" as const, text: `Conjugate ${verb}.` } }],
 *   }),
 * };
 * assert.deepEqual(promptResult(prompt, { verb: "eat" }), {
 *   description: "Practise a verb",
 *   messages: [{ role: "user", content: { type: "text", text: "Conjugate eat." } }],
 * });
 * ```
 */
export function promptResult(prompt: ServerPrompt, args: Record<string, string>): JsonObject {
  const { description = prompt.description, messages } = prompt.get(args);
  return { ...(description === undefined ? {} : { description }), messages: [...messages] };
}

/**
 * The reply to the `prompts/get` request `id` with `params`: the prompt of
 * `prompts` it names, filled in (see {@linkcode promptResult}), or "invalid
 * params" for an unknown prompt or arguments that do not fit it (the
 * problems as its data), or "internal error" for a prompt that failed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const prompts = [{ name: "practise", arguments: [{ name: "verb", required: true }], get: () => ({ messages: [] }) }];
 * assert.deepEqual(promptReply(1, { name: "practise", arguments: { verb: "eat" } }, prompts).result, { messages: [] });
 * assert.deepEqual((promptReply(2, { name: "practise" }, prompts).error as { data: unknown }).data, ["missing verb"]);
 * ```
 */
export function promptReply(
  id: string | number,
  params: JsonObject,
  prompts: readonly ServerPrompt[],
): JsonObject {
  const { name, arguments: args = {} } = params;
  const prompt = prompts.find((prompt) => prompt.name === name);
  if (prompt === undefined) {
    return failure(id, ERROR_CODES.invalidParams, `Unknown prompt: ${String(name)}`);
  }
  const problems = promptProblems(prompt, args);
  if (problems.length > 0) {
    return failure(id, ERROR_CODES.invalidParams, `Invalid arguments for ${prompt.name}`, problems);
  }
  try {
    return success(id, promptResult(prompt, args as Record<string, string>));
  } catch (error) {
    return failure(
      id,
      ERROR_CODES.internalError,
      `Could not get ${prompt.name}: ${describeError(error)}`,
    );
  }
}
