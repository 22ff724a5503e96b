/**
 * Whether an answer to an elicitation (`ElicitResult`) is one to the
 * question it answers, written once for both sides: a server judges the
 * answer it receives by it (`lib/mcp/server/answer_problem.ts`), a client
 * the answer its user gives before sending it (`lib/mcp/client/elicitation.ts`).
 *
 * @module
 */

import { type FormOptions, formProblems } from "./elicitation_form.ts";
import { isObject, type JsonObject } from "./jsonrpc.ts";

/**
 * Why `answer` is no answer to the elicitation asked with `params`, a
 * phrase that follows "the answer"; `undefined` when it is one. Its
 * `action` is accept, decline or cancel; its `content`, an object, only in
 * an accepted form's answer ("only present when action is 'accept' and mode
 * was 'form'"), and fits the form (`formProblems`, read with `options`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const params = { message: "Size?", requestedSchema: { type: "object", properties: { size: { type: "string", enum: ["S", "L"] } } } };
 * assert.equal(elicitAnswerProblem(params, { action: "accept", content: { size: "S" } }), undefined);
 * assert.equal(elicitAnswerProblem(params, { action: "accept", content: { size: "XL" } }), "does not fit the form it was asked with: size must be one of: S, L");
 * assert.equal(elicitAnswerProblem(params, { action: "ok" }), 'has no "action" of accept, decline or cancel');
 * assert.match(elicitAnswerProblem(params, { action: "decline", content: {} })!, /only an accepted form holds/);
 * ```
 */
export function elicitAnswerProblem(
  params: JsonObject,
  answer: JsonObject,
  options: FormOptions = {},
): string | undefined {
  if (!["accept", "decline", "cancel"].includes(answer.action as string)) {
    return 'has no "action" of accept, decline or cancel';
  }
  if ("content" in answer && !isObject(answer.content)) {
    return "has content that is not an object";
  }
  if (answer.action !== "accept" || params.mode === "url") {
    return "content" in answer
      ? `has content, which only an accepted form holds (its action is ${answer.action}` +
        `${params.mode === "url" ? ", of a URL" : ""})`
      : undefined;
  }
  const content = isObject(answer.content) ? answer.content : {};
  const problems = formProblems(params.requestedSchema, content, options);
  return problems.length === 0
    ? undefined
    : `does not fit the form it was asked with: ${problems.join("; ")}`;
}
