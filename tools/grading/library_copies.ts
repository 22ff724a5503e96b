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

/** The first line of a library module the learners' release holds only sealed. */
export const SEAL_STUB = "// This module of the library ships sealed (bundled and obfuscated),";

/**
 * The first line of a library module the learners' release holds as the
 * starter of the unit that has the learner write it: no copy of the
 * library's function, since every learner starts from it.
 */
export const STARTER_HUSK = "// The learners' release holds this module of the library as";

/**
 * The seal of the library module `file`: its bundled, obfuscated copy beside it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(sealedPath("lib/mcp/shared/framing.ts"), "lib/mcp/shared/framing.sealed.js");
 * ```
 */
export function sealedPath(file: string): string {
  return file.replace(/\.ts$/, ".sealed.js");
}

/**
 * `text`, the library file `file` (readable or sealed), with each function of
 * `names` renamed and declared again as a wire that reports the call, then
 * calls it; exported as the function was (by its declaration or by the
 * file's export list). Calls from inside the file go through the wire too.
 * Throws `Error` when the file does not declare one of the names as a function.
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
 * const sealed = "function authorize(_0x1){return!0x0;}export{authorize};";
 * assert.match(wiredCopy(sealed, "lib/a.sealed.js", ["authorize"]), /\nfunction authorize\(/);
 * ```
 */
export function wiredCopy(text: string, file: string, names: readonly string[]): string {
  const from = posix.relative(posix.dirname(file), REACH_MODULE);
  let wired = text;
  const wires = [`import { reachedLibrary as __reachedLibrary } from ${JSON.stringify(from)};`];
  for (const name of names) {
    // A generator too (`async function*`): the wire returns the generator it makes.
    const declaration = new RegExp(
      `(^|[;{}\\s])(export )?(async )?function(\\* ?| )${name}\\(`,
      "m",
    );
    const found = wired.match(declaration);
    if (found === null) throw new Error(`${file} declares no function ${name} to wire`);
    wired = wired.replace(declaration, `$1$3function$4__library_${name}(`);
    wires.push(
      `${found[2] ?? ""}function ${name}(...args) {`,
      `  __reachedLibrary(${JSON.stringify(name)});`,
      `  return __library_${name}.apply(this, args);`,
      `}`,
    );
  }
  return `${wired}\n${wires.join("\n")}\n`;
}
