/**
 * The content items MCP 2025-06-18 defines (text, image, audio, resource
 * links and embedded resources, in tool results and prompt messages) and the
 * contents of a resource: their types, and each one checked to its type.
 *
 * @module
 */

import { isObject, type JsonObject } from "./jsonrpc.ts";

/** Who a piece of content is for, and how much it matters (hints, never instructions). */
export interface Annotations {
  audience?: ("user" | "assistant")[];
  /** From 0 (entirely optional) to 1 (effectively required). */
  priority?: number;
  /** An ISO 8601 time, such as `2025-01-12T15:00:58Z`. */
  lastModified?: string;
}

/** A text. */
export interface TextContent {
  type: "text";
  text: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

/** An image or a sound, base64-encoded. */
export interface MediaContent {
  type: "image" | "audio";
  /** The bytes, in base64 (RFC 4648, padded). */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

/** A resource a server lists (`resources/list`), or links to from a result. */
export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** The size of the raw contents, in bytes. */
  size?: number;
  annotations?: Annotations;
  _meta?: JsonObject;
}

/** A link to a resource the client may read (not always one that `resources/list` lists). */
export interface ResourceLink extends Resource {
  type: "resource_link";
}

/** The contents of a resource: a text, or bytes as a base64 `blob`. */
export type ResourceContents =
  & { uri: string; mimeType?: string; _meta?: JsonObject }
  & ({ text: string } | { blob: string });

/** A resource's contents, carried inside a result. */
export interface EmbeddedResource {
  type: "resource";
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: JsonObject;
}

/** One content item of a tool result or a prompt message. */
export type ContentBlock = TextContent | MediaContent | ResourceLink | EmbeddedResource;

/** Resources a server can read, named by a URI template (RFC 6570), such as `file:///{path}`. */
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

/** The string fields of an item or a descriptor: those it must have, and those it may. */
interface Strings {
  strings: string[];
  optional: string[];
}

const DESCRIBED = ["title", "description", "mimeType"];

/** Each type of item, and its string fields beside `type`. */
const FIELDS: Record<string, Strings> = {
  text: { strings: ["text"], optional: [] },
  image: { strings: ["data", "mimeType"], optional: [] },
  audio: { strings: ["data", "mimeType"], optional: [] },
  resource_link: { strings: ["uri", "name"], optional: DESCRIBED },
  resource: { strings: [], optional: [] },
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Whether `text` is base64 as RFC 4648 defines it: its alphabet, padded with
 * `=` to a multiple of four characters, and nothing else (no white space).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(isBase64("aGk="));
 * assert.ok(!isBase64("aGk"));
 * assert.ok(!isBase64("not base64!"));
 * ```
 */
export function isBase64(text: string): boolean {
  return text.length % 4 === 0 && BASE64.test(text);
}

/**
 * What is wrong with the content item `item`, as the end of a sentence that
 * begins with where it is (`content[0] is …`); `undefined` when it is well
 * formed. Each of the five types must carry its fields as strings (a text's
 * `text`; an image's or audio's base64 `data` and `mimeType`; a resource
 * link's `uri` and `name`), an embedded resource its `resource`, with a
 * `uri` and a `text` or a base64 `blob` (see
 * {@linkcode resourceContentsProblem}). The fields it may have must have
 * their types: a link's `title`, `description` and `mimeType` strings and
 * its `size` a number; `_meta` an object; `annotations` an object whose
 * `audience` lists only `"user"` and `"assistant"`, whose `priority` is a
 * number from 0 to 1, and whose `lastModified` is a string. Fields the
 * specification does not name are allowed.
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
  if (typeof type !== "string" || !Object.hasOwn(FIELDS, type)) {
    return `of the type ${JSON.stringify(type)}, which MCP 2025-06-18 does not define`;
  }
  const what = `${type === "image" || type === "audio" ? "an" : "a"} ${type} item`;
  const problem = type === "resource_link"
    ? resourceProblem(item)
    : fieldsProblem(item, FIELDS[type]) ?? annotationsProblem(item.annotations) ??
      ((type === "image" || type === "audio") && !isBase64(item.data as string)
        ? `whose "data" is not base64`
        : undefined);
  if (problem !== undefined) return `${what} ${problem}`;
  if (type !== "resource") return undefined;
  if (!isObject(item.resource)) return 'an embedded resource without a "resource" object';
  const inner = resourceContentsProblem(item.resource);
  return inner === undefined ? undefined : `an embedded resource ${inner}`;
}

/**
 * What is wrong with the contents of a resource (an item of a
 * `resources/read` result's `contents`, or an embedded resource's
 * `resource`), as the end of a sentence; `undefined` when they are well
 * formed: a string `uri`, a string `text` or else a base64 `blob`, a
 * `mimeType` that is a string if it is there, and `_meta` an object.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(resourceContentsProblem({ uri: "file:///a.txt", text: "4" }), undefined);
 * assert.equal(
 *   resourceContentsProblem({ uri: "file:///a.bin", blob: "not base64!" }),
 *   'with neither a "text" nor a base64 "blob"',
 * );
 * ```
 */
export function resourceContentsProblem(contents: JsonObject): string | undefined {
  const problem = fieldsProblem(contents, { strings: ["uri"], optional: ["mimeType"] });
  if (problem !== undefined) return problem;
  if (typeof contents.text === "string") return undefined;
  if (typeof contents.blob === "string" && isBase64(contents.blob)) return undefined;
  return 'with neither a "text" nor a base64 "blob"';
}

/**
 * What is wrong with a resource as a server lists it or links to it (or,
 * with `template`, a resource template), as the end of a sentence;
 * `undefined` when it is well formed: a string `uri` (a template's
 * `uriTemplate`) and `name`, a `title`, `description` and `mimeType` that
 * are strings, a `size` that is a number (not a template's), and
 * `annotations` and `_meta` as {@linkcode contentProblem} checks them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(resourceProblem({ uri: "memory://graph", name: "graph" }), undefined);
 * assert.equal(
 *   resourceProblem({ uri: "memory://graph", name: "graph", size: "1 KB" }),
 *   'whose "size" is not a number: "1 KB"',
 * );
 * assert.equal(resourceProblem({ uriTemplate: "demo://{id}", name: "d" }, { template: true }), undefined);
 * ```
 */
export function resourceProblem(
  resource: JsonObject,
  { template = false }: { template?: boolean } = {},
): string | undefined {
  const strings = [template ? "uriTemplate" : "uri", "name"];
  return fieldsProblem(resource, { strings, optional: DESCRIBED }) ??
    annotationsProblem(resource.annotations) ??
    (!template && "size" in resource && typeof resource.size !== "number"
      ? `whose "size" is not a number: ${JSON.stringify(resource.size)}`
      : undefined);
}

/** The first of `item`'s named fields whose type is wrong, and its `_meta` if that is not an object. */
function fieldsProblem(item: JsonObject, { strings, optional }: Strings): string | undefined {
  for (const field of [...strings, ...optional]) {
    if (!strings.includes(field) && !(field in item)) continue;
    if (typeof item[field] !== "string") {
      return `whose "${field}" is not a string: ${JSON.stringify(item[field]) ?? "nothing"}`;
    }
  }
  if ("_meta" in item && !isObject(item._meta)) return 'whose "_meta" is not an object';
  return undefined;
}

function annotationsProblem(annotations: unknown): string | undefined {
  if (annotations === undefined) return undefined;
  if (!isObject(annotations)) return 'whose "annotations" is not an object';
  const { audience, priority, lastModified } = annotations;
  if (
    audience !== undefined &&
    !(Array.isArray(audience) && audience.every((role) => role === "user" || role === "assistant"))
  ) {
    return `whose annotations' audience is not a list of "user" and "assistant": ${
      JSON.stringify(audience)
    }`;
  }
  if (
    priority !== undefined && !(typeof priority === "number" && priority >= 0 && priority <= 1)
  ) {
    return `whose annotations' priority is not a number from 0 to 1: ${JSON.stringify(priority)}`;
  }
  if (lastModified !== undefined && typeof lastModified !== "string") {
    return `whose annotations' lastModified is not a string: ${JSON.stringify(lastModified)}`;
  }
  return undefined;
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
