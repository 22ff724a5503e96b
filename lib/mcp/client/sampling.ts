/**
 * What a client answers a server's `sampling/createMessage` with: its own
 * model's message, as the caller's `sample` function gives it, after the
 * request has been checked. A server may ask the client's model something
 * only when the client declared `sampling`; a request whose messages are not
 * text, that offers the model tools (this client never declares
 * `sampling.tools`), or whose `maxTokens` is not a positive whole number, is
 * refused with "invalid params" (-32602) naming what was wrong, and never
 * reaches the model.
 *
 * @module
 */

import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { type McpVersion, versionFeatures } from "../shared/versions.ts";

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

/** What a model is told besides the request: the server may cancel it. */
export interface SampleOptions {
  /** Aborted when the server cancels its request: its answer will not be sent. */
  signal: AbortSignal;
}

/** Answers a server's sampling request with the client's model. */
export type Sample = (request: SamplingRequest, options?: SampleOptions) => Promise<SamplingAnswer>;

/**
 * `params` of a `sampling/createMessage` as a {@linkcode SamplingRequest},
 * or what is wrong with them. From 2025-11-25 a message's `content` may be
 * an array of blocks: text blocks are read as their text, one after another.
 * A request that offers the model tools is refused: answering it with text
 * would answer a question other than the one asked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const params = { messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 5 };
 * assert.deepEqual(samplingRequest(params), { messages: [{ role: "user", text: "Hi" }], maxTokens: 5 });
 * assert.equal(samplingRequest({ ...params, maxTokens: 0 }), "maxTokens must be a whole number of at least 1, not 0");
 * const blocks = { messages: [{ role: "user", content: [{ type: "text", text: "Hi " }, { type: "text", text: "there" }] }], maxTokens: 5 };
 * assert.deepEqual(samplingRequest(blocks, "2025-11-25"), { messages: [{ role: "user", text: "Hi there" }], maxTokens: 5 });
 * assert.match(samplingRequest(blocks, "2025-06-18") as string, /must be text/);
 * assert.match(samplingRequest({ ...params, tools: [] }, "2025-11-25") as string, /sampling\.tools/);
 * ```
 */
export function samplingRequest(params: unknown, version?: McpVersion): SamplingRequest | string {
  const arrays = version === undefined || versionFeatures(version).samplingContentArrays;
  if (!isObject(params)) return "its params are not an object";
  if (params.tools !== undefined || params.toolChoice !== undefined) {
    // "Servers MUST NOT send tool-enabled sampling requests to Clients that have not declared … `sampling.tools`".
    return "tools (or a toolChoice) are offered to the model, which this client did not declare " +
      "(sampling.tools): its model takes text alone, and a plain answer is not what was asked";
  }
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
    const blocks = Array.isArray(content) && arrays ? content : [content];
    const texts = blocks.map((block) =>
      isObject(block) && block.type === "text" && typeof block.text === "string"
        ? block.text
        : undefined
    );
    if (blocks.length === 0 || texts.some((text) => text === undefined)) {
      return `messages[${index}].content must be text ({"type": "text", "text": ...}${
        arrays ? ", or an array of them" : ""
      }): this client's model reads nothing else`;
    }
    checked.push({ role, text: texts.join("") });
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
