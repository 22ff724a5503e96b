// Row 5: the course itself. Each worked edition in solutions/ is executed
// headlessly with the Deno kernel, as an instructor (or CI) would, and timed
// against an empty notebook run the same way (the kernel's start and Jupyter's
// own overhead). The executed copies carry each cell's start and end, so the
// slowest cells are reported too: where the time goes.

import type { Notebook } from "../tools/editions/notebook.ts";
import { runNotebook } from "../tools/run_notebook.ts";
import { jupyterCommand } from "../tools/jupyter/jupyter.ts";
import { median, projectPath } from "./_measure.ts";

/** One worked notebook, executed `rounds` times. */
export interface NotebookRun {
  /** Its path, relative to the project's root. */
  notebook: string;
  /** Wall milliseconds of each execution. */
  rounds: number[];
  medianMs: number;
  /** Its median over the empty notebook's. */
  vsEmpty: number;
  /** The slowest cells of the last execution: index, milliseconds, and first line. */
  slowestCells: { index: number; ms: number; firstLine: string }[];
  /** Whether a process the notebook started was still running afterwards (tools/leftovers.ts). */
  leftRunning: boolean;
}

/** What row 5 measured. */
export interface CourseResult {
  notebooks: NotebookRun[];
  /** The empty notebook's median wall milliseconds, when anything was executed. */
  emptyMs?: number;
  /** The sum of the notebooks' medians. */
  totalMs?: number;
  /** Why nothing (or only the empty notebook) was executed. */
  note?: string;
}

/** Options for {@linkcode measureCourse}. */
export interface CourseOptions {
  /** Executions of each notebook. @default {3} */
  rounds?: number;
  /** Execute only the empty notebook, to prove the machinery works. @default {false} */
  smoke?: boolean;
}

const EMPTY_NOTEBOOK = {
  cells: [{
    cell_type: "code",
    execution_count: null,
    id: "empty",
    metadata: {},
    outputs: [],
    source: ["1 + 1"],
  }],
  metadata: {
    kernelspec: { display_name: "Deno", language: "typescript", name: "deno" },
    language_info: { name: "typescript" },
  },
  nbformat: 4,
  nbformat_minor: 5,
};

/** The worked editions, `solutions/*.ipynb`, by name. */
export function workedNotebooks(): string[] {
  const folder = projectPath("solutions/");
  try {
    return [...Deno.readDirSync(folder)]
      .filter((entry) => entry.isFile && entry.name.endsWith(".ipynb"))
      .map((entry) => `solutions/${entry.name}`)
      .sort();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
}

/** Execute every worked notebook (and the empty one) `rounds` times, interleaved. */
export async function measureCourse(options: CourseOptions = {}): Promise<CourseResult> {
  const { rounds = 3, smoke = false } = options;
  const notebooks = workedNotebooks();
  if (notebooks.length === 0 && !smoke) return { notebooks: [], note: "no notebooks yet" };
  if (!(await jupyterAvailable())) {
    return { notebooks: [], note: "jupyter nbconvert is not installed: nothing executed" };
  }
  const scratch = await Deno.makeTempDir({ prefix: "bench-notebooks-" });
  try {
    const empty = `${scratch}/empty.ipynb`;
    await Deno.writeTextFile(empty, JSON.stringify(EMPTY_NOTEBOOK));
    const chosen = smoke ? [] : notebooks;
    const times = new Map<string, number[]>([empty, ...chosen].map((nb) => [nb, []]));
    const left = new Set<string>();
    const executed = new Map<string, Notebook>();
    for (let round = 0; round < (smoke ? 1 : rounds); round++) {
      for (const notebook of times.keys()) {
        const path = notebook.startsWith("/") ? notebook : projectPath(notebook);
        const started = performance.now();
        const run = await runNotebook(path, { env: { COURSE_WORK: `${scratch}/work` } });
        times.get(notebook)!.push(performance.now() - started);
        executed.set(notebook, run.notebook);
        if (notebook !== empty && !(await nothingLeft())) left.add(notebook);
      }
    }
    const emptyMs = median(times.get(empty)!);
    const runs: NotebookRun[] = [];
    for (const notebook of chosen) {
      const each = times.get(notebook)!;
      runs.push({
        notebook,
        rounds: each,
        medianMs: median(each),
        vsEmpty: median(each) / emptyMs,
        slowestCells: slowestCells(executed.get(notebook)!, 3),
        leftRunning: left.has(notebook),
      });
    }
    return {
      notebooks: runs,
      emptyMs,
      totalMs: runs.reduce((sum, run) => sum + run.medianMs, 0),
      note: !smoke
        ? undefined
        : notebooks.length === 0
        ? "no notebooks yet"
        : `${notebooks.length} found, not run (smoke)`,
    };
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}

async function jupyterAvailable(): Promise<boolean> {
  try {
    const { success } = await new Deno.Command(jupyterCommand(), {
      args: ["nbconvert", "--version"],
      stdout: "null",
      stderr: "null",
    }).output();
    return success;
  } catch {
    return false;
  }
}

/** Whether tools/leftovers.ts finds no process of the course still running. */
async function nothingLeft(): Promise<boolean> {
  const { success } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", projectPath("tools/leftovers.ts")],
    stdout: "null",
    stderr: "null",
  }).output();
  return success;
}

/** The `count` slowest code cells of an executed notebook, from the times Jupyter records. */
export function slowestCells(notebook: Notebook, count: number): NotebookRun["slowestCells"] {
  return notebook.cells
    .map((cell, index) => {
      const times = (cell.metadata.execution ?? {}) as Record<string, string>;
      const start = Date.parse(times["iopub.execute_input"] ?? "");
      const end = Date.parse(times["shell.execute_reply"] ?? "");
      const source = Array.isArray(cell.source) ? cell.source.join("") : cell.source;
      return { index, ms: end - start, firstLine: source.split("\n")[0].slice(0, 60) };
    })
    .filter((cell) => Number.isFinite(cell.ms))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);
}
