// Shared by the notebook tests: running a notebook with a work folder of its
// own, leaving nothing running; a course folder of a test's own; and reading
// the report lines a notebook prints. A busy machine is the learner walk's
// (tests/learner_walk_test.ts: every unit's student copy, its functions and
// its Restart & Run All, beside two processes spinning on the CPU) and the
// busy clock's (tests/busy_clock_test.ts); each edition's own run here spins
// nothing beside it, since the suite's own files keep the cores busy.

import assert from "node:assert/strict";
import { runNotebook } from "../tools/run_notebook.ts";
import { nestedSuiteMark, SUITE_MARK } from "../tools/suite_mark.ts";
import { endLeftovers } from "./_busy.ts";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const workRoot = await Deno.makeTempDir({ prefix: "course-work-" });
globalThis.addEventListener("unload", () => Deno.removeSync(workRoot, { recursive: true }));

/** A new, empty work folder, removed when the tests end. */
export function workFolder(): Promise<string> {
  return Deno.makeTempDir({ dir: workRoot });
}

/** Options for {@linkcode run}. */
export interface RunOptions {
  /** Whether the cells after one that fails run too. @default {false} */
  allowErrors?: boolean;
}

/**
 * Run the notebook at `path` (from the project root, or absolute) with `work`
 * as its work folder, in a fresh kernel (as Restart & Run All does). Throws
 * when it leaves a process running once its kernel has ended.
 */
export async function run(path: string, work?: string, options: RunOptions = {}) {
  const folder = work ?? await workFolder();
  const mark = nestedSuiteMark();
  const result = await runNotebook(path.startsWith("/") ? path : `${root}${path}`, {
    env: { COURSE_WORK: folder, [SUITE_MARK]: mark },
    allowErrors: options.allowErrors,
  });
  assert.deepEqual(await endLeftovers(mark), [], `${path} left processes running`);
  return { ...result, work: folder };
}

/**
 * A course folder of a test's own, whose path has a space: the course's
 * folders and `extra` ones linked, and an empty `work/`; removed at the end
 * of its `await using`.
 */
export async function courseFolder(
  extra: string[] = [],
): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix: "course copy " });
  const linked = [
    "lib",
    "cases",
    "servers",
    "schemas",
    "tools",
    "deno.json",
    "deno.lock",
    ...extra,
  ];
  for (const name of linked) await Deno.symlink(`${root}${name}`, `${path}/${name}`);
  await Deno.mkdir(`${path}/work`);
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
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
