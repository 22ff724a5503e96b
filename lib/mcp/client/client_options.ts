/**
 * What a `Client` (in `client.ts`) can be given: the server it reaches (a
 * command, an MCP endpoint's URL, or a transport), what closing it gives for
 * each, and its options.
 *
 * @module
 */

import type { Authorize } from "./allowlist.ts";
import type { ClientTransport } from "./client_transport.ts";
import type { ConnectionOptions } from "./connection_options.ts";
import type { SessionEnd } from "./http_transport.ts";

/** Options for a `Client`; the connection's and the process's options are passed on. */
export interface ClientOptions extends ConnectionOptions {
  /** The tools the operator allows. @default {[]} (nothing is allowed) */
  allowed?: Iterable<string>;
  /** Decides whether a tool may be called. @default {authorize} */
  authorize?: Authorize;
  /** The most pages `listTools` (and each of the other lists) follows. @default {100} */
  maxPages?: number;
}

/** A server as a client is given it: a command to start (stdio), an MCP endpoint's URL (Streamable HTTP), or a transport. */
export type ServerRef = readonly string[] | URL | ClientTransport<unknown>;

/** What closing a client gives: the server's exit status over stdio, how the session ended over HTTP. */
export type ClosedWith<S extends ServerRef> = S extends ClientTransport<infer Closed> ? Closed
  : S extends URL ? SessionEnd
  : Deno.CommandStatus;
