/**
 * How a server judges the client's answer to one of its own questions, in
 * either era (a legacy server request's result, or a 2026-07-28
 * `inputResponses` entry): the shape its method's result must have, and, for
 * sampling, whether the model's message is what was asked, and, for
 * elicitation, whether an accepted form fits the schema it was asked with
 * (`lib/mcp/shared/elicit_answer.ts`). 2025-11-25's tool-enabled sampling: `tool_use`
 * content only where `tools` were offered, and only of a tool offered; with
 * `toolChoice` `"required"` the "Model MUST use at least one tool", with
 * `"none"` it "MUST NOT use any tools"; a `stopReason` of `"toolUse"` with
 * no tool used says what did not happen. A model's message holds only what
 * the session's version defines: a list of blocks, and `tool_use` and
 * `tool_result` blocks, came with 2025-11-25, audio with 2025-03-26; no
 * version's holds a resource.
 *
 * @module
 */

import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { isMcpVersion, LATEST_VERSION, versionFeatures } from "../shared/versions.ts";
import { unreadForm } from "../shared/elicitation_form.ts";
import { elicitAnswerProblem } from "../shared/elicit_answer.ts";

/**
 * Why `answer` is not what the question `method` with `params` asked for, if
 * it is not: a phrase that follows "the answer". In a session of `version`,
 * it holds only what that version defines (2025-06-18's form holds no list).
 *
 * @example A plain text where a tool was required
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const asked = { messages: [], maxTokens: 8, tools: [{ name: "weather", inputSchema: { type: "object" } }], toolChoice: { mode: "required" } };
 * const text = { role: "assistant", content: { type: "text", text: "Sunny" }, model: "m" };
 * assert.match(answerProblem("sampling/createMessage", asked, text)!, /required/);
 * const used = { ...text, content: [{ type: "tool_use", id: "1", name: "weather", input: {} }], stopReason: "toolUse" };
 * assert.equal(answerProblem("sampling/createMessage", asked, used), undefined);
 * assert.match(answerProblem("sampling/createMessage", { messages: [], maxTokens: 8 }, used)!, /no tools were offered/);
 * ```
 *
 * @example A 2025-06-18 model's message holds one block, and no tool's use
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const asked = { messages: [], maxTokens: 8 };
 * const listed = { role: "assistant", content: [{ type: "text", text: "Sunny" }], model: "m" };
 * assert.match(answerProblem("sampling/createMessage", asked, listed, "2025-06-18")!, /list of content blocks, which came with 2025-11-25/);
 * assert.equal(answerProblem("sampling/createMessage", asked, listed, "2025-11-25"), undefined);
 * const result = { ...listed, content: { type: "tool_result", toolUseId: "1", content: [] } };
 * assert.match(answerProblem("sampling/createMessage", asked, result, "2025-06-18")!, /tool_result content, which a 2025-06-18/);
 * ```
 */
export function answerProblem(
  method: string,
  params: unknown,
  answer: unknown,
  version?: string,
): string | undefined {
  if (!isObject(answer)) return "is not an object";
  switch (method) {
    case "elicitation/create":
      return elicitAnswerProblem(isObject(params) ? params : {}, answer, {
        lists: !isMcpVersion(version) || versionFeatures(version).elicitationChoices,
      });
    case "sampling/createMessage":
      if (answer.role !== "assistant" && answer.role !== "user") return 'has no "role"';
      if (!isObject(answer.content) && !Array.isArray(answer.content)) return 'has no "content"';
      if (typeof answer.model !== "string") return 'has no "model"';
      return samplingContentProblem(answer.content, version) ??
        toolUseProblem(isObject(params) ? params : {}, answer.content, answer.stopReason);
    case "roots/list":
      return Array.isArray(answer.roots) ? undefined : 'has no "roots" list';
  }
  return undefined;
}

/**
 * Why the question `method` with `params` is not asked at all: an
 * elicitation's form that says what no elicitation form says, so that no
 * answer to it could be checked; `undefined` when it may be asked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const code = { type: "string", pattern: "^[A-Z]+$" };
 * const asked = { message: "Code?", requestedSchema: { type: "object", properties: { code } } };
 * assert.match(questionProblem("elicitation/create", asked)!, /its field code has "pattern"/);
 * assert.equal(questionProblem("elicitation/create", { message: "Name?", requestedSchema: { type: "object", properties: {} } }), undefined);
 * ```
 */
export function questionProblem(method: string, params: JsonObject): string | undefined {
  if (method !== "elicitation/create" || params.mode === "url") return undefined;
  const unread = unreadForm(params.requestedSchema);
  return unread === undefined
    ? undefined
    : `The elicitation's form cannot be checked: ${unread}: it is not sent`;
}

/** The types of block a model's message may hold, of those a tool's result may. */
const SAMPLED = ["text", "image", "audio"];

/**
 * Why a model's message `content` holds what a session of `version` does not
 * define (a version this library does not speak, or none: the latest's rules).
 */
function samplingContentProblem(content: unknown, version?: string): string | undefined {
  const spoken = isMcpVersion(version) ? version : LATEST_VERSION;
  const { contentTypes, samplingContentArrays, samplingCapabilities } = versionFeatures(spoken);
  const blocks = Array.isArray(content) ? content : [content];
  if (Array.isArray(content) && !samplingContentArrays) {
    return `holds a list of content blocks, which came with 2025-11-25; this session is ${spoken}`;
  }
  const types = [
    ...contentTypes.filter((type) => SAMPLED.includes(type)),
    ...(samplingCapabilities ? ["tool_use", "tool_result"] : []),
  ];
  const unheld = blocks.map((block) =>
    isObject(block) && typeof block.type === "string" ? block.type : ""
  )
    .find((type) => !types.includes(type));
  return unheld === undefined
    ? undefined
    : `holds ${unheld === "" ? "a block with no type" : `${unheld} content`}, ` +
      `which a ${spoken} model's message does not (it holds ${types.join(", ")})`;
}

/** Why the tools a model's message `content` uses are not what `params` offered and required. */
function toolUseProblem(
  params: Record<string, unknown>,
  content: unknown,
  stopReason: unknown,
): string | undefined {
  const blocks = Array.isArray(content) ? content : [content];
  const used = blocks.filter((block) => isObject(block) && block.type === "tool_use")
    .map((block) => (block as Record<string, unknown>).name);
  const offered = Array.isArray(params.tools)
    ? params.tools.map((tool) => isObject(tool) ? tool.name : undefined)
    : undefined;
  const mode = isObject(params.toolChoice) ? params.toolChoice.mode : undefined;
  if (used.length > 0 && offered === undefined) {
    return "uses a tool (tool_use), but no tools were offered to the model";
  }
  const unknown = used.find((name) => !offered!.includes(name));
  if (unknown !== undefined) {
    return `uses the tool ${JSON.stringify(unknown)}, which was not offered to the model`;
  }
  if (used.length > 0 && mode === "none") return 'uses a tool where toolChoice was "none"';
  if (used.length === 0 && mode === "required") {
    return 'uses no tool where toolChoice was "required" (a plain message is not what was asked)';
  }
  if (used.length === 0 && stopReason === "toolUse") {
    return 'says it stopped to use a tool (stopReason "toolUse"), but uses none';
  }
  return undefined;
}
