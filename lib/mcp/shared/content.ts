/**
 * The content items of a tool's result, as MCP 2025-06-18 defines them:
 * each one well formed, or a sentence saying what is wrong with it.
 *
 * @module
 */

import { isObject, type JsonObject } from "./jsonrpc.ts";

/** What each type of item must carry, beside `type`: its fields that must be strings. */
const REQUIRED: Record<string, string[]> = {
  text: ["text"],
  image: ["data", "mimeType"],
  audio: ["data", "mimeType"],
  resource_link: ["uri", "name"],
  resource: [],
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * What is wrong with the content item `item`, as the end of a sentence that
 * begins with where it is (`content[0] is …`); `undefined` when it is well
 * formed. Each of the five types must carry its fields as strings (a text's
 * `text`; an image's or audio's base64 `data` and `mimeType`; a resource
 * link's `uri` and `name`), and an embedded resource its `resource`, with a
 * `uri` and a `text` or a base64 `blob`. Other fields are allowed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(contentProblem({ type: "text", text: "4" }), undefined);
 * assert.equal(
 *   contentProblem({ type: "text", text: 42 }),
 *   'a text item whose "text" is not a string: 42',
 * );
 * ```
 */
export function contentProblem(item: unknown): string | undefined {
  if (!isObject(item)) return `not an object: ${JSON.stringify(item)}`;
  const type = item.type;
  if (typeof type !== "string" || !Object.hasOwn(REQUIRED, type)) {
    return `of the type ${JSON.stringify(type)}, which MCP 2025-06-18 does not define`;
  }
  const article = type === "image" || type === "audio" ? "an" : "a";
  for (const field of REQUIRED[type]) {
    if (typeof item[field] !== "string") {
      return `${article} ${type} item whose "${field}" is not a string: ${
        JSON.stringify(item[field]) ?? "nothing"
      }`;
    }
  }
  if ("annotations" in item && !isObject(item.annotations)) {
    return `${article} ${type} item whose "annotations" is not an object`;
  }
  if ((type === "image" || type === "audio") && !BASE64.test(item.data as string)) {
    return `${article} ${type} item whose "data" is not base64`;
  }
  return type === "resource" ? resourceProblem(item.resource) : undefined;
}

function resourceProblem(resource: unknown): string | undefined {
  if (!isObject(resource) || typeof resource.uri !== "string") {
    return 'an embedded resource without a "resource" that has a "uri"';
  }
  if (typeof resource.text === "string") return undefined;
  if (typeof resource.blob === "string" && BASE64.test(resource.blob)) return undefined;
  return 'an embedded resource with neither a "text" nor a base64 "blob"';
}

/**
 * A well-formed item in a few words, for an error message: `text`,
 * `an image (image/png)`, `a resource (file:///answer.txt)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const item = { type: "resource", resource: { uri: "file:///a.txt", text: "4" } };
 * assert.equal(describeContent(item), "a resource (file:///a.txt)");
 * ```
 */
export function describeContent(item: JsonObject): string {
  switch (item.type) {
    case "text":
      return "text";
    case "image":
    case "audio":
      return `an ${item.type} (${item.mimeType})`;
    case "resource_link":
      return `a resource link (${item.uri})`;
    default:
      return `a resource (${(item.resource as JsonObject).uri})`;
  }
}
