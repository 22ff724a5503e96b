/**
 * The library modules the learners' release withholds: nothing the release
 * runs needs them, so it holds, in place of each, a module whose every
 * function throws a `WithheldError`, or, where the course runs it before
 * the learner has written it and the unit's starter does that job, the
 * starter itself ({@linkcode starterHusk}); and no seal of it. Their seals
 * stay in the instructors' repository (releases handed out before hold them,
 * and the autograder keeps judging copies of them).
 *
 * @module
 */

import { documentationLines } from "./sealed.ts";
import { STARTER_HUSK } from "../grading/library_copies.ts";
import { topLevelStatements } from "../grading/cells.ts";
import { replaceMarked } from "../editions/markers.ts";
import { parseNotebook, sourceOf } from "../editions/notebook.ts";

/** Why a module is withheld: the unit that has the learner write it, and what the course shows instead. */
export interface Withholding {
  /** The unit, as its notebook names itself, e.g. `Lab 03`. */
  unit: string;
  /** The file of the release holding the library's results, as recorded; none where nothing runs them. */
  recorded?: string;
  /** The learner's function the course runs in the library's place, e.g. `sseData`; none where it runs none. */
  yours?: string;
  /**
   * Where the release runs the module before the learner writes it: the
   * worked edition, the id of its ✏️ cell whose starter (as the student
   * edition holds it) the release holds in the module's place, and the
   * lines of one paragraph saying what the starter does not do and what
   * that means.
   */
  starter?: { notebook: string; cell: string; paragraph: readonly string[] };
}

/** The withheld modules, by path, with why. */
export const WITHHELD: Readonly<Record<string, Withholding>> = {
  "lib/mcp/client/answer.ts": { unit: "Unit A", yours: "answerFor" },
  "lib/mcp/client/allowlist.ts": { unit: "Unit A", yours: "authorize" },
  "lib/mask/object_grammar.ts": { unit: "Lab 03", recorded: "lib/course/recorded/lab_03.json" },
  "lib/mask/json_chars.ts": { unit: "Lab 03", recorded: "lib/course/recorded/lab_03.json" },
  "lib/mcp/shared/transfer_problems.ts": { unit: "Unit B" },
  "lib/mcp/shared/read_sse_events.ts": { unit: "Lab 04", yours: "sseData" },
  "lib/mcp/shared/split_frames.ts": {
    unit: "Unit B",
    starter: {
      notebook: "solutions/ch14-b.ipynb",
      cell: "split-frames",
      paragraph: [
        "It splits lines and checks no limit, so the release's library reads frames with no",
        "byte limit (`readFrames`, the `Client`, the course's servers) unless given your",
        "function: `readFrames`'s `split` option, or the `Client`'s `splitFrames` option.",
      ],
    },
  },
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

/**
 * What the release holds at `file`'s path when {@linkcode WITHHELD} gives it
 * a starter: that ✏️ cell of the worked edition under `root`, as the
 * student edition holds it (the editions' own `replaceMarked`), each of
 * `names` exported, under its one paragraph. Its first line is {@linkcode STARTER_HUSK}, by which the
 * release's self-check knows it for no copy of the library's.
 *
 * @throws {Error} naming the cell when it declares no function of `names`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const root = new URL("../../", import.meta.url);
 * const husk = await starterHusk(root, "lib/mcp/shared/split_frames.ts", ["splitFrames"]);
 * assert.match(husk, /^export function splitFrames\(buffer: Uint8Array, limit: number\)/m);
 * assert.doesNotMatch(husk, /RangeError|Your turn/);
 * await assert.rejects(
 *   starterHusk(root, "lib/mcp/shared/split_frames.ts", ["readFrames"]),
 *   /cell split-frames of solutions\/ch14-b\.ipynb declares no function readFrames/,
 * );
 * ```
 */
export async function starterHusk(
  root: URL,
  file: string,
  names: readonly string[],
): Promise<string> {
  const { unit, starter } = WITHHELD[file];
  if (starter === undefined) throw new Error(`${file} is withheld with no starter`);
  const { notebook, cell: id, paragraph } = starter;
  const cell = parseNotebook(await Deno.readTextFile(new URL(notebook, root)), notebook).cells
    .find((cell) => cell.id === id);
  if (cell === undefined) throw new Error(`${notebook} has no cell ${id}`);
  const statements = topLevelStatements(replaceMarked(sourceOf(cell)));
  const functions = names.map((name) => {
    const found = statements.find((s) => s.kind === "function" && s.name === name);
    if (found === undefined) {
      throw new Error(`cell ${id} of ${notebook} declares no function ${name} for ${file}`);
    }
    // From the declaration on: the cell's own comments before it speak to the learner.
    return `export ${found.text.slice(found.text.search(/(async\s+)?function\b/))}`;
  });
  return [
    `${STARTER_HUSK} ${unit}'s starter.`,
    `// ${file} is withheld from the learners' release: ${unit} has you write what it does.`,
    "",
    "/**",
    ` * ${unit}'s starter (its ✏️ cell ${id}), in the library's place.`,
    ...paragraph.map((line) => ` * ${line}`),
    " *",
    " * @module",
    " */",
    "",
    ...functions.flatMap((text) => [text, ""]),
  ].join("\n");
}
