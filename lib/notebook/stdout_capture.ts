/**
 * What a function prints while it runs, kept back instead of printed: a stdio
 * server's stdout carries protocol messages and nothing else, so a dispatcher
 * that logs there is graded as wrong ({@linkcode captureStdout}). Stderr is
 * where a server's logs belong; a server's loop judged in a notebook's own
 * process would show them as the notebook's errors, in red, so its judge
 * keeps them back too ({@linkcode captureStderr}).
 *
 * @module
 */

/** The console methods that write to stdout. */
const STDOUT_METHODS = [
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

/** The console methods that write to stderr. */
const STDERR_METHODS = ["error", "warn", "trace", "assert"] as const;

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
  return capture(Deno.stdout, STDOUT_METHODS);
}

/**
 * Start keeping back what this realm prints on stderr (through `console` and
 * `Deno.stderr`); the function returned restores both and gives what was kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const stop = captureStderr();
 * console.error("grammar server: input ended, exiting");
 * console.assert(true, "an assertion that holds prints nothing");
 * assert.equal(stop(), "grammar server: input ended, exiting\n");
 * ```
 */
export function captureStderr(): () => string {
  return capture(Deno.stderr, STDERR_METHODS);
}

function capture(stream: typeof Deno.stdout, methods: readonly string[]): () => string {
  const printed: string[] = [];
  const console = globalThis.console as unknown as Record<string, unknown>;
  const saved = methods.map((name) => [name, console[name]] as const);
  const keep = (...values: unknown[]) => {
    printed.push(values.map((v) => typeof v === "string" ? v : Deno.inspect(v)).join(" ") + "\n");
  };
  for (const name of methods) {
    console[name] = name === "assert"
      ? (condition: unknown, ...values: unknown[]) => {
        if (!condition) keep("Assertion failed:", ...values);
      }
      : keep;
  }
  const bytes = (data: Uint8Array) => {
    printed.push(decoder.decode(data));
    return data.length;
  };
  const own = {
    writeSync: bytes,
    write: (data: Uint8Array) => Promise.resolve(bytes(data)),
    writable: new WritableStream<Uint8Array>({ write: (chunk) => void bytes(chunk) }),
  };
  const target = stream as unknown as Record<string, unknown>;
  for (const [name, value] of Object.entries(own)) {
    Object.defineProperty(target, name, { value, configurable: true, writable: true });
  }
  return () => {
    for (const [name, method] of saved) console[name] = method;
    for (const name of Object.keys(own)) delete target[name];
    return printed.join("");
  };
}
