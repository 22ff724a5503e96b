/**
 * A learner's code, copied into a scratch folder of its own before it runs:
 * the sandbox may read that folder and nothing else, and the folder's name is
 * the grader's, never the learner's, so no learner path is ever spliced into
 * a permission flag or a URL. It holds the learner's modules (one per unit:
 * the graded cells of a notebook, or a module as submitted), the library
 * files those modules may import, and the sandbox's worker.
 *
 * @module
 */

import { pathToFileURL } from "node:url";
import { type Notebook, parseNotebook, sourceOf } from "../editions/notebook.ts";
import type { Submission } from "./collect.ts";
import type { UnitSpec } from "./spec.ts";

const ROOT = new URL("../../", import.meta.url);
/** The files the sandbox needs, as the repository lays them out: the worker and what it imports. */
const SANDBOX_FILES = [
  "tools/grading/sandbox_worker.ts",
  "lib/grading.ts",
  "lib/stdout_capture.ts",
  "lib/jsonrpc.ts",
  "lib/errors.ts",
  "lib/not_implemented.ts",
];

/** A scratch folder ready for the sandbox. */
export interface Scratch {
  /** The folder, the only path the sandbox may read. */
  folder: string;
  /** The worker's module, as a file URL. */
  worker: string;
  /** Each unit's learner module, as a file URL. */
  modules: Map<string, string>;
  /** Removes the folder. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Copy the code of `submissions` into a new scratch folder. A notebook gives
 * the learner's graded cells ({@linkcode learnerModule}); a module is copied
 * as it is, and may import the library files beside it as `../lib/NAME.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * await using scratch = await makeScratch([], new Map());
 * assert.match(scratch.folder, /^[\w./-]+$/);
 * assert.equal(scratch.modules.size, 0);
 * ```
 */
export async function makeScratch(
  submissions: readonly Submission[],
  units: ReadonlyMap<string, UnitSpec>,
): Promise<Scratch> {
  const folder = await Deno.makeTempDir({ dir: safeTemp(), prefix: "grade-" });
  const scratch: Scratch = {
    folder,
    worker: pathToFileURL(`${folder}/${SANDBOX_FILES[0]}`).href,
    modules: new Map(),
    [Symbol.asyncDispose]: () => Deno.remove(folder, { recursive: true }).catch(() => {}),
  };
  try {
    for (const file of [...SANDBOX_FILES, ...await libraryFiles(units)]) {
      const target = `${folder}/${file}`;
      await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
      await Deno.copyFile(new URL(file, ROOT), target);
    }
    await Deno.mkdir(`${folder}/learner`);
    for (const submission of submissions) {
      const spec = units.get(submission.unit);
      if (submission.code === undefined || spec === undefined) continue;
      const target = `${folder}/learner/${submission.unit}.ts`;
      const text = await Deno.readTextFile(submission.code.path);
      await Deno.writeTextFile(
        target,
        submission.code.kind === "notebook"
          ? learnerModule(parseNotebook(text, submission.code.path), spec)
          : text,
      );
      scratch.modules.set(submission.unit, pathToFileURL(target).href);
    }
  } catch (error) {
    await scratch[Symbol.asyncDispose]();
    throw error;
  }
  return scratch;
}

/** Options for {@linkcode learnerModule}. */
export interface LearnerModuleOptions {
  /** Where the module imports the library from: a folder URL, or a path relative to the module. @default {"../lib/"} */
  lib?: string;
}

/**
 * A module holding the learner's graded cells from `notebook`, the library
 * names those cells may use (imported from `../lib/`, beside it in the
 * scratch folder), and an export `graded` naming each graded function
 * (undefined when the learner's cells do not define it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * const cell = { cell_type: "code" as const, id: "authorize", metadata: {}, source: "function authorize() { return false; }" };
 * const notebook = { nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [cell] };
 * const source = learnerModule(notebook, UNITS.get("ch14-a")!);
 * assert.ok(source.includes("function authorize()"));
 * assert.ok(source.includes('from "../lib/errors.ts"'));
 * assert.ok(source.includes("authorize: typeof authorize"));
 * ```
 */
export function learnerModule(
  notebook: Notebook,
  spec: UnitSpec,
  options: LearnerModuleOptions = {},
): string {
  const lib = options.lib ?? "../lib/";
  const imports = Object.entries(spec.imports).map(([file, names]) =>
    `import { ${names.join(", ")} } from ${JSON.stringify(lib + file)};`
  );
  const ids = [...spec.functions.map((fn) => fn.cell), ...spec.supportCells ?? []];
  const cells = [...new Set(ids)].map((id) => {
    const cell = notebook.cells.find((cell) => cell.id === id && cell.cell_type === "code");
    return cell === undefined ? `// (no cell ${id})` : `// cell ${id}\n${sourceOf(cell)}`;
  });
  const graded = spec.functions.map((fn) =>
    `  ${fn.name}: typeof ${fn.name} === "function" ? ${fn.name} : undefined,`
  );
  return [...imports, "", ...cells, "", "export const graded = {", ...graded, "};", ""].join("\n");
}

/**
 * The library files the learners' modules may import (each unit's
 * `imports`), with every file they import in turn, as paths from the
 * repository's root. Throws `Error` naming the file when one imports anything
 * but a relative path inside `lib/` (a package, a URL): the sandbox has
 * nothing else to give.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * const files = await libraryFiles(UNITS);
 * assert.ok(files.includes("lib/errors.ts"));
 * assert.ok(files.every((file) => file.startsWith("lib/")));
 * ```
 */
export async function libraryFiles(units: ReadonlyMap<string, UnitSpec>): Promise<string[]> {
  const pending = [...units.values()].flatMap((spec) => Object.keys(spec.imports))
    .map((file) => `lib/${file}`);
  const found = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (found.has(file)) continue;
    found.add(file);
    const text = await Deno.readTextFile(new URL(file, ROOT));
    for (const [, specifier] of text.matchAll(/^(?:import|export)\b[^;]*?from\s+"([^"]+)"/gms)) {
      const target = new URL(specifier, new URL(file, ROOT));
      const path = target.href.slice(ROOT.href.length);
      if (!specifier.startsWith(".") || !target.href.startsWith(new URL("lib/", ROOT).href)) {
        throw new Error(`${file} imports ${specifier}, which the grading sandbox cannot give`);
      }
      pending.push(path);
    }
  }
  return [...found].sort();
}

/**
 * A folder for scratch folders whose path needs no escaping anywhere: the
 * system's temporary folder when its path is plain, and `/tmp` otherwise.
 */
function safeTemp(): string {
  let chosen = "/tmp";
  try {
    chosen = Deno.env.get("TMPDIR") ?? chosen;
  } catch {
    // Without permission to read the environment, /tmp stands.
  }
  return /^\/[\w./-]*$/.test(chosen) ? chosen : "/tmp";
}
