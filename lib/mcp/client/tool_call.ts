/**
 * What a tool call must pass before anything is sent: the tool advertised,
 * allowed, its schemas compiled in bounded time, and the arguments matching
 * its advertised `inputSchema`.
 *
 * @module
 */

import { isWithheld, ProtocolError } from "../shared/errors.ts";
import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { schemaProblems } from "../shared/schema.ts";
import type { Tool } from "./tool_list.ts";
import { compileSchemas } from "./tool_schemas.ts";

/**
 * Whether the tool `name` may be called, given the server's `catalog` and
 * the operator's `allowed` names: the contract of Unit A's `authorize`
 * (`allowlist.ts`, which the learners' release withholds); the negative
 * control passes its own.
 */
export type Authorize = (
  name: string,
  catalog: Readonly<Record<string, unknown>>,
  allowed: ReadonlySet<string>,
) => boolean;

/** What {@linkcode toolToCall} checks a call against. */
export interface ToolCallRules {
  /** The tools the server advertised (`undefined` before `listTools`). */
  catalog: Record<string, Tool> | undefined;
  /** The tools the operator allows. */
  allowed: ReadonlySet<string>;
  /** Decides whether a tool may be called. */
  authorize: Authorize;
  /** Whether the caller gave `authorize` (the Client's option), for what a withheld one is told. @default {false} */
  authorizeGiven?: boolean;
}

/**
 * The tool `name`, to be called with `args`: refused before anything is
 * sent when it was not advertised (`ProtocolError`), is not allowed
 * (`Deno.errors.PermissionDenied`), can only run as a task (2025-11-25's
 * `execution.taskSupport: "required"`: `ProtocolError`, since this client
 * offers no tasks and a plain call would only fail), has schemas that cannot
 * be checked in bounded time (`ProtocolError`), or `args` do not match its
 * `inputSchema` (`ProtocolError` naming each problem). Both schemas are
 * compiled first: a result that cannot be checked is not worth asking for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { authorize } from "./allowlist.ts";
 *
 * const echo = { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } };
 * const rules = { catalog: { echo }, allowed: new Set(["echo"]), authorize };
 * assert.equal(toolToCall("echo", { text: "hi" }, rules), echo);
 * assert.throws(() => toolToCall("echo", { text: 1 }, rules), /do not match its inputSchema/);
 * assert.throws(() => toolToCall("echo", {}, { ...rules, allowed: new Set() }), Deno.errors.PermissionDenied);
 * const task = { ...echo, execution: { taskSupport: "required" } };
 * assert.throws(() => toolToCall("echo", {}, { ...rules, catalog: { echo: task } }), /not called plainly/);
 * ```
 */
export function toolToCall(name: string, args: JsonObject, rules: ToolCallRules): Tool {
  const { catalog, allowed } = rules;
  if (catalog === undefined || !Object.hasOwn(catalog, name)) {
    throw new ProtocolError(
      `The server has not advertised a tool named ${JSON.stringify(name)}${
        catalog === undefined ? " (call listTools() first)" : ""
      }`,
    );
  }
  let permitted: boolean;
  try {
    permitted = rules.authorize(name, catalog, allowed);
  } catch (error) {
    // The learners' release withholds the library's authorize: with nothing to allow a call, none is made.
    if (!isWithheld(error)) throw error;
    // A learner who passed it (lib/mcp/mod.ts still exports it) is not told to pass what they did.
    throw new Deno.errors.PermissionDenied(
      `No tool is called: ${error.message}; ${
        rules.authorizeGiven
          ? "the authorize option you gave is that withheld authorize: give your own, Unit A's"
          : "pass your authorize as the Client's authorize option"
      }`,
    );
  }
  if (!permitted) {
    throw new Deno.errors.PermissionDenied(
      `The tool ${name} is advertised but not allowed; allowed: ${
        [...allowed].sort().join(", ") || "nothing"
      }`,
    );
  }
  const tool = catalog[name];
  if (isObject(tool.execution) && tool.execution.taskSupport === "required") {
    throw new ProtocolError(
      `The tool ${name} requires task-augmented execution (its execution.taskSupport is ` +
        `"required"), which this client does not offer: it is not called plainly`,
    );
  }
  compileSchemas(tool);
  const problems = schemaProblems(tool.inputSchema, args);
  if (problems.length > 0) {
    throw new ProtocolError(
      `Arguments for ${name} do not match its inputSchema: ${problems.join("; ")}`,
    );
  }
  return tool;
}
