/**
 * Execute a notebook headlessly with the Deno kernel through Jupyter's own
 * executor (`jupyter nbconvert --execute`, from the course's virtual environment
 * when it has one), and read what its cells printed. The kernel is the `deno`
 * running this code, from a kernelspec of the course's own
 * (`tools/jupyter/kernelspec.ts`), never the user's.
 *
 * @module
 */

import { type Cell, type Notebook, parseNotebook } from "./editions/notebook.ts";
import { jupyterCommand } from "./jupyter/jupyter.ts";
import { denoKernelEnv } from "./jupyter/kernelspec.ts";

/** Options for {@linkcode runNotebook}. */
export interface RunNotebookOptions {
  /** Extra environment for the kernel, such as `COURSE_WORK`. @default {{}} */
  env?: Record<string, string>;
  /**
   * The most seconds any one cell may take, and the kernel to start (a bound
   * against a hang, long enough for a busy machine). @default {300}
   */
  cellTimeoutSeconds?: number;
  /** Whether a cell that fails lets the cells after it run, as Run All in JupyterLab does not. @default {false} */
  allowErrors?: boolean;
}

/** A notebook that did not run to its end. */
export class NotebookRunError extends Error {
  /** Make the error. */
  constructor(message: string) {
    super(message);
    this.name = "NotebookRunError";
  }
}

/** What a run produced: the executed notebook, and each code cell's text output by id. */
export interface NotebookRun {
  notebook: Notebook;
  outputs: Map<string, string>;
  /** Every cell's text output, in order. */
  text: string;
}

/**
 * Run the notebook at `path` (with the kernel working in its folder) and
 * return what it printed. Throws `NotebookRunError`, quoting the executor's
 * last lines, when a cell fails or times out.
 */
export async function runNotebook(
  path: string,
  options: RunNotebookOptions = {},
): Promise<NotebookRun> {
  const outputDir = await Deno.makeTempDir({ prefix: "notebook-run-" });
  try {
    const { code, stderr } = await new Deno.Command(jupyterCommand(), {
      args: [
        "nbconvert",
        "--to",
        "notebook",
        "--execute",
        path,
        "--output-dir",
        outputDir,
        `--ExecutePreprocessor.timeout=${options.cellTimeoutSeconds ?? 300}`,
        `--ExecutePreprocessor.startup_timeout=${options.cellTimeoutSeconds ?? 300}`,
        ...(options.allowErrors ? ["--allow-errors"] : []),
      ],
      env: { NO_COLOR: "1", ...await denoKernelEnv(), ...options.env },
      stdout: "null",
      stderr: "piped",
    }).output();
    if (code !== 0) {
      const tail = new TextDecoder().decode(stderr).trim().split("\n").slice(-15).join("\n");
      throw new NotebookRunError(`${path} did not run to its end:\n${tail}`);
    }
    const name = path.split("/").at(-1)!;
    const notebook = parseNotebook(await Deno.readTextFile(`${outputDir}/${name}`), name);
    const outputs = new Map(notebook.cells.map((cell) => [cell.id, textOf(cell)]));
    return { notebook, outputs, text: [...outputs.values()].join("") };
  } finally {
    await Deno.remove(outputDir, { recursive: true });
  }
}

/** The text a code cell showed: its streams, and the plain text of its displays and results. */
function textOf(cell: Cell): string {
  return (cell.outputs ?? []).map((output) => {
    const out = output as {
      output_type: string;
      text?: string | string[];
      data?: Record<string, string | string[]>;
    };
    const join = (value: string | string[] | undefined) =>
      Array.isArray(value) ? value.join("") : value ?? "";
    if (out.output_type === "stream") return join(out.text);
    if (out.output_type === "error") return `ERROR ${JSON.stringify(out)}\n`;
    return join(out.data?.["text/plain"]) + "\n";
  }).join("");
}
