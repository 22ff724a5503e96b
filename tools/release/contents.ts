/**
 * What the learners' release holds: the student editions, the library the
 * notebooks import, the servers, the schemas, the visible cases, the set-up,
 * and the grader with what it needs for a self-check on the visible cases.
 * Never a worked edition, a hidden case or a test: those stay in the
 * instructors' repository (and the hidden cases in the autograder package).
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { SANDBOX_FILES } from "../grading/scratch.ts";

/**
 * Folders copied whole (their `*_test.ts` files and installed `node_modules/`
 * left out): the course, and what `tools/setup.sh` reads (JupyterLab's pins,
 * settings and the kernel's registration; the pins of Lab 01's fifth judge,
 * the MCP Inspector), so that a file set-up comes to read ships with it.
 */
const FOLDERS = [
  "notebooks",
  "lib",
  "servers",
  "schemas",
  "cases",
  "tools/jupyter",
  "tools/inspector",
];
/** Single files copied as they are, when they exist. */
const FILES = ["tools/setup.sh", "work/.gitkeep"];
/** Programs a learner runs (the grader for a self-check, JupyterLab, a fresh starter), with what the grader's sandbox runs; their local imports come too. */
const PROGRAMS = [
  "tools/set_up_first.ts",
  "tools/lab.ts",
  "tools/starter.ts",
  "tools/grade.ts",
  "tools/grading/sandbox_runner.ts",
  // Lab 01 writes the learner's server from the saved notebook as the grader takes it.
  "tools/grading/learner_server.ts",
  // The later units' Clients take the learner's Unit A functions from the saved notebook, so.
  "tools/grading/your_functions.ts",
  ...SANDBOX_FILES,
];
/** What must never be in the release, whatever imports it. */
const NEVER = /^(solutions|holdouts|tests|bench)\//;

/**
 * The project-relative paths of the files the release copies, sorted.
 * Throws when a program of the release imports something it must never hold.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const files = await releaseFiles(new URL("../../", import.meta.url));
 * assert.ok(files.includes("notebooks/ch14-b.ipynb"));
 * assert.ok(files.includes("tools/grade.ts"));
 * assert.ok(!files.some((file) => file.startsWith("holdouts/") || file.startsWith("solutions/")));
 * ```
 */
export async function releaseFiles(root: URL): Promise<string[]> {
  const files = new Set<string>();
  for (const folder of FOLDERS) {
    for (const file of await walk(root, folder)) {
      if (!file.endsWith("_test.ts")) files.add(file);
    }
  }
  for (const file of FILES) {
    if (await exists(new URL(file, root))) files.add(file);
  }
  for (const file of await localImports(root, PROGRAMS)) files.add(file);
  const forbidden = [...files].filter((file) => NEVER.test(file));
  if (forbidden.length > 0) {
    throw new Error(`The release would hold files it must never hold: ${forbidden.join(", ")}`);
  }
  return [...files].sort();
}

/**
 * Every file under `folder` (project-relative), hidden entries and installed
 * packages (`node_modules/`) left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const files = await walk(new URL("../../", import.meta.url), "schemas");
 * assert.ok(files.includes("schemas/ch14-a-handoff.schema.json"));
 * ```
 */
export async function walk(root: URL, folder: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(new URL(`${folder}/`, root))) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory) found.push(...await walk(root, path));
    else if (entry.isFile) found.push(path);
  }
  return found;
}

/**
 * The project's own files that `programs` import, themselves included, as
 * `deno info` finds them (static imports; a computed dynamic import is not
 * followed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const files = await localImports(new URL("../../", import.meta.url), ["lib/mcp/shared/errors.ts"]);
 * assert.deepEqual(files, ["lib/mcp/shared/errors.ts"]);
 * ```
 */
export async function localImports(root: URL, programs: readonly string[]): Promise<string[]> {
  const base = fileURLToPath(root);
  const found = new Set<string>();
  for (const program of programs) {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", program],
      cwd: base,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    if (code !== 0) {
      throw new Error(`deno info ${program} failed: ${new TextDecoder().decode(stderr).trim()}`);
    }
    const graph = JSON.parse(new TextDecoder().decode(stdout)) as {
      modules: { specifier: string }[];
    };
    for (const { specifier } of graph.modules) {
      if (!specifier.startsWith("file:")) continue;
      const path = fileURLToPath(specifier);
      if (path.startsWith(base)) found.add(path.slice(base.length));
    }
  }
  return [...found];
}

async function exists(url: URL): Promise<boolean> {
  try {
    await Deno.stat(url);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}
