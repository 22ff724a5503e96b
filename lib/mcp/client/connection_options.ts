/**
 * What a `Connection` (in `connection.ts`) and each of its requests can be given.
 *
 * @module
 */

import type { Elicit } from "./elicitation.ts";
import type { Sample } from "./sampling.ts";
import type { SplitFrames } from "../shared/framing.ts";
import type { ServerProcessOptions } from "./server_process.ts";
import type { JsonRpcResponse, RequestId } from "../shared/jsonrpc.ts";

/**
 * Decides what a response means for the request that waits: returns its
 * result or throws (Unit A's `answerFor` is one). A type of its own, apart
 * from `answer.ts`, which the learners' release withholds.
 */
export type AnswerFunction = (requestId: RequestId, message: JsonRpcResponse) => unknown;

/** Which way a message went: `>` client to server, `<` server to client. */
export type Direction = ">" | "<";

/** Options for a `Connection`; the process options are passed to its server. */
export interface ConnectionOptions extends ServerProcessOptions {
  /** The deadline for each request, in milliseconds. @default {30000} */
  timeoutMs?: number;
  /**
   * The most bytes one incoming frame may take, newline included, as
   * `splitFrames` enforces it (the learners' release's default, Unit B's
   * starter, does not: pass yours). @default {65536}
   */
  limit?: number;
  /**
   * Decides whether a reply answers the waiting request. The learners'
   * release withholds the library's (Unit A has you write it): there, pass
   * yours, or the first reply is refused. @default {answerFor}
   */
  answer?: AnswerFunction;
  /** Splits incoming bytes into frames, holding them to `limit`. @default {splitFrames} */
  splitFrames?: SplitFrames;
  /** Receives every message on the wire, as sent or received, one line each. @default {undefined} */
  transcript?: (direction: Direction, line: string) => void;
  /**
   * The most bytes written to the server that it may leave unread; past
   * this, it is no longer trusted, and is closed. Each message waiting costs
   * its bytes and about 700 more of bookkeeping (the stream's queue, its
   * promise), so 256 KiB of small replies hold a few MB. @default {262144}
   */
  maxUnread?: number;
  /**
   * How many requests may be in flight at once; more wait their turn. With
   * one (the default, as Lab 02's rule), every reply is handed to the answer
   * function with the request that waits; with more, each reply goes to the
   * request with exactly its id. @default {1}
   */
  maxInFlight?: number;
  /**
   * Answers the server's `elicitation/create`; with it, the client declares
   * the `elicitation` capability. An answer that does not fit the form is
   * not sent: each request waiting fails with `FormAnswerError`
   * (`checkedAnswer`) and is cancelled, since the server's question names
   * none of them (one, with `maxInFlight` 1); with none waiting, only the
   * server hears of it, by -32603. @default {undefined} (it is "method not found")
   */
  elicit?: Elicit;
  /**
   * Answers the server's `sampling/createMessage` with the client's model;
   * with it, the client declares the `sampling` capability.
   * @default {undefined} (it is "method not found")
   */
  sample?: Sample;
}

/** Options for one `Connection.request`. */
export interface RequestOptions {
  /** Whether a timeout sends `notifications/cancelled` (never for `initialize`). @default {true} */
  cancellable?: boolean;
  /**
   * When the deadline passes, on the `performance.now()` clock, if it was
   * set before the request (when `callTool` was entered). @default {`timeoutMs` from sending}
   */
  deadline?: number;
  /**
   * Whether a JSON-RPC error that answers this very request (its id, exactly)
   * fails this request alone, and leaves the connection trusted: a probe's
   * answer, which may well be an error. @default {false} (any refused reply
   * distrusts the connection)
   */
  errorIsAnswer?: boolean;
  /** Headers the request carries besides its body (Streamable HTTP only). @default {{}} */
  headers?: Record<string, string>;
  /**
   * This request's deadline, in milliseconds from sending, when it is not
   * the connection's: the handshake with a server that is just starting may
   * need longer than the calls a lesson times. @default {the connection's `timeoutMs`}
   */
  timeoutMs?: number;
}
