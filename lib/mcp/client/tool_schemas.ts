/**
 * A tool's schemas compiled before it is called, in bounded time, or
 * refused with a `ProtocolError` saying why they cannot be used.
 *
 * @module
 */

import { ProtocolError } from "../shared/errors.ts";
import { compileSchema } from "../shared/schema.ts";
import type { Tool } from "./tool_list.ts";

/**
 * Compile `tool`'s schemas (once each: `compileSchema` keeps them), or throw
 * a `ProtocolError` saying which cannot be used to check anything, and why.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * compileSchemas({ name: "echo", inputSchema: { type: "object" } });
 * const lookahead = { type: "object", properties: { text: { type: "string", pattern: "^(?=h)" } } };
 * assert.throws(() => compileSchemas({ name: "echo", inputSchema: lookahead }), /inputSchema of echo cannot be checked/);
 * ```
 */
export function compileSchemas(tool: Tool): void {
  for (const which of ["inputSchema", "outputSchema"] as const) {
    const schema = tool[which];
    if (schema === undefined) continue;
    try {
      compileSchema(schema);
    } catch (error) {
      const bound = error instanceof RangeError ? " in bounded time" : "";
      throw new ProtocolError(
        `The ${which} of ${tool.name} cannot be checked${bound}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
}

/**
 * Compile the schemas of the tools in `catalog` that `allowed` names, so that
 * no call's deadline pays for it; one that cannot be compiled is left to be
 * refused, with the same error, when it is called.
 *
 * @example
 * ```ts
 * const catalog = { echo: { name: "echo", inputSchema: { type: "object" } } };
 * compileAllowed(catalog, ["echo", "not_advertised"]);
 * ```
 */
export function compileAllowed(catalog: Record<string, Tool>, allowed: Iterable<string>): void {
  for (const name of allowed) {
    if (!Object.hasOwn(catalog, name)) continue;
    try {
      compileSchemas(catalog[name]);
    } catch {
      // Refused when it is called.
    }
  }
}
