/**
 * Which of a notebook's cells do not parse, each on its own, as the Deno
 * kernel parses a cell when it runs it: the grader makes one module of a
 * notebook's cells, and one cell that does not parse stopped all of them,
 * where the notebook ran the others (and its tables showed their functions
 * passing). Deno's own parser judges, through `deno fmt --check` in a
 * process of its own, which reads the cells as text and runs none of them,
 * within a time limit and a learner's memory: a cell it cannot judge within
 * them is not called unparsed. (It formats as it checks, in about 1.7 GB for
 * a dense cell of 1 MB: a cell of 3.2 MB took it past the machine's 24 GB.
 * `deno lint` parses for a seventh of that, but calls cells unparsed that
 * Deno's loader runs, such as `const { a, ...b, } = {}`.)
 *
 * @module
 */

import { parseNotebook } from "../editions/notebook.ts";
import type { Submission } from "./collect.ts";
import type { CaseResult } from "./sandbox.ts";
import { courseCells, moduleCells } from "./scratch.ts";
import type { UnitSpec } from "./spec.ts";
import { removeTempFolder, tempFolder } from "../../lib/course/temp_folders.ts";
import { killGroup, spawnInOwnSession, utilLinux } from "./own_session.ts";
import { processUsage } from "./process_usage.ts";

/** The most resident memory the check may hold: a learner's, as their sandbox may. */
const CHECK_BYTES = 512 << 20;
/** How often the check's memory is read. */
const POLL_MS = 10;
/**
 * The machine's own prlimit (util-linux's, as setsid), by which the kernel
 * holds the check to twice {@linkcode CHECK_BYTES} of data and a CPU time of
 * its own, whatever the grader does: killed outright (SIGKILL, the OOM
 * killer), the grader watches nothing, and too busy to read, it reads late.
 */
const PRLIMIT = utilLinux("prlimit");

/** How the sandbox's results begin for a module that does not parse (`sandbox_runner.ts`). */
const DOES_NOT_PARSE = "the code does not load, so none of it runs: SyntaxError";

/**
 * Whether `results` (one module's, from the sandbox) say the module did not
 * load because it does not parse.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const result = { unit: "ch14-a", fn: "authorize", case: "a", hidden: false, status: "FAIL" as const };
 * assert.ok(didNotParse([{ ...result, observed: "the code does not load, so none of it runs: SyntaxError: Unexpected token" }]));
 * assert.ok(!didNotParse([{ ...result, observed: "returned false, expected true" }]));
 * ```
 */
export function didNotParse(results: readonly CaseResult[]): boolean {
  return results.some((result) => !result.hidden && result.observed.startsWith(DOES_NOT_PARSE));
}

/** How the sandbox's results begin for a module that does not load (`sandbox_runner.ts`). */
const DOES_NOT_LOAD = "the code does not load, so none of it runs: ";

/**
 * The cell of the module at `url` (`text` reads it, as `learnerModule`
 * made it) where the sandbox's `results` say its load stopped, at a line of
 * it, by id with the message and the line (see {@linkcode unparsedCells}):
 * an error V8 finds as it parses (`await` in a function not `async`, a
 * regular expression that does not close), which Deno's own parser lets
 * through, or one thrown as the module loads (`class B extends A` where A's
 * cell was left out), which the kernel, too, meets in that cell alone. Empty
 * when the results name no line of the module below a cell's heading
 * (`// cell ID`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const url = "file:///tmp/grade-x/learner/ch14-a.ts";
 * const module = 'import x from "y";\n// cell authorize\nfunction authorize() {\n  await 1;\n}\n// cell b\nclass B extends A {}';
 * const said = (observed: string) => [{ unit: "ch14-a", fn: "authorize", case: "a", hidden: false, status: "FAIL" as const, observed }];
 * const parse = said(`the code does not load, so none of it runs: Unexpected reserved word at ${url}:4:3`);
 * assert.deepEqual(cellAtLoadError(parse, url, () => module), {
 *   authorize: "SyntaxError: Unexpected reserved word, in: await 1;",
 * });
 * const thrown = said(`the code does not load, so none of it runs: A is not defined (ReferenceError, at ${url}:7:17)`);
 * assert.deepEqual(cellAtLoadError(thrown, url, () => module), {
 *   b: "ReferenceError: A is not defined, in: class B extends A {}",
 * });
 * ```
 */
export function cellAtLoadError(
  results: readonly CaseResult[],
  url: string,
  text: () => string,
): Record<string, string> {
  const place = `${url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:(\\d+):\\d+`;
  const where = new RegExp(`^(.+?)(?: at ${place}| \\((\\w+), at ${place}\\))$`);
  const found = results.filter(({ hidden }) => !hidden).map(({ observed }) =>
    observed.startsWith(DOES_NOT_LOAD) ? where.exec(observed.slice(DOES_NOT_LOAD.length)) : null
  ).find((match) => match !== null);
  if (found === undefined || found === null) return {};
  const [, message, parsedAt, name, thrownAt] = found;
  const line = Number(parsedAt ?? thrownAt);
  const lines = text().split("\n");
  for (let heading = line - 1; heading >= 0 && heading < lines.length; heading--) {
    const id = /^\/\/ cell (\S+)(?: \(added by the learner\))?$/.exec(lines[heading])?.[1];
    if (id !== undefined) {
      return { [id]: `${name ?? "SyntaxError"}: ${message}, in: ${lines[line - 1].trim()}` };
    }
  }
  return {};
}

/**
 * The cells of `submission`'s notebook that its module is made of and that
 * do not parse on their own, by id, each with Deno's message (see
 * {@linkcode unparsedCells}); empty for a module handed in as one, or a
 * notebook whose every cell parses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * const folder = await Deno.makeTempDir();
 * const cell = { cell_type: "code", id: "authorize", metadata: {}, outputs: [], execution_count: null, source: "function authorize( {" };
 * await Deno.writeTextFile(`${folder}/ch14-a.ipynb`, JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [cell] }));
 * const code = { kind: "notebook" as const, path: `${folder}/ch14-a.ipynb` };
 * const found = await cellsThatDoNotParse({ unit: "ch14-a", code }, UNITS.get("ch14-a")!);
 * assert.deepEqual(Object.keys(found), ["authorize"]);
 * await Deno.remove(folder, { recursive: true });
 * ```
 */
export async function cellsThatDoNotParse(
  submission: Submission,
  spec: UnitSpec,
): Promise<Record<string, string>> {
  if (submission.code?.kind !== "notebook") return {};
  const { path } = submission.code;
  const notebook = parseNotebook(await Deno.readTextFile(path), path);
  return await unparsedCells(moduleCells(notebook, spec, await courseCells(spec.unit)));
}

/**
 * `results` (a module's, run without the cells of `leftOut`) with each case
 * of a graded function whose cell was left out, and that found no function,
 * saying why there was none, and each that met a name not defined, or whose
 * module did not load, saying which other cell was left out (one that
 * declared a name it uses).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * const result = { unit: "ch14-a", fn: "authorize", case: "a", hidden: false, status: "FAIL" as const, observed: "there is no function authorize" };
 * const [said] = saidLeftOut([result], UNITS.get("ch14-a")!, { authorize: "SyntaxError: Unexpected token" });
 * assert.equal(said.observed, "its cell authorize does not parse, so it was left out (the notebook runs its other cells): SyntaxError: Unexpected token");
 * const threw = { ...result, observed: "it threw ReferenceError (helper is not defined)" };
 * const [told] = saidLeftOut([threw], UNITS.get("ch14-a")!, { mine: "SyntaxError: Unexpected token" });
 * assert.equal(told.observed, "it threw ReferenceError (helper is not defined); cell mine does not parse, so it was left out (the notebook runs its other cells): SyntaxError: Unexpected token");
 * ```
 */
export function saidLeftOut(
  results: readonly CaseResult[],
  spec: UnitSpec,
  leftOut: Readonly<Record<string, string>>,
): CaseResult[] {
  return results.map((result) => {
    const fn = spec.functions.find(({ name }) => name === result.fn);
    const cell = [fn?.cell, ...fn?.parts ?? []].find((id) =>
      id !== undefined && Object.hasOwn(leftOut, id)
    );
    if (cell !== undefined && result.observed.startsWith("there is no function")) {
      return { ...result, observed: `its cell ${cell} ${leftOutFor(leftOut[cell])}` };
    }
    // A name another cell left out declared (a given helper, the learner's own), or a module that
    // still does not load (a later cell extends a class the cell left out declared): the cell left
    // out says why.
    const loaded = !result.observed.startsWith(DOES_NOT_LOAD);
    const other = Object.keys(leftOut).find((id) => id !== cell || !loaded);
    if (other === undefined || (loaded && !/\bReferenceError\b/.test(result.observed))) {
      return result;
    }
    return {
      ...result,
      observed: `${result.observed}; cell ${other} ${leftOutFor(leftOut[other])}`,
    };
  });
}

/** What a message says of a cell left out, for `why`. */
function leftOutFor(why: string): string {
  const what = why.startsWith("SyntaxError") ? "does not parse" : "stops the module as it loads";
  return `${what}, so it was left out (the notebook runs its other cells): ${why}`;
}

/** A cell as the check takes it: its id and its source. */
export interface CellSource {
  id: string;
  source: string;
}

/**
 * The cells of `cells` that do not parse on their own as TypeScript modules,
 * by id, each with Deno's message in one line (`SyntaxError: ..., in: the
 * line`). Empty when every cell parses, or when the check cannot say within
 * `ms` and 512 MB.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const found = await unparsedCells([
 *   { id: "fine", source: "const limit: number = 3;\nawait Promise.resolve(limit);" },
 *   { id: "typo", source: "function f() {\n  return [[1];\n}" },
 * ]);
 * assert.deepEqual(found, { typo: "SyntaxError: Expected ',', got ';', in: return [[1];" });
 * ```
 */
export async function unparsedCells(
  cells: readonly CellSource[],
  ms = 20_000,
): Promise<Record<string, string>> {
  if (cells.length === 0) return {};
  const folder = tempFolder("grade-cells-");
  try {
    // Named by their folder, not one by one: 40,000 cells' paths passed the kernel's limit on a
    // command line (E2BIG), and the learner was not graded at all.
    await Deno.mkdir(`${folder}/cells`);
    const files = cells.map((_, at) => `${folder}/cells/${at}.ts`);
    await Promise.all(cells.map(({ source }, at) => Deno.writeTextFile(files[at], source)));
    // Twice the watched limit: the kernel counts what the program may write (its threads' stacks
    // too), not what it holds; and the CPU time of two threads busy for the whole time limit.
    const limits = PRLIMIT === undefined
      ? []
      : [PRLIMIT, `--data=${2 * CHECK_BYTES}`, `--cpu=${Math.ceil(ms / 1000) * 2}`, "--"];
    // In a session of its own, as the grader's other processes: ended with them when the grader
    // is (a SIGTERM or a closed terminal, which reach the grader alone, left it running, on a
    // large cell for seconds, after the grader had gone).
    const child = spawnInOwnSession([
      ...limits,
      Deno.execPath(),
      "fmt",
      "--check",
      "--no-config",
      "--",
      `${folder}/cells`,
    ], {
      cwd: folder,
      clearEnv: true,
      // Its cache in the folder too, which goes with it: it has nothing to keep.
      env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", DENO_DIR: `${folder}/deno` },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    });
    let stopped = false;
    const stop = () => {
      stopped = true;
      killGroup(child);
    };
    const timer = setTimeout(stop, ms);
    const watch = setInterval(() => {
      if (processUsage(child.pid).resident > CHECK_BYTES) stop();
    }, POLL_MS);
    const { stdout, stderr } = await child.output().finally(() => {
      clearTimeout(timer);
      clearInterval(watch);
    });
    if (stopped) return {};
    const said = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
    const found: Record<string, string> = {};
    // "Error checking: PATH\n  SyntaxError: MESSAGE\n    |\n  4 |   CODE\n ...": a file it could
    // not format for another reason (none is known) is not taken for one that does not parse.
    const errors = /^Error checking: (.+)\n\s*(SyntaxError: .*)\n(?:\s*\|\n\s*\d+ \|(.*)\n)?/gm;
    for (const [, path, message, line] of said.matchAll(errors)) {
      const at = files.indexOf(path);
      if (at === -1) continue;
      found[cells[at].id] = line === undefined ? message : `${message}, in: ${line.trim()}`;
    }
    return found;
  } finally {
    await removeTempFolder(folder);
  }
}
