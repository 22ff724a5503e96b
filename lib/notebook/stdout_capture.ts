/**
 * What a function prints on stdout while it runs, kept back instead of
 * printed: a stdio server's stdout carries protocol messages and nothing
 * else, so a dispatcher that logs there is graded as wrong. Stderr is left
 * alone: that is where a server's logs belong.
 *
 * @module
 */

/** The console methods that write to stdout. */
const CONSOLE_METHODS = [
  "log",
  "info",
  "debug",
  "dir",
  "dirxml",
  "table",
  "group",
  "groupCollapsed",
  "count",
  "timeLog",
  "timeEnd",
] as const;

const decoder = new TextDecoder();

/**
 * Start keeping back what this realm prints on stdout (through `console` and
 * `Deno.stdout`); the function returned restores both and gives what was kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const stop = captureStdout();
 * console.log("tools/call received");
 * console.error("this goes to stderr, as logs should");
 * assert.equal(stop(), "tools/call received\n");
 * ```
 */
export function captureStdout(): () => string {
  const printed: string[] = [];
  const console = globalThis.console as unknown as Record<string, unknown>;
  const saved = CONSOLE_METHODS.map((name) => [name, console[name]] as const);
  const keep = (...values: unknown[]) => {
    printed.push(values.map((v) => typeof v === "string" ? v : Deno.inspect(v)).join(" ") + "\n");
  };
  for (const name of CONSOLE_METHODS) console[name] = keep;
  const bytes = (data: Uint8Array) => {
    printed.push(decoder.decode(data));
    return data.length;
  };
  const stdout = Deno.stdout as unknown as Record<string, unknown>;
  const own = {
    writeSync: bytes,
    write: (data: Uint8Array) => Promise.resolve(bytes(data)),
    writable: new WritableStream<Uint8Array>({ write: (chunk) => void bytes(chunk) }),
  };
  for (const [name, value] of Object.entries(own)) {
    Object.defineProperty(stdout, name, { value, configurable: true, writable: true });
  }
  return () => {
    for (const [name, method] of saved) console[name] = method;
    for (const name of Object.keys(own)) delete stdout[name];
    return printed.join("");
  };
}
