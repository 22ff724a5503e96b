/**
 * What a `Client` (in `client.ts`) can be given: the server it reaches (a
 * command, an MCP endpoint's URL, or a transport), what closing it gives for
 * each, and its options.
 *
 * @module
 */

import type { SseData } from "../shared/sse.ts";
import type { McpVersion } from "../shared/versions.ts";
import type { Authorize } from "./tool_call.ts";
import type { ClientTransport } from "./client_transport.ts";
import type { ConnectionOptions } from "./connection_options.ts";
import type { SessionEnd } from "./http_transport.ts";
import type { LogMessage } from "./server_news.ts";

/** Options for a `Client`; the connection's and the process's options are passed on. */
export interface ClientOptions extends ConnectionOptions {
  /** The tools the operator allows. @default {[]} (nothing is allowed) */
  allowed?: Iterable<string>;
  /**
   * Decides whether a tool may be called. The learners' release withholds
   * the library's (Unit A has you write it): there, pass yours, or no tool is
   * called. @default {authorize}
   */
  authorize?: Authorize;
  /** The most pages `listTools` (and each of the other lists) follows. @default {100} */
  maxPages?: number;
  /**
   * The protocol versions the client speaks, newest first. With a modern one
   * among them (`MCP_VERSIONS`, or `["2026-07-28"]`), `initialize()` probes
   * with `server/discover` first and speaks the newest version both sides
   * speak; with legacy ones only, it performs the handshake, exactly as a
   * 2025 client does (the TypeScript SDK's v2 client defaults the same way).
   * @default {LEGACY_VERSIONS}
   */
  versions?: readonly McpVersion[];
  /**
   * How long a stdio server has to answer the `server/discover` probe before
   * it is taken for a legacy one ("does not respond within a reasonable
   * timeout"). @default {2000}
   */
  probeMs?: number;
  /** The most rounds of one multi round-trip request (2026-07-28). @default {8} */
  maxRounds?: number;
  /** Receives the server's log messages (see `setLogLevel`). @default {undefined} (they are dropped) */
  onLog?: (message: LogMessage) => void;
  /**
   * Over Streamable HTTP, reads event streams in place of the library's
   * reader: a learner's own `sseData` (see `HttpTransportOptions.sseData`).
   * The learners' release reads them with nothing else. @default {undefined} (the library's `readSseEvents`)
   */
  sseData?: SseData;
}

/** A server as a client is given it: a command to start (stdio), an MCP endpoint's URL (Streamable HTTP), or a transport. */
export type ServerRef = readonly string[] | URL | ClientTransport<unknown>;

/** What closing a client gives: the server's exit status over stdio, how the session ended over HTTP. */
export type ClosedWith<S extends ServerRef> = S extends ClientTransport<infer Closed> ? Closed
  : S extends URL ? SessionEnd
  : Deno.CommandStatus;
