/**
 * A client's side of a multi round-trip request (2026-07-28): an
 * `input_required` result checked (its `inputRequests`, its opaque
 * `requestState`), each question answered through the same `elicit` and
 * `sample` functions a legacy server's own requests are answered with, and
 * the retry's params built: the original params, the answers, and the
 * `requestState` exactly as it came ("the client MUST echo back the exact
 * value of that field … If the `InputRequiredResult` does not contain a
 * `requestState` field, the client MUST NOT include one in the retry").
 * A question the client did not declare it can answer (the server "MUST
 * NOT send an `inputRequests` that the client has not declared support
 * for") makes the result one the client refuses.
 *
 * @module
 */

import { ProtocolError } from "../shared/errors.ts";
import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import type { McpVersion } from "../shared/versions.ts";
import { checkedAnswer, type Elicit, elicitationProblem } from "./elicitation.ts";
import { type Sample, samplingRequest, samplingResult } from "./sampling.ts";

/**
 * The most questions one `input_required` result may ask: each is the user's
 * time or the client's model's, and a server that asks thousands at once is
 * refused before any is asked.
 */
export const MAX_QUESTIONS = 16;

/** How a client answers the questions of an `input_required` result. */
export interface InputAnswers {
  /** Asks the user (`elicitation/create`); without it, the client declares no elicitation. */
  elicit?: Elicit;
  /** Asks the client's model (`sampling/createMessage`); without it, no sampling. */
  sample?: Sample;
  /** The protocol version of the request. */
  version: McpVersion;
}

/**
 * The params of the retry of a request sent with `params` and answered with
 * the `input_required` result `result`: `params` with this round's answers
 * (`inputResponses`) and, if the result had one, its `requestState`. Throws
 * `ProtocolError` for a result that is not well formed or asks what the
 * client did not declare; an answer function that fails rejects with its
 * error, wrapped; a user's answer that does not fit its form, with
 * `FormAnswerError` (`checkedAnswer`): no retry is sent.
 *
 * @example A question answered, and the state echoed as it came
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const result = {
 *   resultType: "input_required",
 *   inputRequests: { user_name: { method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } } },
 *   requestState: "opaque.state",
 * };
 * const elicit = () => Promise.resolve({ action: "accept" as const, content: { name: "Ada" } });
 * const retry = await retryParams({ name: "greet", requestState: "older" }, result, { elicit, version: "2026-07-28" });
 * assert.deepEqual(retry, {
 *   name: "greet",
 *   inputResponses: { user_name: { action: "accept", content: { name: "Ada" } } },
 *   requestState: "opaque.state",
 * });
 * ```
 */
export async function retryParams(
  params: JsonObject,
  result: JsonObject,
  answers: InputAnswers,
): Promise<JsonObject> {
  const { inputRequests, requestState } = result;
  const refused = (why: string) => new ProtocolError(`The input_required result ${why}`);
  if (inputRequests !== undefined && !isObject(inputRequests)) {
    throw refused("has inputRequests that are not an object");
  }
  if (requestState !== undefined && typeof requestState !== "string") {
    throw refused("has a requestState that is not a string");
  }
  if (inputRequests === undefined && requestState === undefined) {
    throw refused("has neither inputRequests nor a requestState");
  }
  const asked = Object.keys(inputRequests ?? {}).length;
  if (asked > MAX_QUESTIONS) {
    throw refused(`asks ${asked} questions at once; this client answers at most ${MAX_QUESTIONS}`);
  }
  const responses: JsonObject = {};
  for (const [key, request] of Object.entries(inputRequests ?? {})) {
    if (!isObject(request) || typeof request.method !== "string") {
      throw refused(`asks ${key} with no method`);
    }
    const asked = isObject(request.params) ? request.params : {};
    responses[key] = await answer(key, request.method, asked, answers, refused);
  }
  const { inputResponses: _, requestState: __, ...original } = params;
  return {
    ...original,
    ...(inputRequests === undefined ? {} : { inputResponses: responses }),
    ...(requestState === undefined ? {} : { requestState }),
  };
}

/** The client's answer to the question `key` (`method` with `params`). */
async function answer(
  key: string,
  method: string,
  params: JsonObject,
  answers: InputAnswers,
  refused: (why: string) => ProtocolError,
): Promise<JsonObject> {
  const { elicit, sample, version } = answers;
  switch (method) {
    case "elicitation/create": {
      if (elicit === undefined) {
        throw refused(`asks ${key} (elicitation), which this client did not declare`);
      }
      const problem = elicitationProblem(params);
      if (problem !== undefined) throw refused(`asks ${key}, which ${problem}`);
      return checkedAnswer(params.requestedSchema, await elicit(params));
    }
    case "sampling/createMessage": {
      if (sample === undefined) {
        throw refused(`asks ${key} (sampling), which this client did not declare`);
      }
      const checked = samplingRequest(params, version);
      if (typeof checked === "string") throw refused(`asks ${key}, whose ${checked}`);
      try {
        return samplingResult(await sample(checked, { signal: new AbortController().signal }));
      } catch (error) {
        const said = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        throw new Error(`The client's model failed on ${key}: ${said}`, { cause: error });
      }
    }
  }
  throw refused(`asks ${key} (${method}), which this client did not declare`);
}
