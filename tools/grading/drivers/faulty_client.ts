/**
 * Faulty clients made from a correct one, to grade a test suite as mutation
 * testing does: each {@linkcode Fault} changes what one or two methods of a
 * client class do, and a good test suite fails on every one of them. Faults
 * are data, so that hidden ones travel to the sandbox as hidden cases do.
 *
 * @module
 */

import { ProtocolError, ToolError } from "../../../lib/mcp/shared/errors.ts";

/** A method a fault may change; `dispose` is `[Symbol.asyncDispose]`. */
export type FaultMethod = "initialize" | "listTools" | "callTool" | "close" | "dispose";

/** What a fault does to the methods it changes. */
export type Change =
  | "drop-tools-capability" // initialize: the result's capabilities lose `tools`
  | "return-nothing" // the method runs, and resolves with undefined
  | "drop-last" // listTools: the last tool is lost
  | "duplicate-first" // listTools: the first tool comes twice
  | "rename-last" // listTools: the last tool has the first one's name
  | "as-content" // callTool: the MCP result, content and all, instead of the value
  | "quoted" // callTool: the value as JSON text ("\"ate\"")
  | "rethrow" // an error named `from` is thrown as one named `to`
  | "return-message" // an error named `from` is returned as its message
  | "do-nothing"; // the method does nothing at all

/** One faulty client: which methods change, and how. */
export interface Fault {
  method: FaultMethod | FaultMethod[];
  change: Change;
  /** For `rethrow` and `return-message`: the name of the error caught. */
  from?: string;
  /** For `rethrow`: the name of the error thrown instead. */
  to?: "ProtocolError" | "ToolError" | "Error" | "TypeError";
}

type Run = () => Promise<unknown>;
// deno-lint-ignore no-explicit-any
type AnyClass = new (...args: any[]) => any;

const CHANGES: Record<Change, (run: Run, fault: Fault) => Promise<unknown>> = {
  "drop-tools-capability": async (run) => {
    const result = await run() as { capabilities?: Record<string, unknown> };
    const { tools: _, ...rest } = result.capabilities ?? {};
    return { ...result, capabilities: rest };
  },
  "return-nothing": async (run) => void await run(),
  "drop-last": async (run) => (await run() as unknown[]).slice(0, -1),
  "duplicate-first": async (run) => {
    const tools = await run() as unknown[];
    return [...tools, tools[0]];
  },
  "rename-last": async (run) => {
    const tools = await run() as { name: string }[];
    return [...tools.slice(0, -1), { ...tools.at(-1), name: tools[0].name }];
  },
  "as-content": async (run) => {
    const value = await run();
    const text = typeof value === "string" ? value : JSON.stringify(value);
    return { content: [{ type: "text", text }], isError: false };
  },
  quoted: async (run) => JSON.stringify(await run()),
  rethrow: async (run, fault) => {
    try {
      return await run();
    } catch (error) {
      if ((error as Error)?.name !== fault.from) throw error;
      throw errorNamed(fault.to ?? "Error", (error as Error).message);
    }
  },
  "return-message": async (run, fault) => {
    try {
      return await run();
    } catch (error) {
      if ((error as Error)?.name !== fault.from) throw error;
      return (error as Error).message;
    }
  },
  "do-nothing": () => Promise.resolve(undefined),
};

/**
 * A subclass of `Base` with `fault`'s change to its methods.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * class Lister {
 *   async listTools() { return [{ name: "a" }, { name: "b" }]; }
 * }
 * const Faulty = withFault(Lister, { method: "listTools", change: "drop-last" });
 * assert.deepEqual(await new Faulty().listTools(), [{ name: "a" }]);
 * ```
 */
export function withFault(Base: AnyClass, fault: Fault): AnyClass {
  const change = CHANGES[fault.change];
  if (change === undefined) throw new TypeError(`No such change: ${fault.change}`);
  const Faulty = class extends Base {};
  for (const method of [fault.method].flat()) {
    const key = method === "dispose" ? Symbol.asyncDispose : method;
    const original = Base.prototype[key];
    if (typeof original !== "function") throw new TypeError(`The client has no method ${method}`);
    Object.defineProperty(Faulty.prototype, key, {
      value: function (this: unknown, ...args: unknown[]) {
        return change(() => Promise.resolve(original.apply(this, args)), fault);
      },
      writable: true,
      configurable: true,
    });
  }
  return Faulty;
}

function errorNamed(name: NonNullable<Fault["to"]>, message: string): Error {
  if (name === "ProtocolError") return new ProtocolError(message);
  if (name === "ToolError") return new ToolError(message);
  if (name === "TypeError") return new TypeError(message);
  return new Error(message);
}
