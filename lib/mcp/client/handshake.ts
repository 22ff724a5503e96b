/**
 * What a client settles with its server before anything else: in the legacy
 * era, MCP's handshake (the protocol version it offers, the newest legacy
 * one it speaks, and the name it gives; what it refuses in the server's
 * `initialize` result: a version it does not speak); in the modern era, the
 * server's `DiscoverResult` and the version chosen from it. Either way, the
 * version agreed and what the server offers from then on, which every later
 * method checks before it sends anything.
 *
 * @module
 */

import { ProtocolError } from "../shared/errors.ts";
import { isObject, type JsonObject } from "../shared/jsonrpc.ts";
import { type Era, LEGACY_VERSIONS, type McpVersion, versionFeatures } from "../shared/versions.ts";

/** How the client names itself, in the handshake or each modern request (the version is the course's, in `deno.json`). */
export const CLIENT_INFO = { name: "external-tools-with-mcp", version: "0.1.0" } as const;

/** The protocol version the handshake offers by default: the newest legacy version. */
export const PROTOCOL_VERSION: McpVersion = LEGACY_VERSIONS[0];

/** What a server may offer, as its capabilities name them. */
export type Capability = "tools" | "resources" | "prompts" | "completions" | "logging";

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

  /** The era of the version agreed, once agreed. */
  get era(): Era | undefined {
    return this.#version === undefined ? undefined : versionFeatures(this.#version).era;
  }

  /**
   * Take the server's `initialize` result `result`; or say why it cannot be
   * taken (it answers with a protocol version this client does not speak,
   * of those it offers in the handshake, `speaks`, or with capabilities that
   * are not an object), and take nothing. A server need not offer tools.
   */
  accept(result: JsonObject, speaks: readonly McpVersion[] = LEGACY_VERSIONS): string | undefined {
    if (!speaks.includes(result.protocolVersion as McpVersion)) {
      return `The server answered with protocol version ${
        JSON.stringify(result.protocolVersion)
      }; this client speaks ${speaks.join(", ")}`;
    }
    return this.#take(result.capabilities, result.protocolVersion as McpVersion);
  }

  /**
   * Take a modern server's `DiscoverResult` `result`, for the version chosen
   * from it, `version`; or say why it cannot be taken (capabilities that are
   * not an object).
   */
  acceptDiscover(result: JsonObject, version: McpVersion): string | undefined {
    return this.#take(result.capabilities, version);
  }

  #take(capabilities: unknown, version: McpVersion): string | undefined {
    if (!isObject(capabilities)) {
      return `The server's capabilities are not an object: ${JSON.stringify(capabilities)}`;
    }
    this.#capabilities = capabilities;
    this.#version = version;
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
