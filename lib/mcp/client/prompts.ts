/**
 * A server's prompts as the client takes them: every page of `prompts/list`,
 * each prompt and its declared arguments checked, and a `prompts/get`
 * result checked before its messages are given back.
 *
 * @module
 */

import { contentProblem } from "../shared/content.ts";
import { ProtocolError } from "../shared/errors.ts";
import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { type Prompt, promptArgumentProblems, type PromptMessage } from "../shared/prompt.ts";
import { collectPages, type FetchPage } from "./pages.ts";

/** A `prompts/get` result, checked: what `Client.getPrompt` resolves with. */
export interface PromptResult {
  description?: string;
  /** Every message, its role and its content item checked. */
  messages: PromptMessage[];
  _meta?: JsonObject;
}

/**
 * Every prompt on every page of `prompts/list`, by name (see `collectPages`
 * for the bounds). Throws `ProtocolError` for a prompt that is not well
 * formed (see {@linkcode promptProblem}) or a name listed twice.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const page = { prompts: [{ name: "args-prompt", arguments: [{ name: "city", required: true }] }] };
 * const prompts = await collectPrompts(async () => page, 10);
 * assert.equal(prompts["args-prompt"].arguments?.[0].name, "city");
 * ```
 */
export function collectPrompts(
  fetchPage: FetchPage,
  maxPages: number,
): Promise<Record<string, Prompt>> {
  return collectPages<Prompt>(fetchPage, {
    method: "prompts/list",
    field: "prompts",
    noun: "prompt",
    problem: promptProblem,
    key: (prompt) => prompt.name,
  }, maxPages);
}

/**
 * What is wrong with a listed prompt, as the end of "The prompts/list result
 * has a prompt …", or `undefined` when it is well formed: a string `name`,
 * a `title` and `description` that are strings, `_meta` an object, and
 * `arguments`, if it is there, a list of arguments each with a string
 * `name`, strings for `title` and `description`, and a boolean `required`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(promptProblem({ name: "simple-prompt" }), undefined);
 * assert.equal(
 *   promptProblem({ name: "p", arguments: [{ name: "city", required: "yes" }] }),
 *   'whose arguments[0] has a "required" that is not a boolean',
 * );
 * ```
 */
export function promptProblem(prompt: unknown): string | undefined {
  if (!isObject(prompt)) return "that is not an object";
  const problem = describedProblem(prompt);
  if (problem !== undefined) return `with ${problem}`;
  if ("_meta" in prompt && !isObject(prompt._meta)) return 'whose "_meta" is not an object';
  if (!("arguments" in prompt)) return undefined;
  if (!Array.isArray(prompt.arguments)) return "whose arguments are not a list";
  for (const [index, argument] of prompt.arguments.entries()) {
    if (!isObject(argument)) return `whose arguments[${index}] is not an object`;
    const problem = describedProblem(argument);
    if (problem !== undefined) return `whose arguments[${index}] has ${problem}`;
    if ("required" in argument && typeof argument.required !== "boolean") {
      return `whose arguments[${index}] has a "required" that is not a boolean`;
    }
  }
  return undefined;
}

/**
 * Refuse, with `ProtocolError` and before anything is sent, to get the prompt
 * `name` with `args` when `prompts` (what `prompts/list` gave, or `undefined`
 * before it was called) does not list it, or `args` do not fit the arguments
 * it declares (see `promptArgumentProblems`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const prompts = { "args-prompt": { name: "args-prompt", arguments: [{ name: "city", required: true }] } };
 * checkPromptArguments(prompts, "args-prompt", { city: "Austin" });
 * assert.throws(() => checkPromptArguments(prompts, "args-prompt", {}), /missing city/);
 * assert.throws(() => checkPromptArguments(undefined, "args-prompt", {}), /call listPrompts\(\) first/);
 * ```
 */
export function checkPromptArguments(
  prompts: Record<string, Prompt> | undefined,
  name: string,
  args: unknown,
): void {
  if (prompts === undefined || !Object.hasOwn(prompts, name)) {
    throw new ProtocolError(
      `The server has not listed a prompt named ${JSON.stringify(name)}${
        prompts === undefined ? " (call listPrompts() first)" : ""
      }`,
    );
  }
  const problems = promptArgumentProblems(prompts[name].arguments, args);
  if (problems.length > 0) {
    throw new ProtocolError(
      `Arguments for the prompt ${name} do not match its declared arguments: ${
        problems.join("; ")
      }`,
    );
  }
}

/**
 * The messages of the `prompts/get` result `result` for the prompt `name`,
 * each checked: a role of `"user"` or `"assistant"`, and a content item
 * well formed (see `contentProblem`). Throws `ProtocolError` saying what is
 * wrong, and for a `description` that is not a string or `_meta` that is not
 * an object.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const result = { messages: [{ role: "user", content: { type: "text", text: "What is the weather in Austin?" } }] };
 * assert.equal(checkPromptResult("args-prompt", result).messages.length, 1);
 * assert.throws(() => checkPromptResult("args-prompt", { messages: [{ role: "system", content: {} }] }), /role/);
 * ```
 */
export function checkPromptResult(name: string, result: JsonObject): PromptResult {
  const problem = promptResultProblem(result);
  if (problem !== undefined) {
    throw new ProtocolError(`The prompts/get result for ${name} is malformed: ${problem}`);
  }
  return {
    ...(result.description === undefined ? {} : { description: result.description as string }),
    messages: result.messages as PromptMessage[],
    ...(result._meta === undefined ? {} : { _meta: result._meta as JsonObject }),
  };
}

function promptResultProblem(result: JsonObject): string | undefined {
  if ("description" in result && typeof result.description !== "string") {
    return 'its "description" is not a string';
  }
  if ("_meta" in result && !isObject(result._meta)) return 'its "_meta" is not an object';
  if (!Array.isArray(result.messages)) return "it has no messages list";
  for (const [index, message] of result.messages.entries()) {
    if (!isObject(message)) return `messages[${index}] is not an object`;
    if (message.role !== "user" && message.role !== "assistant") {
      return `messages[${index}] has the role ${
        JSON.stringify(message.role) ?? "nothing"
      }, not "user" or "assistant"`;
    }
    const problem = contentProblem(message.content);
    if (problem !== undefined) return `messages[${index}].content is ${problem}`;
  }
  return undefined;
}

/** A name, title or description that is not a string, as the end of "… with" or "… has". */
function describedProblem(item: JsonObject): string | undefined {
  if (typeof item.name !== "string") return 'a "name" that is not a string';
  for (const field of ["title", "description"]) {
    if (field in item && typeof item[field] !== "string") {
      return `a "${field}" that is not a string`;
    }
  }
  return undefined;
}
