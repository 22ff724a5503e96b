/**
 * Prompts as MCP 2025-06-18 defines them: what a server lists, the messages
 * `prompts/get` returns, and the check of a prompt's arguments against the
 * arguments it declares, which the client makes before it asks and the
 * server makes before it answers.
 *
 * @module
 */

import type { ContentBlock } from "./content.ts";
import { isObject, type JsonObject } from "./jsonrpc.ts";

/** An argument a prompt declares. Every argument's value is a string. */
export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  /** Whether the argument must be given. @default {false} */
  required?: boolean;
}

/** A prompt (or prompt template) as its server lists it. */
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  _meta?: JsonObject;
}

/** One message of a prompt, spoken by the user or the assistant. */
export interface PromptMessage {
  role: "user" | "assistant";
  content: ContentBlock;
}

/**
 * What is wrong with `args` as the arguments of a prompt that declares
 * `declared`, one line each, sorted: `missing city` for a required
 * argument not given, `state must be a string` for a value that is not one.
 * Arguments the prompt does not declare are not refused here: the
 * specification is silent on them (a server may refuse them itself).
 * `[]` when they fit; neither input is changed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const declared = [{ name: "city", required: true }, { name: "state" }];
 * assert.deepEqual(promptArgumentProblems(declared, { city: "Austin" }), []);
 * assert.deepEqual(promptArgumentProblems(declared, { state: 5 }), ["missing city", "state must be a string"]);
 * ```
 */
export function promptArgumentProblems(
  declared: readonly PromptArgument[] = [],
  args: unknown,
): string[] {
  if (!isObject(args)) return ["the arguments must be an object of strings"];
  const problems: string[] = [];
  for (const argument of declared) {
    if (argument.required === true && !Object.hasOwn(args, argument.name)) {
      problems.push(`missing ${argument.name}`);
    }
  }
  for (const [name, value] of Object.entries(args)) {
    if (typeof value !== "string") problems.push(`${name} must be a string`);
  }
  return problems.sort();
}
