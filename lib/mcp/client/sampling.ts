/**
 * What a client answers a server's `sampling/createMessage` with: its own
 * model's message, as the caller's `sample` function gives it, after the
 * request has been checked. A server may ask the client's model something
 * only when the client declared `sampling`; a request whose messages are not
 * text, or whose `maxTokens` is not a positive whole number, is refused with
 * "invalid params" (-32602) naming what was wrong, and never reaches the model.
 *
 * @module
 */

import { isObject, type JsonObject } from "../shared/jsonrpc.ts";

/** One message of a sampling request: who said it, and its text. */
export interface SamplingMessage {
  role: "user" | "assistant";
  text: string;
}

/** A sampling request, checked: the conversation so far and the most tokens to answer with. */
export interface SamplingRequest {
  messages: SamplingMessage[];
  maxTokens: number;
  /** What the server asks the model to be, if it says. */
  systemPrompt?: string;
}

/** The model's answer: its text, the model's name, and why it stopped. */
export interface SamplingAnswer {
  text: string;
  model: string;
  stopReason: "endTurn" | "maxTokens";
}

/** Answers a server's sampling request with the client's model. */
export type Sample = (request: SamplingRequest) => Promise<SamplingAnswer>;

/**
 * `params` of a `sampling/createMessage` as a {@linkcode SamplingRequest},
 * or what is wrong with them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const params = { messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 5 };
 * assert.deepEqual(samplingRequest(params), { messages: [{ role: "user", text: "Hi" }], maxTokens: 5 });
 * assert.equal(samplingRequest({ ...params, maxTokens: 0 }), "maxTokens must be a whole number of at least 1, not 0");
 * ```
 */
export function samplingRequest(params: unknown): SamplingRequest | string {
  if (!isObject(params)) return "its params are not an object";
  const { messages, maxTokens, systemPrompt } = params;
  if (!Array.isArray(messages) || messages.length === 0) {
    return "messages must be a non-empty array";
  }
  const checked: SamplingMessage[] = [];
  for (const [index, message] of messages.entries()) {
    const role = isObject(message) ? message.role : undefined;
    if (role !== "user" && role !== "assistant") {
      return `messages[${index}].role must be "user" or "assistant"`;
    }
    const content = (message as JsonObject).content;
    if (!isObject(content) || content.type !== "text" || typeof content.text !== "string") {
      return `messages[${index}].content must be text ({"type": "text", "text": ...}): ` +
        "this client's model reads nothing else";
    }
    checked.push({ role, text: content.text });
  }
  if (typeof maxTokens !== "number" || !Number.isInteger(maxTokens) || maxTokens < 1) {
    return `maxTokens must be a whole number of at least 1, not ${JSON.stringify(maxTokens)}`;
  }
  if (systemPrompt !== undefined && typeof systemPrompt !== "string") {
    return "systemPrompt must be a string";
  }
  return { messages: checked, maxTokens, ...(systemPrompt === undefined ? {} : { systemPrompt }) };
}

/**
 * The `sampling/createMessage` result for `answer`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(samplingResult({ text: "ate", model: "bigram", stopReason: "endTurn" }), {
 *   role: "assistant",
 *   content: { type: "text", text: "ate" },
 *   model: "bigram",
 *   stopReason: "endTurn",
 * });
 * ```
 */
export function samplingResult(answer: SamplingAnswer): JsonObject {
  return {
    role: "assistant",
    content: { type: "text", text: answer.text },
    model: answer.model,
    stopReason: answer.stopReason,
  };
}
