/**
 * A Streamable HTTP server's check of a modern request's headers against
 * its body ("Servers that process the request body MUST reject requests
 * where the values specified in the headers do not match the corresponding
 * values in the request body"): `MCP-Protocol-Version` against `_meta`,
 * `Mcp-Method` against the method, `Mcp-Name` against the name or URI, and
 * each `Mcp-Param-{Name}` a tool's schema asks for against its argument, each
 * header required where its value is present, and decoded from Base64 where
 * it was sent so. A mismatch is refused with 400 and `HeaderMismatch`
 * (-32020).
 *
 * @module
 */

import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { headerParameters, headerText, NAMED_BY, parameterHeaders } from "../shared/mcp_headers.ts";
import { declaredVersion } from "../shared/meta.ts";

/** The tool schemas a server checks `Mcp-Param-*` headers against, by tool name. */
export type InputSchemas = (name: string) => JsonObject | undefined;

/**
 * Why the headers of `request` do not match `message`, its body, or
 * `undefined` when they do. `schemaOf` gives a tool's input schema, for its
 * `x-mcp-header` arguments.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
 * const message = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_weather", _meta } };
 * const request = (headers: Record<string, string>) => new Request("http://127.0.0.1/mcp", { method: "POST", headers });
 * const right = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "get_weather" };
 * assert.equal(headerMismatch(request(right), message, () => undefined), undefined);
 * assert.match(headerMismatch(request({ ...right, "mcp-name": "other" }), message, () => undefined)!, /Mcp-Name is "other"/);
 * ```
 */
export function headerMismatch(
  request: Request,
  message: JsonObject,
  schemaOf: InputSchemas,
): string | undefined {
  const method = String(message.method);
  const params = isObject(message.params) ? message.params : {};
  const version = declaredVersion(params);
  const sent = (name: string) => request.headers.get(name)?.trim();
  const compare = (header: string, expected: string, what: string) => {
    const value = sent(header.toLowerCase());
    if (value === undefined) {
      return `Header mismatch: ${header} is missing (the body's ${what} is ${
        JSON.stringify(expected)
      })`;
    }
    const text = headerText(value);
    if (text === undefined) return `Header mismatch: ${header} is not plain ASCII or valid Base64`;
    if (text !== expected) {
      return `Header mismatch: ${header} is ${JSON.stringify(text)}, the body's ${what} is ${
        JSON.stringify(expected)
      }`;
    }
    return undefined;
  };
  const versionHeader = sent("mcp-protocol-version");
  if (versionHeader === undefined) return "Header mismatch: MCP-Protocol-Version is missing";
  if (typeof version === "string" && versionHeader !== version) {
    return `Header mismatch: MCP-Protocol-Version is ${
      JSON.stringify(versionHeader)
    }, the body's _meta says ${JSON.stringify(version)}`;
  }
  const methodProblem = compare("Mcp-Method", method, "method");
  if (methodProblem !== undefined) return methodProblem;
  const field = NAMED_BY[method];
  const named = field === undefined ? undefined : params[field];
  if (typeof named === "string") {
    const nameProblem = compare("Mcp-Name", named, field);
    if (nameProblem !== undefined) return nameProblem;
  }
  if (method !== "tools/call" || typeof params.name !== "string") return undefined;
  const schema = schemaOf(params.name);
  const parameters = schema === undefined ? [] : headerParameters(schema);
  if (typeof parameters === "string") return undefined; // an invalid tool: its call fails on its own
  const args = isObject(params.arguments) ? params.arguments : {};
  const expected = parameterHeaders(parameters, args);
  for (const { name } of parameters) {
    const header = `mcp-param-${name.toLowerCase()}`;
    const value = expected[header] === undefined ? undefined : headerText(expected[header]);
    if (value !== undefined) {
      const problem = compare(`Mcp-Param-${name}`, value, `argument for ${name}`);
      if (problem !== undefined) return problem;
    } else if (sent(header) !== undefined) {
      return `Header mismatch: Mcp-Param-${name} is sent, but the body has no argument for it`;
    }
  }
  return undefined;
}
