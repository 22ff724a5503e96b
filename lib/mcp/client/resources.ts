/**
 * A server's resources as the client takes them: every page of
 * `resources/list` and `resources/templates/list`, each resource checked,
 * and a `resources/read` result checked before its contents are given back.
 *
 * @module
 */

import {
  type Resource,
  type ResourceContents,
  resourceContentsProblem,
  resourceProblem,
  type ResourceTemplate,
} from "../shared/content.ts";
import { ProtocolError } from "../shared/errors.ts";
import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { collectPages, type FetchPage } from "./pages.ts";

/**
 * Every resource on every page of `resources/list`, by URI (see
 * `collectPages` for the bounds). Throws `ProtocolError` for a resource that
 * is not well formed (see `resourceProblem`) or a URI listed twice.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const page = { resources: [{ uri: "memory://graph", name: "graph", mimeType: "application/json" }] };
 * const resources = await collectResources(async () => page, 10);
 * assert.equal(resources["memory://graph"].mimeType, "application/json");
 * ```
 */
export function collectResources(
  fetchPage: FetchPage,
  maxPages: number,
): Promise<Record<string, Resource>> {
  return collectPages<Resource>(fetchPage, {
    method: "resources/list",
    field: "resources",
    noun: "resource",
    problem: (item) => isObject(item) ? resourceProblem(item) : "that is not an object",
    key: (resource) => resource.uri,
  }, maxPages);
}

/**
 * Every resource template on every page of `resources/templates/list`, by
 * its URI template. Throws `ProtocolError` as {@linkcode collectResources}
 * does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const page = { resourceTemplates: [{ uriTemplate: "demo://text/{id}", name: "text" }] };
 * const templates = await collectResourceTemplates(async () => page, 10);
 * assert.deepEqual(Object.keys(templates), ["demo://text/{id}"]);
 * ```
 */
export function collectResourceTemplates(
  fetchPage: FetchPage,
  maxPages: number,
): Promise<Record<string, ResourceTemplate>> {
  return collectPages<ResourceTemplate>(fetchPage, {
    method: "resources/templates/list",
    field: "resourceTemplates",
    noun: "resource template",
    problem: (item) =>
      isObject(item) ? resourceProblem(item, { template: true }) : "that is not an object",
    key: (template) => template.uriTemplate,
  }, maxPages);
}

/**
 * The contents of the `resources/read` result `result` for `uri`, each one
 * checked (see `resourceContentsProblem`: a string `uri`, and a `text` or a
 * base64 `blob`). Throws `ProtocolError` saying what is wrong: no `contents`
 * list, `_meta` that is not an object, or contents that are not well formed.
 * An empty list is given back as it is: MCP 2025-06-18 does not forbid one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const result = { contents: [{ uri: "demo://blob/1", mimeType: "text/plain", blob: "aGk=" }] };
 * assert.deepEqual(checkReadResult("demo://blob/1", result), result.contents);
 * assert.throws(() => checkReadResult("demo://blob/1", { contents: [{ uri: "demo://blob/1" }] }), /neither a "text" nor/);
 * ```
 */
export function checkReadResult(uri: string, result: JsonObject): ResourceContents[] {
  const problem = readProblem(result);
  if (problem !== undefined) {
    throw new ProtocolError(`The resources/read result for ${uri} is malformed: ${problem}`);
  }
  return result.contents as ResourceContents[];
}

function readProblem(result: JsonObject): string | undefined {
  if ("_meta" in result && !isObject(result._meta)) return 'its "_meta" is not an object';
  if (!Array.isArray(result.contents)) return "it has no contents list";
  for (const [index, contents] of result.contents.entries()) {
    if (!isObject(contents)) return `contents[${index}] is not an object`;
    const problem = resourceContentsProblem(contents);
    if (problem !== undefined) return `contents[${index}] is resource contents ${problem}`;
  }
  return undefined;
}
