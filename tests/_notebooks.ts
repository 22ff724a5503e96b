// Shared by the notebook tests: running a notebook with a work folder of its
// own, and reading the report lines it prints.

import assert from "node:assert/strict";
import { runNotebook } from "../tools/run_notebook.ts";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const workRoot = await Deno.makeTempDir({ prefix: "course-work-" });
globalThis.addEventListener("unload", () => Deno.removeSync(workRoot, { recursive: true }));

/** A new, empty work folder, removed when the tests end. */
export function workFolder(): Promise<string> {
  return Deno.makeTempDir({ dir: workRoot });
}

/** Run the notebook at `path` (from the project root) with `work` as its work folder. */
export async function run(path: string, work?: string) {
  const folder = work ?? await workFolder();
  const result = await runNotebook(`${root}${path}`, { env: { COURSE_WORK: folder } });
  return { ...result, work: folder };
}

/** The JSON after `NAME=` in the output. */
export function reportLine(text: string, name: string): Record<string, unknown> {
  const line = text.split("\n").find((line) => line.startsWith(`${name}=`));
  assert.ok(line, `no ${name}= line in the output`);
  return JSON.parse(line.slice(name.length + 1));
}

/** How many pictures (SVG outputs) a run showed. */
export function pictures(cells: { outputs?: unknown[] }[]): number {
  return cells.flatMap((cell) => cell.outputs ?? [])
    .filter((output) => JSON.stringify(output).includes("image/svg+xml")).length;
}

/** The status of each row of a grade table a notebook printed as text, wherever its column is. */
export function statuses(table: string): string[] {
  return table.split("\n").flatMap((line) =>
    line.trim().split(/\s+/).filter((word) => ["PASS", "FAIL", "UNFINISHED"].includes(word))
      .slice(0, 1)
  );
}
