/**
 * The last lines a server wrote on stderr, kept within a fixed size however
 * much it writes, so that an error can quote them.
 *
 * @module
 */

/** Options for {@linkcode StderrTail}. */
export interface StderrTailOptions {
  /** How many complete lines to keep. @default {20} */
  lines?: number;
  /** The longest line kept; longer ones are cut and marked with `…`. @default {500} */
  width?: number;
  /** Called with each complete line as it arrives. @default {undefined} */
  onLine?: (line: string) => void;
}

/**
 * Keeps the last `lines` lines of a byte stream, each at most `width`
 * characters, in memory bounded by about `lines × width`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const tail = new StderrTail({ lines: 2 });
 * tail.push(new TextEncoder().encode("one\ntwo\nthree\nfour"));
 * assert.deepEqual(tail.lines(), ["two", "three", "four"]);
 * ```
 */
export class StderrTail {
  #kept: string[] = [];
  #partial = "";
  #decoder = new TextDecoder();
  readonly #lines: number;
  readonly #width: number;
  readonly #onLine?: (line: string) => void;

  /** Make an empty tail. */
  constructor(options: StderrTailOptions = {}) {
    this.#lines = options.lines ?? 20;
    this.#width = options.width ?? 500;
    this.#onLine = options.onLine;
  }

  /** Take the next bytes of the stream. */
  push(chunk: Uint8Array): void {
    const parts = (this.#partial + this.#decoder.decode(chunk, { stream: true })).split("\n");
    this.#partial = this.#cut(parts.pop()!);
    for (const part of parts) {
      const line = this.#cut(part);
      this.#onLine?.(line);
      this.#kept.push(line);
    }
    if (this.#kept.length > this.#lines) this.#kept.splice(0, this.#kept.length - this.#lines);
  }

  /** The kept lines, oldest first, with any unfinished last line at the end. */
  lines(): string[] {
    return this.#partial === "" ? [...this.#kept] : [...this.#kept, this.#partial];
  }

  #cut(line: string): string {
    return line.length > this.#width ? line.slice(0, this.#width) + "…" : line;
  }
}
