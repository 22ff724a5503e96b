/**
 * Showing a server's stderr as it arrives, each line marked as the server's.
 *
 * @module
 */

/** Options for {@linkcode forwardStderr}. */
export interface ForwardStderrOptions {
  /** Put before each line. @default {"[server] "} */
  prefix?: string;
  /** Where each marked line goes. @default {console.error} */
  write?: (line: string) => void;
}

/**
 * A function to give a client as its `onStderrLine` option: it writes each
 * line the server puts on stderr, marked with `prefix`, as soon as it
 * arrives. Without it a server's crash message is never seen.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const shown: string[] = [];
 * const forward = forwardStderr({ write: (line) => shown.push(line) });
 * forward("grammar: ready with 4 tools");
 * assert.deepEqual(shown, ["[server] grammar: ready with 4 tools"]);
 * ```
 */
export function forwardStderr(options: ForwardStderrOptions = {}): (line: string) => void {
  const prefix = options.prefix ?? "[server] ";
  const write = options.write ?? ((line: string) => console.error(line));
  return (line) => write(prefix + line);
}
