/**
 * The library's own copies of the functions learners write: in a scratch
 * folder, each is wired so that calling it (by a re-export, a wrapper, or a
 * call from any code of the learner's) is reported to the sandbox, which
 * scores the function that reached it 0, with a line saying why. The copy
 * still works, so that the report says "reaches the library's copy" rather
 * than some error the wiring caused.
 *
 * @module
 */

import { posix } from "node:path";

/** A library function that does the work of a graded one: its file, from the project root, and its name. */
export interface LibraryCopy {
  file: string;
  name: string;
}

/** The module that reports a reached copy, from the project root. */
export const REACH_MODULE = "tools/grading/realm/reach.ts";

/**
 * `text`, the library file `file`, with each function of `names` renamed and
 * exported again as a wire that reports the call, then calls it. Calls from
 * inside the file go through the wire too. Throws `Error` when the file does
 * not declare one of the names as an exported function.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const text = "export function authorize(name) {\n  return name === 'a';\n}\n";
 * const wired = wiredCopy(text, "lib/mcp/client/allowlist.ts", ["authorize"]);
 * assert.match(wired, /function __library_authorize\(name\)/);
 * assert.match(wired, /reachedLibrary\("authorize"\)/);
 * assert.match(wired, /from "\.\.\/\.\.\/\.\.\/tools\/grading\/realm\/reach\.ts"/);
 * ```
 */
export function wiredCopy(text: string, file: string, names: readonly string[]): string {
  const from = posix.relative(posix.dirname(file), REACH_MODULE);
  let wired = text;
  const wires = [`import { reachedLibrary as __reachedLibrary } from ${JSON.stringify(from)};`];
  for (const name of names) {
    const declaration = new RegExp(`^export (async )?function ${name}\\b`, "m");
    const found = wired.match(declaration);
    if (found === null) throw new Error(`${file} exports no function ${name} to wire`);
    wired = wired.replace(declaration, `${found[1] ?? ""}function __library_${name}`);
    wires.push(
      `export function ${name}(this: unknown, ...args: unknown[]) {`,
      `  __reachedLibrary(${JSON.stringify(name)});`,
      `  // deno-lint-ignore no-explicit-any`,
      `  return (__library_${name} as any).apply(this, args);`,
      `}`,
    );
  }
  return `${wired}\n${wires.join("\n")}\n`;
}
