/**
 * The HTTP headers a modern (2026-07-28) request carries beside its body, so
 * that what routes or inspects it need not parse the body: `Mcp-Method`
 * (every request), `Mcp-Name` (the tool's or prompt's name, or the resource's
 * URI), `MCP-Protocol-Version`, and `Mcp-Param-{Name}` for each tool argument
 * whose schema carries an `x-mcp-header` annotation. A value that is not
 * plain visible ASCII travels as `=?base64?…?=`. The client derives every
 * header from the body; the server checks every header against the body and
 * refuses a request where they differ (`HeaderMismatch`, -32020).
 *
 * @module
 */

import { isObject, type JsonObject } from "./jsonrpc.ts";
import { META } from "./meta.ts";

/** The methods whose `Mcp-Name` header names something, and the param it comes from. */
export const NAMED_BY: Readonly<Record<string, "name" | "uri">> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};

const SENTINEL = /^=\?base64\?(.*)\?=$/s;
const encoder = new TextEncoder();

/**
 * `value` as a header value: itself when it is plain ASCII (visible
 * characters, inner spaces and tabs), otherwise, and whenever it looks like
 * the sentinel itself, "=?base64?" + the Base64 of its UTF-8 + "?=", as the
 * transport's Value Encoding says ("clients MUST use Base64 encoding").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(headerValue("us-west1"), "us-west1");
 * assert.equal(headerValue("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
 * assert.equal(headerValue(" padded "), "=?base64?IHBhZGRlZCA=?=");
 * assert.equal(headerValue("=?base64?literal?="), "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
 * ```
 */
export function headerValue(value: string): string {
  const plain = /^[\x21-\x7E]([\x20-\x7E\t]*[\x21-\x7E])?$/.test(value) && !SENTINEL.test(value);
  if (plain) return value;
  let binary = "";
  for (const byte of encoder.encode(value)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

/**
 * A header's value as the body would hold it: decoded when it is in the
 * Base64 sentinel form; `undefined` when it is neither plain ASCII nor
 * well-formed Base64 of UTF-8 (the server refuses it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(headerText("=?base64?SGVsbG8sIOS4lueVjA==?="), "Hello, 世界");
 * assert.equal(headerText("us-west1"), "us-west1");
 * assert.equal(headerText("=?base64?***?="), undefined);
 * assert.equal(headerText("=?base64?SGVsbG8?="), undefined); // not padded
 * ```
 */
export function headerText(header: string): string | undefined {
  const encoded = SENTINEL.exec(header);
  if (encoded === null) return /^[\x20-\x7E\t]*$/.test(header) ? header : undefined;
  // Base64 as RFC 4648 writes it: its alphabet, padded to whole quanta (atob forgives both).
  if (encoded[1].length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(encoded[1])) return undefined;
  try {
    const bytes = Uint8Array.from(atob(encoded[1]), (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The standard headers of the request `method` with `params`: `Mcp-Method`,
 * `Mcp-Name` when the method names something, and `MCP-Protocol-Version`
 * from `_meta`, each derived from the body as the transport requires.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const params = { name: "get_weather", _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } };
 * assert.deepEqual(standardHeaders("tools/call", params), {
 *   "mcp-method": "tools/call",
 *   "mcp-name": "get_weather",
 *   "mcp-protocol-version": "2026-07-28",
 * });
 * ```
 */
export function standardHeaders(method: string, params: unknown): Record<string, string> {
  const headers: Record<string, string> = { "mcp-method": headerValue(method) };
  const field = NAMED_BY[method];
  const named = field === undefined || !isObject(params) ? undefined : params[field];
  if (typeof named === "string") headers["mcp-name"] = headerValue(named);
  const meta = isObject(params) && isObject(params._meta) ? params._meta : {};
  const version = meta[META.protocolVersion];
  if (typeof version === "string") headers["mcp-protocol-version"] = headerValue(version);
  return headers;
}

/** One tool argument mirrored into a header: its header's name, and its path among the arguments. */
export interface HeaderParameter {
  /** The `x-mcp-header` value: the header is `Mcp-Param-{name}`. */
  name: string;
  /** The chain of `properties` keys from the schema's root to the argument. */
  path: string[];
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ARRAY_OR_COMPOSITION = [
  "items",
  "prefixItems",
  "additionalProperties",
  "patternProperties",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "$defs",
  "definitions",
  "dependentSchemas",
];

/**
 * The arguments of a tool whose `inputSchema` mirrors them into headers
 * (`x-mcp-header`), or why the annotations are invalid, which makes the
 * whole tool invalid ("Clients using the Streamable HTTP transport MUST
 * reject tool definitions where any `x-mcp-header` value violates these
 * constraints"): a name that is empty, not an HTTP token, or not unique
 * (case-insensitively); a property that is not a string, integer or boolean;
 * one not reached through `properties` alone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const schema = { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } };
 * assert.deepEqual(headerParameters(schema), [{ name: "Region", path: ["region"] }]);
 * const number = { type: "object", properties: { n: { type: "number", "x-mcp-header": "N" } } };
 * assert.equal(headerParameters(number), "x-mcp-header N is on a property of type number, not string, integer or boolean");
 * ```
 */
export function headerParameters(inputSchema: JsonObject): HeaderParameter[] | string {
  const found: HeaderParameter[] = [];
  const problems: string[] = [];
  const walk = (schema: unknown, path: string[], reachable: boolean): void => {
    if (!isObject(schema)) return;
    if ("x-mcp-header" in schema) {
      const name = schema["x-mcp-header"];
      if (!reachable) {
        problems.push(
          `x-mcp-header ${JSON.stringify(name)} is not reached through properties alone`,
        );
      } else if (typeof name !== "string" || !TOKEN.test(name)) {
        problems.push(`x-mcp-header ${JSON.stringify(name)} is not an HTTP header token`);
      } else if (!["string", "integer", "boolean"].includes(schema.type as string)) {
        problems.push(
          `x-mcp-header ${name} is on a property of type ${
            JSON.stringify(schema.type ?? "unknown").replaceAll('"', "")
          }, not string, integer or boolean`,
        );
      } else if (found.some((other) => other.name.toLowerCase() === name.toLowerCase())) {
        problems.push(`x-mcp-header ${name} is not unique`);
      } else found.push({ name, path });
    }
    if (isObject(schema.properties)) {
      for (const [key, property] of Object.entries(schema.properties)) {
        walk(property, [...path, key], reachable);
      }
    }
    for (const keyword of ARRAY_OR_COMPOSITION) {
      const under = schema[keyword];
      for (const nested of Array.isArray(under) ? under : isObject(under) ? [under] : []) {
        if (
          keyword === "$defs" || keyword === "definitions" || keyword === "patternProperties" ||
          keyword === "dependentSchemas"
        ) {
          for (const each of Object.values(nested as JsonObject)) walk(each, path, false);
        } else walk(nested, path, false);
      }
    }
  };
  walk(inputSchema, [], true);
  return problems.length > 0 ? problems[0] : found;
}

/**
 * The `Mcp-Param-{Name}` headers of a call with `args` to a tool whose
 * mirrored arguments are `parameters`: one for each argument present and
 * not `null` (a string as it is, an integer in decimal, a boolean as
 * `true`/`false`), each value encoded as {@linkcode headerValue} says.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const parameters = [{ name: "Region", path: ["region"] }, { name: "Tenant", path: ["who", "tenant"] }];
 * assert.deepEqual(parameterHeaders(parameters, { region: "us-west1", who: {} }), { "mcp-param-region": "us-west1" });
 * ```
 */
export function parameterHeaders(
  parameters: readonly HeaderParameter[],
  args: JsonObject,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { name, path } of parameters) {
    const value = valueAt(args, path);
    if (value === undefined || value === null) continue;
    const text = typeof value === "string"
      ? value
      : typeof value === "boolean" || (typeof value === "number" && Number.isInteger(value))
      ? String(value)
      : undefined;
    if (text !== undefined) headers[`mcp-param-${name.toLowerCase()}`] = headerValue(text);
  }
  return headers;
}

/**
 * The value at `path` in `args`, following object keys only (`undefined`
 * when one is missing).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(valueAt({ who: { tenant: "acme" } }, ["who", "tenant"]), "acme");
 * assert.equal(valueAt({ who: [] }, ["who", "0"]), undefined);
 * ```
 */
export function valueAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const key of path) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}
