/**
 * Unit A's `answerFor` and `authorize`, the learner's own, for the later
 * units' `Client`s: taken from the saved Unit A notebook in the kernel's
 * folder (`work/ch14-a.ipynb` for a learner; the worked edition's beside
 * it), exactly as the autograder takes them, and graded on Unit A's visible
 * cases each time a step asks, so that the step waits (↷) in one line while
 * they do not pass.
 *
 * @module
 */

import { basename, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseNotebook } from "../editions/notebook.ts";
import { moduleAsGraded } from "./module_as_graded.ts";
import { unitNotebooks } from "./learner_server.ts";
import { preferredCode } from "./collect.ts";
import { CH14_A } from "./units/ch14_a.ts";
import { CASES } from "../../cases/ch14_a.ts";
import { gradeCases } from "../../lib/grading/grading.ts";
import { captureStderr, captureStdout } from "../../lib/notebook/stdout_capture.ts";
import { killGroup, spawnInOwnSession } from "./own_session.ts";
import type { Need } from "../../lib/course/readiness.ts";
import type { AnswerFunction } from "../../lib/mcp/client/connection_options.ts";
import type { Authorize } from "../../lib/mcp/client/tool_call.ts";

/** Options of {@linkcode YourUnitA}. */
export interface YourUnitAOptions {
  /** The folder whose saved Unit A notebook holds them (see `needs`). @default {the kernel's folder} */
  folder?: string;
  /**
   * How long the cells may take to load, in a process of their own, before
   * they are taken into the kernel's. @default {20_000}
   */
  loadMs?: number;
}

/** The `Client` options that take Unit A's functions. */
export interface UnitAOptions {
  answer: AnswerFunction;
  authorize: Authorize;
}

const LIB = new URL("../../lib/", import.meta.url).href;

/**
 * Your `answerFor` and `authorize`, from your saved Unit A notebook
 * (`ch14-a`) in a folder: the one the autograder takes for yours. Each step that uses them gates on
 * {@linkcode YourUnitA.needs} (see `ready`), which loads them again from the
 * saved notebook, then passes {@linkcode YourUnitA.options} to its `Client`.
 *
 * @example The worked Unit A's functions pass; a folder with no Unit A waits
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileURLToPath } from "node:url";
 * import { verdict } from "../../lib/grading/grading.ts";
 *
 * const worked = new YourUnitA({ folder: fileURLToPath(new URL("../../solutions/", import.meta.url)) });
 * for (const need of await worked.needs()) assert.equal(verdict(await need.grade()), "PASSED");
 * assert.equal(worked.options.authorize("a", { a: {} }, new Set(["a"])), true);
 *
 * const folder = await Deno.makeTempDir();
 * const [need] = await new YourUnitA({ folder }).needs();
 * await assert.rejects(async () => await need.grade(), /no saved Unit A notebook \(ch14-a\)/);
 * await Deno.remove(folder);
 * ```
 */
export class YourUnitA {
  readonly #folder?: string;
  readonly #loadMs: number;
  #answerFor: (...args: never[]) => unknown = notLoaded;
  #authorize: (...args: never[]) => unknown = notLoaded;

  /** Your functions from the Unit A notebook saved in `options.folder`. */
  constructor(options: YourUnitAOptions = {}) {
    this.#folder = options.folder;
    this.#loadMs = options.loadMs ?? 20_000;
  }

  /**
   * Load both functions again from your saved Unit A notebook (the one the
   * autograder would take for yours, or else the most recently saved), and
   * return what a step using them needs: each graded on Unit A's visible
   * cases when `ready` asks. When there is no such notebook, or its cells do
   * not load, each need's grading fails saying why in one line, and the
   * functions throw the same.
   */
  async needs(): Promise<Need[]> {
    const folder = this.#folder ?? Deno.cwd();
    let where: string;
    let graded: Record<string, unknown>;
    try {
      const notebook = await yourNotebook(folder);
      if (notebook === undefined) {
        throw new Error(
          `there is no saved Unit A notebook (ch14-a) in ${folder}: the course runs your ` +
            "answerFor and authorize from it",
        );
      }
      // With its folder: a handout beside the handouts' starter (notebooks/ch14-a.ipynb) is not
      // taken for the learner's work/ch14-a.ipynb.
      where = `${basename(dirname(notebook))}/${basename(notebook)}`;
      graded = await loaded(notebook, this.#loadMs);
    } catch (error) {
      const reason = firstLine(error);
      const fails = (): never => {
        throw new Error(reason);
      };
      this.#answerFor = this.#authorize = fails;
      return CH14_A.functions.map((fn) => ({ name: fn.name, cell: "Unit A", grade: fails }));
    }
    this.#answerFor = asFunction(graded.answerFor, "answerFor");
    this.#authorize = asFunction(graded.authorize, "authorize");
    const answerFor = this.#answerFor;
    const authorize = this.#authorize;
    return [
      {
        name: "answerFor",
        cell: `the ✏️ cell of section 1 of ${where}`,
        savedIn: where,
        grade: () => gradeCases(answerFor, CASES.answerFor),
      },
      {
        name: "authorize",
        cell: `the ✏️ cell of section 2 of ${where}`,
        savedIn: where,
        grade: () => gradeCases(authorize, CASES.authorize),
      },
    ];
  }

  /** Your functions as the last {@linkcode YourUnitA.needs} loaded them, as a `Client`'s options. */
  get options(): UnitAOptions {
    const answerFor = this.#answerFor as AnswerFunction;
    const authorize = this.#authorize as Authorize;
    return { answer: answerFor, authorize };
  }
}

/**
 * Your Unit A notebook in `folder`: of its Unit A notebooks, the one the
 * autograder takes for yours (`ch14-a.ipynb` over JupyterLab's duplicate
 * `ch14-a-Copy1.ipynb`, say), the most recently saved where its rules tell
 * none apart; undefined when it holds none.
 */
async function yourNotebook(folder: string): Promise<string | undefined> {
  const notebooks = await unitNotebooks(CH14_A.unit, folder);
  if (notebooks.length === 0) return undefined;
  return notebooks.reduce((chosen, next) => preferredCode(CH14_A.unit, chosen, next) ?? chosen);
}

/** What a function is before `needs()` has loaded it: a mistake of the course's. */
function notLoaded(): never {
  throw new Error("Unit A's functions are used before YourUnitA.needs() loaded them");
}

const CONFIG = fileURLToPath(new URL("../../deno.json", import.meta.url));

/** The modules that have loaded and answered in a process of their own, and ended: safe to take in. */
const loadsAlone = new Set<string>();

/**
 * The graded functions of the Unit A `notebook`, as a module written from its
 * cells and imported, once it has loaded and answered Unit A's visible cases
 * in a process of its own within `ms`: the kernel is never left waiting for
 * ever, nor ended (by `Deno.exit`), by a cell of Unit A's, and what the cells
 * print as they load is kept back.
 */
async function loaded(notebook: string, ms: number): Promise<Record<string, unknown>> {
  const parsed = parseNotebook(await Deno.readTextFile(notebook), notebook);
  // Beside the notebook, hidden: a relative import in its cells (`../lib/...`) finds what it
  // finds in the notebook's own kernel. A .mts file: TypeScript, and never taken by the grader
  // for a module a learner submitted.
  const path = await Deno.makeTempFile({
    dir: dirname(notebook),
    prefix: ".your-unit-a-",
    suffix: ".mts",
  });
  try {
    // The cells the learner added too (a helper their answerFor calls), as the autograder keeps them.
    const module = await moduleAsGraded(parsed, CH14_A, LIB);
    await Deno.writeTextFile(path, module);
    // Where it is matters to its relative imports, as what it says does.
    const tried = `${dirname(notebook)}\n${module}`;
    if (!loadsAlone.has(tried)) {
      await loadAlone(path, basename(notebook), ms);
      loadsAlone.add(tried);
    }
    const stopOut = captureStdout();
    const stopErr = captureStderr();
    try {
      const { graded } = await import(pathToFileURL(path).href);
      return graded;
    } catch (error) {
      throw new Error(
        `the cells of ${basename(notebook)} do not load (${firstLine(error)}): ` +
          "run them there to see where",
      );
    } finally {
      stopErr();
      stopOut();
    }
  } finally {
    await Deno.remove(path);
  }
}

/**
 * Load the module at `path` (of the notebook `name`) in a Deno of its own,
 * and run its functions on Unit A's visible cases there, as each step's
 * `ready` will, ended after `ms`; throw, in one line, when its code ends the
 * process or does not finish in time. A module that throws as it loads
 * passes here: the kernel's import says why.
 */
async function loadAlone(path: string, name: string, ms: number): Promise<void> {
  // What the child writes once it has answered: a file, since what the cells print is not read.
  const done = crypto.randomUUID();
  const answered = `${path}.answered`;
  const url = (file: string) => JSON.stringify(new URL(file, import.meta.url).href);
  // A timer keeps the process alive while the import waits (Deno would end one that waits on
  // nothing), and a rejection a function's promise leaves ends nothing (as in a kernel).
  const script = `setInterval(() => {}, 60_000);
globalThis.addEventListener("unhandledrejection", (event) => event.preventDefault());
try {
  const { graded } = await import(${JSON.stringify(pathToFileURL(path).href)});
  const { gradeCases } = await import(${url("../../lib/grading/grading.ts")});
  const { CASES } = await import(${url("../../cases/ch14_a.ts")});
  for (const [fn, cases] of Object.entries(CASES)) {
    if (typeof graded[fn] === "function") gradeCases(graded[fn], cases);
  }
} catch {}
Deno.writeTextFileSync(${JSON.stringify(answered)}, ${JSON.stringify(done)});
Deno.exit(0);`;
  const child = spawnInOwnSession(
    [Deno.execPath(), "run", "-A", "--no-check", "--no-lock", "--config", CONFIG, "-"],
    { stdin: "piped", stdout: "null", stderr: "null" },
  );
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(script));
  await writer.close();
  const timer = setTimeout(() => killGroup(child), ms);
  try {
    const { code, signal } = await child.status;
    if (await Deno.readTextFile(answered).catch(() => "") === done) return;
    throw new Error(
      signal === "SIGKILL"
        ? `the cells of ${name} do not load and answer Unit A's visible cases within ${
          ms / 1000
        } s (code that waits or loops for ever?): the course runs them before each step that uses them`
        : `the cells of ${name} end the process as they load or answer (exit code ${code}): the ` +
          "course runs them before each step that uses them, so no code there may end it",
    );
  } finally {
    clearTimeout(timer);
    await Deno.remove(answered).catch(() => {});
  }
}

/** `value` when it is a function; otherwise one that throws, saying the cell declares none. */
function asFunction(value: unknown, name: string): (...args: never[]) => unknown {
  if (typeof value === "function") return value as (...args: never[]) => unknown;
  return () => {
    throw new Error(`your Unit A notebook declares no function ${name}`);
  };
}

/** The first line of what `error` says. */
function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0];
}
