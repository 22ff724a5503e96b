/**
 * One round of a multi round-trip request (2026-07-28), as a server's
 * handler sees it: each question it asks the client (`elicitation/create`,
 * `sampling/createMessage`, `roots/list`) is answered from what the client
 * sent back (`inputResponses`) or what earlier rounds sealed in the
 * `requestState`; a question not answered yet ends the round, and the
 * request is answered `input_required`, listing every question the round
 * asked. The handler runs again from the start on the retry, asking the same
 * questions in the same order, and goes further each round: a handler asks
 * what it needs in an order that depends only on what was answered.
 *
 * @module
 */

import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { type McpVersion, versionFeatures } from "../shared/versions.ts";
import { answerProblem, questionProblem } from "./answer_problem.ts";
import { MODERN_ERRORS } from "../shared/modern_errors.ts";
import { ERROR_CODES } from "./replies.ts";
import { RpcError } from "./session_spec.ts";

/** A question to the client: a method and its params, as `inputRequests` holds them. */
export interface InputRequest {
  method: string;
  params: JsonObject;
}

/**
 * What a handler's question rejects with when the client has not answered
 * it yet: the round ends, and the request is answered `input_required`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(new InputRequired("user_name").key, "user_name");
 * ```
 */
export class InputRequired extends Error {
  /** The question `key` is not answered yet. */
  constructor(readonly key: string) {
    super(`The client has not answered ${key} yet: the request needs more input`);
    this.name = "InputRequired";
  }
}

/**
 * The capability a client declares to be asked `method` (with `params`), in
 * a session of `version` (2026-07-28 when not given).
 */
function capabilityFor(method: string, params: JsonObject, version?: McpVersion): JsonObject {
  switch (method) {
    case "elicitation/create":
      return params.mode === "url" ? { elicitation: { url: {} } } : { elicitation: {} };
    case "sampling/createMessage":
      // "Servers MUST NOT send tool-enabled sampling requests to Clients that have not declared … `sampling.tools`"
      // (tools, or a toolChoice: "The client MUST return an error if this field is provided" without it);
      // 2025-11-25 on, they "SHOULD only use [thisServer, allServers] if the client declares … sampling.context".
      return {
        sampling: {
          ...(params.tools === undefined && params.toolChoice === undefined ? {} : { tools: {} }),
          ...(asksContext(params, version) ? { context: {} } : {}),
        },
      };
    case "roots/list":
      return { roots: {} };
  }
  throw new RpcError(ERROR_CODES.internalError, `A server cannot ask its client ${method}`);
}

/** Whether the sampling request `params` asks for context that, in a session of `version`, needs `sampling.context`. */
const asksContext = (params: JsonObject, version?: McpVersion) =>
  ["thisServer", "allServers"].includes(params.includeContext as string) &&
  (version === undefined || versionFeatures(version).samplingCapabilities);

/**
 * The capability a client must have declared to be asked `method` with
 * `params` (elicitation, in its mode; sampling, with tools or not, asking
 * for context or not; roots) in a session of `version`, when `capabilities`
 * lack it; `undefined` when they have it, or `method` needs none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const url = { mode: "url", message: "Sign in", url: "https://example.com" };
 * assert.deepEqual(undeclaredCapability("elicitation/create", url, { elicitation: {} }), { elicitation: { url: {} } });
 * assert.equal(undeclaredCapability("elicitation/create", url, { elicitation: { url: {} } }), undefined);
 * assert.deepEqual(undeclaredCapability("elicitation/create", { message: "Name?" }, { elicitation: { url: {} } }), { elicitation: {} });
 * assert.deepEqual(undeclaredCapability("sampling/createMessage", {}, {}), { sampling: {} });
 * assert.deepEqual(undeclaredCapability("sampling/createMessage", { tools: [] }, { sampling: {} }), { sampling: { tools: {} } });
 * assert.deepEqual(undeclaredCapability("sampling/createMessage", { toolChoice: { mode: "none" } }, { sampling: {} }), { sampling: { tools: {} } });
 * const inContext = { messages: [], maxTokens: 8, includeContext: "thisServer" };
 * assert.deepEqual(undeclaredCapability("sampling/createMessage", inContext, { sampling: {} }, "2025-11-25"), { sampling: { context: {} } });
 * assert.equal(undeclaredCapability("sampling/createMessage", inContext, { sampling: {} }, "2025-06-18"), undefined);
 * assert.equal(undeclaredCapability("ping", {}, {}), undefined);
 * ```
 */
export function undeclaredCapability(
  method: string,
  params: JsonObject,
  capabilities: JsonObject,
  version?: McpVersion,
): JsonObject | undefined {
  if (!ASKABLE.has(method)) return undefined;
  const needed = capabilityFor(method, params, version);
  return declares(capabilities, needed) ? undefined : needed;
}

/** What a server may ask its client, each under a capability. */
const ASKABLE = new Set(["elicitation/create", "sampling/createMessage", "roots/list"]);

/** Whether `capabilities` declare what `needed` names (one capability, and its mode). */
function declares(capabilities: JsonObject, needed: JsonObject): boolean {
  const [name, inner] = Object.entries(needed)[0] as [string, JsonObject];
  const declared = capabilities[name];
  if (!isObject(declared)) return false;
  if (name === "elicitation" && Object.keys(inner).length === 0) {
    // Form mode: "an empty capabilities object is equivalent to declaring support for `form` mode only".
    return Object.keys(declared).length === 0 || isObject(declared.form);
  }
  return Object.keys(inner).every((mode) => isObject(declared[mode]));
}

/**
 * A round of one request: the answers `known` from earlier rounds (sealed,
 * so trusted to be the client's own earlier answers), those `given` now
 * (`inputResponses`, checked when a question asks for them; keys no
 * question asks are ignored, as the specification asks), and the client's
 * declared `capabilities`.
 *
 * @example The first round asks; the retry is answered from `inputResponses`
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const question = { message: "Name?", requestedSchema: { type: "object", properties: {} } };
 * const first = new InputRound({}, {}, { elicitation: {} });
 * await assert.rejects(first.ask("elicitation/create", question, "user_name"), InputRequired);
 * assert.deepEqual(Object.keys(first.missing), ["user_name"]);
 *
 * const retry = new InputRound({}, { user_name: { action: "accept", content: { name: "Ada" } } }, { elicitation: {} });
 * assert.deepEqual(await retry.ask("elicitation/create", question, "user_name"), { action: "accept", content: { name: "Ada" } });
 * assert.deepEqual(retry.missing, {});
 * ```
 */
export class InputRound {
  readonly #known: JsonObject;
  readonly #given: JsonObject;
  readonly #capabilities: JsonObject;
  readonly #missing: Record<string, InputRequest> = {};
  readonly #answered: JsonObject = {};
  readonly #keys = new Set<string>();
  #count = 0;

  /** A round with the answers `known` and `given`, for a client that declared `capabilities`. */
  constructor(known: JsonObject, given: JsonObject, capabilities: JsonObject) {
    this.#known = known;
    this.#given = given;
    this.#capabilities = capabilities;
  }

  /** The questions this round asked that are not answered yet, by key. */
  get missing(): Record<string, InputRequest> {
    return { ...this.#missing };
  }

  /** Every answer this round used, by key: what the next round's state keeps. */
  get answered(): JsonObject {
    return { ...this.#answered };
  }

  /**
   * Ask the client `method` with `params`, under `key` (the server's name
   * for the question: unique within the request; by default the method's
   * first word and the question's number, such as `sampling-1`). Resolves
   * with the client's answer when it has given it; rejects with
   * {@linkcode InputRequired} when it has not, with an `RpcError` of
   * -32021 (`MissingRequiredClientCapabilityError`) when the client did not
   * declare the capability the question needs ("Servers MUST NOT send an
   * `inputRequests` that the client has not declared support for"), of
   * -32603 when the question is not to be asked at all (a form no answer to
   * which could be checked), or of -32602 when its answer is not a result of
   * `method`, or not what the question asked.
   */
  ask(method: string, params: JsonObject, key?: string): Promise<JsonObject> {
    try {
      return Promise.resolve(this.#answer(method, params, key));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #answer(method: string, params: JsonObject, key?: string): JsonObject {
    const name = key ?? `${method.split("/")[0]}-${++this.#count}`;
    if (this.#keys.has(name)) {
      throw new RpcError(ERROR_CODES.internalError, `The question ${name} was asked twice`);
    }
    this.#keys.add(name);
    const needed = capabilityFor(method, params);
    if (!declares(this.#capabilities, needed)) {
      throw new RpcError(
        MODERN_ERRORS.missingRequiredClientCapability,
        `Missing required client capability: ${JSON.stringify(needed)}`,
        { requiredCapabilities: needed },
      );
    }
    const unasked = questionProblem(method, params);
    if (unasked !== undefined) throw new RpcError(ERROR_CODES.internalError, unasked);
    const answer = Object.hasOwn(this.#known, name)
      ? this.#known[name]
      : Object.hasOwn(this.#given, name)
      ? this.#given[name]
      : undefined;
    if (answer === undefined) {
      this.#missing[name] = { method, params };
      throw new InputRequired(name);
    }
    const problem = answerProblem(method, params, answer);
    if (problem !== undefined) {
      throw new RpcError(
        ERROR_CODES.invalidParams,
        `Invalid params: inputResponses.${name} ${problem}, as a ${method} result must`,
      );
    }
    this.#answered[name] = answer;
    return answer as JsonObject;
  }
}
