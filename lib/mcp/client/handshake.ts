/**
 * The client's side of MCP's handshake: the protocol version it offers (the
 * newest it speaks) and the name it gives, what it refuses in the server's
 * `initialize` result (a version it does not speak), the version agreed,
 * and what the server offers from then on, which every later method checks
 * before it sends anything.
 *
 * @module
 */

import { ProtocolError } from "../shared/errors.ts";
import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { isMcpVersion, LATEST_VERSION, MCP_VERSIONS, type McpVersion } from "../shared/versions.ts";

/** How the client names itself in the handshake (the version is the course's, in `deno.json`). */
export const CLIENT_INFO = { name: "external-tools-with-mcp", version: "0.1.0" } as const;

/** The protocol version this client offers: the newest it speaks (it accepts any of `MCP_VERSIONS`). */
export const PROTOCOL_VERSION: McpVersion = LATEST_VERSION;

/** What a server may offer, as its `initialize` result's capabilities name them. */
export type Capability = "tools" | "resources" | "prompts";

/**
 * What the handshake settled: nothing until the server's `initialize` result
 * is accepted, then the capabilities it declared.
 *
 * @example A server that offers tools and nothing else
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const handshake = new Handshake();
 * assert.throws(() => handshake.require("listTools", "tools"), /Call initialize\(\) before listTools\(\)/);
 * assert.match(handshake.accept({ protocolVersion: "2024-10-07", capabilities: {} })!, /speaks 2025-11-25, /);
 * assert.equal(handshake.accept({ protocolVersion: "2024-11-05", capabilities: { tools: {} } }), undefined);
 * assert.equal(handshake.version, "2024-11-05");
 * handshake.require("listTools", "tools");
 * assert.throws(() => handshake.require("listPrompts", "prompts"), /offers no prompts/);
 * ```
 */
export class Handshake {
  #capabilities?: JsonObject;
  #version?: McpVersion;

  /** The protocol version agreed, once the server's result is accepted. */
  get version(): McpVersion | undefined {
    return this.#version;
  }

  /**
   * Take the server's `initialize` result `result`; or say why it cannot be
   * taken (it answers with a protocol version this client does not speak, or
   * with capabilities that are not an object), and take nothing. A server
   * need not offer tools.
   */
  accept(result: JsonObject): string | undefined {
    if (!isMcpVersion(result.protocolVersion)) {
      return `The server answered with protocol version ${
        JSON.stringify(result.protocolVersion)
      }; this client speaks ${MCP_VERSIONS.join(", ")}`;
    }
    if (!isObject(result.capabilities)) {
      return `The server's capabilities are not an object: ${JSON.stringify(result.capabilities)}`;
    }
    this.#capabilities = result.capabilities;
    this.#version = result.protocolVersion;
    return undefined;
  }

  /**
   * Throw unless the handshake is done, and, with `capability`, unless the
   * server offers it (a `ProtocolError`: `method` would only fail there).
   */
  require(method: string, capability?: Capability): void {
    if (this.#capabilities === undefined) throw new Error(`Call initialize() before ${method}()`);
    if (capability !== undefined && !isObject(this.#capabilities[capability])) {
      throw new ProtocolError(
        `The server offers no ${capability}: its capabilities lack \`${capability}\`, so ` +
          `${method}() sends nothing`,
      );
    }
  }
}
