/**
 * The library modules the learners' release withholds: nothing the release
 * runs needs them, so it holds, in place of each, a module whose every
 * function throws a `WithheldError`, and no seal of it. Their seals stay in
 * the instructors' repository (releases handed out before hold them, and the
 * autograder keeps judging copies of them).
 *
 * @module
 */

import { documentationLines } from "./sealed.ts";

/** Why a module is withheld: the unit that has the learner write it, and what the course shows instead. */
export interface Withholding {
  /** The unit, as its notebook names itself, e.g. `Lab 03`. */
  unit: string;
  /** The file of the release holding the library's results, as recorded; none where nothing runs them. */
  recorded?: string;
  /** The learner's function the course runs in the library's place, e.g. `sseData`; none where it runs none. */
  yours?: string;
}

/** The withheld modules, by path, with why. */
export const WITHHELD: Readonly<Record<string, Withholding>> = {
  "lib/mask/object_grammar.ts": { unit: "Lab 03", recorded: "lib/course/recorded/lab_03.json" },
  "lib/mask/json_chars.ts": { unit: "Lab 03", recorded: "lib/course/recorded/lab_03.json" },
  "lib/mcp/shared/transfer_problems.ts": { unit: "Unit B" },
  "lib/mcp/shared/read_sse_events.ts": { unit: "Lab 04", yours: "sseData" },
};

/**
 * The names `file` (under `root`) exports when it runs, sorted: each must be
 * a function, since a withheld module's stub can only throw.
 *
 * @throws {Error} naming any export that is not a function.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const root = new URL("../../", import.meta.url);
 * assert.deepEqual(await withheldNames(root, "lib/mask/object_grammar.ts"), ["objectDfa"]);
 *
 * // A constant could not throw: the module must move it out first.
 * const folder = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${folder}/a.ts`, "export const LIMIT = 14;\nexport function a() {}\n");
 * await assert.rejects(
 *   withheldNames(new URL(`file://${folder}/`), "a.ts"),
 *   /a\.ts is withheld, so it may export only functions; move LIMIT to a readable module/,
 * );
 * await Deno.remove(folder, { recursive: true });
 * ```
 */
export async function withheldNames(root: URL, file: string): Promise<string[]> {
  const module = await import(new URL(file, root).href);
  const names = Object.keys(module).sort();
  const others = names.filter((name) => typeof module[name] !== "function");
  if (others.length > 0) {
    throw new Error(
      `${file} is withheld, so it may export only functions; move ${
        others.join(", ")
      } to a readable module`,
    );
  }
  return names;
}

/** Options of {@linkcode withheldStub}. */
export interface WithheldStubOptions {
  /**
   * What the module exports, as `deno doc` shows it, kept in comments.
   *
   * @default {""}
   */
  documentation?: string;
}

/**
 * What the release holds at `file`'s path, withheld: `documentation` (as
 * `deno doc` shows the module) in comments, then, for each of `names`, a
 * function that throws a `WithheldError` naming it, its module, the unit
 * that has the learner write it, and what the course shows or runs in its
 * place (the recorded results, or the learner's own function). It imports
 * nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const stub = withheldStub("lib/mask/json_chars.ts", ["jsonChar"], {
 *   documentation: "function jsonChar(nfa, set)",
 * });
 * assert.match(stub, /^\/\/ function jsonChar\(nfa, set\)$/m);
 * assert.match(stub, /^export function jsonChar\(\.\.\._args: unknown\[\]\): never \{$/m);
 * assert.doesNotMatch(stub, /import/);
 * ```
 */
export function withheldStub(
  file: string,
  names: readonly string[],
  options: WithheldStubOptions = {},
): string {
  const { documentation = "" } = options;
  const { unit, recorded, yours } = WITHHELD[file];
  const instead = recorded !== undefined
    ? `the course shows the library's results as recorded, in ${recorded}`
    : yours !== undefined
    ? `the course runs your ${yours} in its place`
    : "nothing in the course runs the library's";
  return [
    `// ${file} is withheld from the learners' release: ${unit} has you write what it does.`,
    `// Each of its functions throws a WithheldError: ${instead}.`,
    ...documentationLines(documentation),
    "",
    "class WithheldError extends Error {",
    '  override name = "WithheldError";',
    "}",
    "",
    ...names.flatMap((name) => [
      `export function ${name}(..._args: unknown[]): never {`,
      `  throw new WithheldError(${
        JSON.stringify(
          `${name} (${file}) is withheld from the learners' release: ${unit} has you write it; ${instead}`,
        )
      });`,
      "}",
      "",
    ]),
  ].join("\n");
}
