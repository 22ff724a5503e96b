/**
 * The three ways a tool call can fail that this course teaches. Each class's
 * `name` is its class name, so `error.name` tells them apart in any output.
 *
 * @module
 */

/**
 * A reply that cannot be trusted: a wrong or stale id, bytes that are not
 * JSON or not JSON-RPC 2.0, a frame over the limit, an unsupported protocol
 * version, a JSON-RPC error response, or a server that went away mid-request.
 *
 * @example Refuse a reply that answers another request
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const error = new ProtocolError("reply id 2 does not match request id 1");
 * assert.equal(error.name, "ProtocolError");
 * assert.equal(error.code, undefined);
 * ```
 */
export class ProtocolError extends Error {
  /** The JSON-RPC error code, when the server sent an error response. */
  readonly code?: number;
  /** The JSON-RPC error's `data`, when the server sent one. */
  readonly data?: unknown;

  /** Make a protocol error; `code` and `data` come from a JSON-RPC error response. */
  constructor(message: string, options: ProtocolErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = "ProtocolError";
    this.code = options.code;
    this.data = options.data;
  }
}

/** Options for {@linkcode ProtocolError}. */
export interface ProtocolErrorOptions {
  /** The JSON-RPC error code the server sent. @default {undefined} */
  code?: number;
  /** The JSON-RPC error data the server sent. @default {undefined} */
  data?: unknown;
  /** The error that led to this one. @default {undefined} */
  cause?: unknown;
}

/**
 * A tool ran and reported failure: its result had `isError: true`. The
 * connection is fine; the tool's own text says what went wrong.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const error = new ToolError("conjugate: 'run' is not in this tool's scope");
 * assert.equal(error.name, "ToolError");
 * ```
 */
export class ToolError extends Error {
  /** Make a tool error carrying the tool's own message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ToolError";
  }
}

/**
 * A deadline passed before the reply arrived.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const error = new TimeoutError("tools/call (id 3) had no reply within 1000 ms");
 * assert.equal(error.name, "TimeoutError");
 * ```
 */
export class TimeoutError extends Error {
  /** Make a timeout error saying what waited and for how long. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "TimeoutError";
  }
}

/**
 * An error's message, or the thrown value as text when it is not an Error:
 * for a line or a reply that says why something failed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(describeError(new TypeError("connection reset")), "connection reset");
 * assert.equal(describeError("gone"), "gone");
 * ```
 */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Whether `error` is a withheld function's refusal: the learners' release
 * holds some of the library's functions (Unit A's `answerFor` and
 * `authorize`, say) as stubs that throw a `WithheldError`, so that what calls
 * one can say which option takes the learner's own in its place.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const withheld = Object.assign(new Error("answerFor is withheld"), { name: "WithheldError" });
 * assert.equal(isWithheld(withheld), true);
 * assert.equal(isWithheld(new ProtocolError("A frame is not JSON")), false);
 * ```
 */
export function isWithheld(error: unknown): error is Error {
  return error instanceof Error && error.name === "WithheldError";
}
