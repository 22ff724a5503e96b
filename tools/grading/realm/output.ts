// In a learner's realm: what the realm's code prints (through `console`,
// `Deno.stdout` or `Deno.stderr`) is counted and dropped, never written. The
// grader reads none of it (a function whose printing is graded has it kept
// back for its case by lib/notebook/stdout_capture.ts, over these), so a
// flood costs a case little and nothing more: past PRINT_LIMIT, printing
// throws, and the case fails ("it printed too much") without the process
// being stopped. What gets past these to the process's own output still meets
// the grader's limit on the whole process. The realm's first modules import
// this one, before any learner code runs.

/// <reference lib="deno.worker" />

/** The most a case may print, in characters or bytes. */
const PRINT_LIMIT = 1 << 20;

let printed = 0;

/** Count `size` more printed; past the limit, stop the code that prints (its case has failed). */
function count(size: number): void {
  printed += size;
  if (printed > PRINT_LIMIT) throw new Error("it printed too much");
}

const console = globalThis.console as unknown as Record<string, unknown>;
for (const name of Object.keys(console)) {
  if (typeof console[name] !== "function") continue;
  console[name] = (...values: unknown[]) => {
    for (const value of values) count((typeof value === "string" ? value.length : 16) + 1);
  };
}
for (const stream of [Deno.stdout, Deno.stderr]) {
  const prototype = Object.getPrototypeOf(stream);
  const bytes = (data: Uint8Array) => {
    count(data.byteLength);
    return data.byteLength;
  };
  Object.defineProperties(prototype, {
    writeSync: { value: bytes },
    write: { value: (data: Uint8Array) => Promise.resolve(bytes(data)) },
    writable: {
      get: () => new WritableStream<Uint8Array>({ write: (chunk) => void bytes(chunk) }),
    },
  });
}

/** Start counting a new case's printing. */
export function newCase(): void {
  printed = 0;
}

/** Whether the case under way has printed more than it may. */
export function printedTooMuch(): boolean {
  return printed > PRINT_LIMIT;
}
