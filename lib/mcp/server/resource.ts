/**
 * Resources as a server holds them: each one a URI, what it advertises in
 * `resources/list`, and a function that reads it; and resource templates,
 * whose URIs (RFC 6570, `{name}` variables) stand for many resources, read
 * by one function given the variables.
 *
 * @module
 */

import type { JsonObject } from "../shared/jsonrpc.ts";
import { describeError } from "../shared/errors.ts";
import { ERROR_CODES, failure, success } from "./replies.ts";

/** What reading a resource gives: a text, or bytes (sent as a base64 `blob`). */
export type ResourceBody = { text: string } | { bytes: Uint8Array };

/** How a resource, or a template of them, describes itself. */
interface Described {
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** One resource a server offers. */
export interface ServerResource extends Described {
  uri: string;
  /** Reads it; a read that throws is answered with JSON-RPC's "internal error". */
  read(): ResourceBody;
}

/** Resources a server offers under a URI template, such as `grammar://verbs/{verb}`. */
export interface ServerResourceTemplate extends Described {
  /**
   * The template: text and `{name}` variables (RFC 6570's simple strings);
   * each variable matches one non-empty, percent-decoded part of a URI
   * without `/`, `?` or `#`.
   */
  uriTemplate: string;
  /** Reads the resource the variables name, or `undefined` when there is no such resource. */
  read(variables: Record<string, string>, uri: string): ResourceBody | undefined;
}

/** The resources of a server, for `resources/read`. */
export interface ResourceSources {
  resources?: readonly ServerResource[];
  resourceTemplates?: readonly ServerResourceTemplate[];
}

/**
 * How a resource or a template is advertised: everything but its function.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const rules = { uri: "grammar://rules", name: "rules", mimeType: "text/plain", read: () => ({ text: "" }) };
 * assert.deepEqual(advertisedResource(rules), { uri: "grammar://rules", name: "rules", mimeType: "text/plain" });
 * ```
 */
export function advertisedResource(resource: ServerResource | ServerResourceTemplate): JsonObject {
  const { read: _, ...described } = resource;
  return described;
}

/**
 * The `resources/read` result for `uri`: the resource with that URI, else the
 * first template that matches it and has such a resource, as one item of
 * `contents` with its URI, MIME type and text or base64 blob; `undefined`
 * when no resource has that URI. Throws what a read function throws, and
 * `TypeError` for a template this server cannot read (see
 * {@linkcode templateVariables}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const resourceTemplates = [{
 *   uriTemplate: "demo://note/{id}",
 *   name: "note",
 *   mimeType: "text/plain",
 *   read: ({ id }: Record<string, string>) => (id === "1" ? { text: "first" } : undefined),
 * }];
 * assert.deepEqual(readResult({ resourceTemplates }, "demo://note/1"), {
 *   contents: [{ uri: "demo://note/1", mimeType: "text/plain", text: "first" }],
 * });
 * assert.equal(readResult({ resourceTemplates }, "demo://note/2"), undefined);
 * ```
 */
export function readResult(sources: ResourceSources, uri: string): JsonObject | undefined {
  const resource = sources.resources?.find((resource) => resource.uri === uri);
  if (resource !== undefined) return contents(uri, resource.mimeType, resource.read());
  for (const template of sources.resourceTemplates ?? []) {
    const variables = templateVariables(template.uriTemplate, uri);
    if (variables === undefined) continue;
    const body = template.read(variables, uri);
    if (body !== undefined) return contents(uri, template.mimeType, body);
  }
  return undefined;
}

/**
 * The variables of `uri` under the template `uriTemplate`, or `undefined`
 * when it does not match. Throws `TypeError` for an expression other than
 * a simple `{name}`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(templateVariables("demo://{kind}/{id}", "demo://text/caf%C3%A9"), { kind: "text", id: "café" });
 * assert.equal(templateVariables("demo://{kind}/{id}", "demo://text/a/b"), undefined);
 * assert.throws(() => templateVariables("file:///{+path}", "file:///a"), TypeError);
 * ```
 */
export function templateVariables(
  uriTemplate: string,
  uri: string,
): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = uriTemplate.split(/(\{[^}]*\})/).map((part) => {
    const variable = /^\{([A-Za-z0-9_]+)\}$/.exec(part);
    if (variable !== null) {
      names.push(variable[1]);
      return "([^/?#]+)";
    }
    if (part.includes("{") || part.includes("}")) {
      throw new TypeError(`The URI template ${uriTemplate} has ${part}: only {name} is read`);
    }
    return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }).join("");
  const match = new RegExp(`^${pattern}$`).exec(uri);
  if (match === null) return undefined;
  try {
    return Object.fromEntries(
      names.map((name, index) => [name, decodeURIComponent(match[index + 1])]),
    );
  } catch {
    return undefined; // a malformed percent-encoding names no resource
  }
}

/**
 * The reply to the `resources/read` request `id` with `params`: the contents
 * (see {@linkcode readResult}), or "invalid params" for a missing URI or
 * ("Resource not found", with the URI as its data) one no resource has, or
 * "internal error" for a read that failed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const reply = readReply(1, { uri: "demo://none" }, { resources: [] });
 * assert.deepEqual(reply.error, { code: -32602, message: "Resource not found", data: { uri: "demo://none" } });
 * ```
 */
export function readReply(
  id: string | number,
  params: JsonObject,
  sources: ResourceSources,
): JsonObject {
  const { uri } = params;
  if (typeof uri !== "string") {
    return failure(id, ERROR_CODES.invalidParams, "Invalid params: the resource's uri is missing");
  }
  let result: JsonObject | undefined;
  try {
    result = readResult(sources, uri);
  } catch (error) {
    return failure(id, ERROR_CODES.internalError, `Could not read ${uri}: ${describeError(error)}`);
  }
  if (result === undefined) {
    return failure(id, ERROR_CODES.invalidParams, "Resource not found", { uri });
  }
  return success(id, result);
}

/** A `resources/read` result of one item. */
function contents(uri: string, mimeType: string | undefined, body: ResourceBody): JsonObject {
  const item: JsonObject = { uri, ...(mimeType === undefined ? {} : { mimeType }) };
  if ("text" in body) item.text = body.text;
  else item.blob = base64(body.bytes);
  return { contents: [item] };
}

/** `bytes` in base64, a chunk at a time (no spread of a long array into one call). */
function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}
