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

import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { parseNotebook } from "../editions/notebook.ts";
import { learnerModule } from "./scratch.ts";
import { newestNotebook } from "./learner_server.ts";
import { CH14_A } from "./units/ch14_a.ts";
import { CASES } from "../../cases/ch14_a.ts";
import { gradeCases } from "../../lib/grading/grading.ts";
import type { Need } from "../../lib/course/readiness.ts";
import type { AnswerFunction } from "../../lib/mcp/client/connection_options.ts";
import type { Authorize } from "../../lib/mcp/client/tool_call.ts";

/** Options of {@linkcode YourUnitA}. */
export interface YourUnitAOptions {
  /** The folder whose newest saved Unit A notebook holds them. @default {the kernel's folder} */
  folder?: string;
}

/** The `Client` options that take Unit A's functions. */
export interface UnitAOptions {
  answer: AnswerFunction;
  authorize: Authorize;
}

const LIB = new URL("../../lib/", import.meta.url).href;

/**
 * Your `answerFor` and `authorize`, from the most recently saved Unit A
 * notebook (`ch14-a`) in a folder. Each step that uses them gates on
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
  #answerFor: (...args: never[]) => unknown = notLoaded;
  #authorize: (...args: never[]) => unknown = notLoaded;

  /** Your functions from the Unit A notebook saved in `options.folder`. */
  constructor(options: YourUnitAOptions = {}) {
    this.#folder = options.folder;
  }

  /**
   * Load both functions again from the newest saved Unit A notebook, and
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
      const notebook = await newestNotebook(CH14_A.unit, folder);
      if (notebook === undefined) {
        throw new Error(
          `there is no saved Unit A notebook (ch14-a) in ${folder}: the course runs your ` +
            "answerFor and authorize from it",
        );
      }
      where = basename(notebook);
      graded = await loaded(notebook);
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
        grade: () => gradeCases(answerFor, CASES.answerFor),
      },
      {
        name: "authorize",
        cell: `the ✏️ cell of section 2 of ${where}`,
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

/** What a function is before `needs()` has loaded it: a mistake of the course's. */
function notLoaded(): never {
  throw new Error("Unit A's functions are used before YourUnitA.needs() loaded them");
}

/** The graded functions of the Unit A `notebook`, as a module written from its cells and imported. */
async function loaded(notebook: string): Promise<Record<string, unknown>> {
  const parsed = parseNotebook(await Deno.readTextFile(notebook), notebook);
  const folder = await Deno.makeTempDir({ prefix: "your-unit-a-" });
  try {
    // A .mts file: TypeScript, and never taken by the grader for a module a learner submitted.
    const path = `${folder}/unit_a.mts`;
    await Deno.writeTextFile(path, learnerModule(parsed, CH14_A, { lib: LIB }));
    try {
      const { graded } = await import(pathToFileURL(path).href);
      return graded;
    } catch (error) {
      throw new Error(
        `the cells of ${basename(notebook)} do not load (${firstLine(error)}): ` +
          "run them there to see where",
      );
    }
  } finally {
    await Deno.remove(folder, { recursive: true });
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
