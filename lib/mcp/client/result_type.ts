/**
 * A modern result's `resultType`, as a client reads it: "All results now
 * carry a required `resultType` field", "A `resultType` of any value
 * unrecognized by the client MUST be considered invalid", and "Servers MUST
 * NOT send `InputRequiredResult` responses on any other client requests"
 * than `tools/call`, `prompts/get` and `resources/read`. ("Clients MUST
 * treat results from earlier-protocol servers that omit the field as
 * `complete`": the legacy era's results, which are never read for it.)
 *
 * @module
 */

import type { JsonObject } from "../shared/jsonrpc.ts";
import type { McpVersion } from "../shared/versions.ts";

/** The requests a server may answer `input_required`. */
const MULTI_ROUND = new Set(["tools/call", "prompts/get", "resources/read"]);

/**
 * Why `result`, the modern result of `method` at `version`, cannot be
 * taken for its `resultType`, if it cannot: none (every result of the
 * modern era carries one), one `version` does not define, or
 * `input_required` for a request that may not be answered so.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(resultTypeProblem("tools/list", { tools: [], resultType: "complete" }, "2026-07-28"), undefined);
 * assert.match(resultTypeProblem("tools/list", { tools: [] }, "2026-07-28")!, /has no resultType/);
 * assert.match(resultTypeProblem("tools/list", { resultType: "input_required" }, "2026-07-28")!, /only tools\/call/);
 * ```
 */
export function resultTypeProblem(
  method: string,
  result: JsonObject,
  version: McpVersion,
): string | undefined {
  const type = result.resultType;
  if (type === undefined) {
    return `The result of ${method} has no resultType, which ${version} requires of every result`;
  }
  if (type === "complete") return undefined;
  if (type !== "input_required") {
    return `The result of ${method} has the resultType ${
      JSON.stringify(type)
    }, which ${version} does not define`;
  }
  if (!MULTI_ROUND.has(method)) {
    return `The result of ${method} is input_required, which only ${
      [...MULTI_ROUND].join(", ")
    } may be`;
  }
  return undefined;
}
