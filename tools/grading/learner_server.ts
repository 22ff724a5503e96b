/**
 * Lab 01's server as a process, and Lab 02's client as a module: the
 * learner's cells, taken from the saved notebook exactly as the autograder
 * takes them, written to a module under the work folder (the server's with a
 * last line that serves stdio when the module is run).
 * Before the module is trusted, its functions are run on the visible cases
 * beside the ones the kernel holds: a notebook saved before the last edit is
 * refused, with a message saying so.
 *
 * @module
 */

import { basename, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { parseNotebook } from "../editions/notebook.ts";
import { libraryFiles } from "./scratch.ts";
import { moduleAsGraded } from "./module_as_graded.ts";
import { UNITS } from "./units/mod.ts";
import { folderOnlyImportMap, learnerServerCommand } from "../../lib/course/course.ts";
import { isObject } from "../../lib/mcp/shared/jsonrpc.ts";
import { sha256Hex } from "../../lib/course/manifest.ts";
import { captureStdout } from "../../lib/notebook/stdout_capture.ts";
import { CASES } from "../../cases/lab_02.ts";
import { drive as driveClient } from "./drivers/lab_02_client.ts";

/** The module Lab 01 writes, and how to start it. */
export interface LearnerServer {
  /** The module's path. */
  path: string;
  /** The notebook its cells came from. */
  notebook: string;
  /** The command that starts it, with no permission at all. */
  command: string[];
  /** The module's SHA-256, in hex: later readers can tell it is the one that was judged. */
  sha256: string;
}

/** Options for {@linkcode writeLearnerServer}. */
export interface LearnerServerOptions {
  /** The graded functions as the kernel holds them, by name, to compare with the saved cells. */
  running: Record<string, (...args: never[]) => unknown>;
  /** The notebook to read. @default {the one the kernel runs, or the newest of the unit's here} */
  notebook?: string;
  /** The module's file name. @default {"grammar_server.mts"} */
  name?: string;
}

/** A saved notebook that does not hold the code the kernel runs. */
export class StaleNotebookError extends Error {
  /** Make the error. */
  constructor(message: string) {
    super(message);
    this.name = "StaleNotebookError";
  }
}

const ROOT = new URL("../../", import.meta.url);
const LIB = new URL("lib/", ROOT).href;

/**
 * Write the learner's server for `unit` into `folder` and return how to
 * start it. Throws {@linkcode StaleNotebookError} when the saved notebook's
 * functions do not behave like the running ones on the visible cases.
 *
 * @example A saved notebook that differs from what the kernel runs is refused
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileURLToPath, pathToFileURL } from "node:url";
 *
 * const folder = await Deno.makeTempDir();
 * await assert.rejects(
 *   writeLearnerServer(pathToFileURL(`${folder}/`), "lab-01", {
 *     notebook: fileURLToPath(new URL("../../solutions/lab-01.ipynb", import.meta.url)),
 *     running: { negotiateVersion: () => "2024-11-05", handleMessage: () => undefined },
 *   }),
 *   StaleNotebookError,
 * );
 * await Deno.remove(folder, { recursive: true });
 * ```
 */
export async function writeLearnerServer(
  folder: URL,
  unit: string,
  options: LearnerServerOptions,
): Promise<LearnerServer> {
  const spec = UNITS.get(unit);
  if (spec === undefined) throw new TypeError(`No unit ${unit}`);
  const notebook = options.notebook ?? await findNotebook(spec.unit);
  const parsed = parseNotebook(await Deno.readTextFile(notebook), notebook);
  // A .mts file: TypeScript, and never taken by the grader for a module a learner submitted.
  // The cells the learner added too (a helper their handleMessage calls), as the autograder keeps them.
  const source = await moduleAsGraded(parsed, spec, "./lib/") +
    "if (import.meta.main) await serveStdio(Deno.stdin.readable, Deno.stdout.writable);\n";
  await Deno.mkdir(folder, { recursive: true });
  // The library files the cells may use, beside the module: it loads nothing outside its folder.
  for (const file of await libraryFiles(new Map([[unit, spec]]))) {
    const target = new URL(file, folder);
    await Deno.mkdir(new URL("./", target), { recursive: true });
    await Deno.copyFile(new URL(file, ROOT), target);
  }
  await Deno.writeTextFile(
    new URL("import_map.json", folder),
    JSON.stringify(folderOnlyImportMap(folder)),
  );
  const url = new URL(options.name ?? "grammar_server.mts", folder);
  await Deno.writeTextFile(url, source);
  const saved = await import(`${url.href}?written=${Date.now()}`);
  for (const fn of spec.functions) {
    const differs = fn.cases.find((testCase) =>
      !isDeepStrictEqual(
        outcome(saved.graded[fn.name], testCase.args, fn.normalize),
        outcome(options.running[fn.name], testCase.args, fn.normalize),
      )
    );
    if (differs !== undefined) {
      throw new StaleNotebookError(
        `The saved ${basename(notebook)} does not hold the ${fn.name} this kernel runs ` +
          `(they differ on "${differs.label}"): save the notebook, then run this cell again.`,
      );
    }
  }
  const path = fileURLToPath(url);
  return {
    path,
    notebook,
    command: learnerServerCommand(path),
    sha256: await sha256Hex(new TextEncoder().encode(source)),
  };
}

/** Lab 02's client as a module. */
export interface LearnerClient {
  /** The module's path. */
  path: string;
  /** The notebook its cells came from. */
  notebook: string;
  /** The module's SHA-256, in hex. */
  sha256: string;
  /** The module's own `McpClient`, the class the lab's demo runs. */
  McpClient: new (...args: never[]) => unknown;
}

/** Options for {@linkcode writeLearnerClient}. */
export interface LearnerClientOptions {
  /** The `McpClient` class the kernel holds, to compare with the saved one. */
  running: unknown;
  /** The notebook to read. @default {the one the kernel runs, or the newest of the unit's here} */
  notebook?: string;
}

/** The parts of Lab 02 that are the client (its tests go elsewhere). */
const CLIENT_PARTS = [
  "correlate",
  "unwrap",
  "eraOf",
  "ServerLink",
  "RpcLink",
  "HandshakeClient",
  "ListingClient",
  "McpClient",
];

/**
 * Write Lab 02's client, the learner's cells from `correlate` to
 * `McpClient` (`eraOf` among them) taken from the saved notebook as the autograder takes them,
 * to `mcp_client.mts` in `folder`, exporting `McpClient`; import it, and
 * return its class. Throws {@linkcode StaleNotebookError} when the saved
 * `McpClient` does not behave like the running one on the visible cases.
 *
 * @example From the worked edition: refused beside a client that does nothing, then taken
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileURLToPath, pathToFileURL } from "node:url";
 *
 * const notebook = fileURLToPath(new URL("../../solutions/lab-02.ipynb", import.meta.url));
 * const folder = await Deno.makeTempDir();
 * const first = await writeLearnerClient(pathToFileURL(`${folder}/a/`), {
 *   notebook,
 *   running: class Idle {},
 * }).catch((error) => error);
 * assert.equal(first.name, "StaleNotebookError");
 * const { McpClient } = await import(pathToFileURL(`${folder}/a/mcp_client.mts`).href);
 * const taken = await writeLearnerClient(pathToFileURL(`${folder}/b/`), { notebook, running: McpClient });
 * assert.equal(taken.McpClient.name, "McpClient");
 * await Deno.remove(folder, { recursive: true });
 * ```
 */
export async function writeLearnerClient(
  folder: URL,
  options: LearnerClientOptions,
): Promise<LearnerClient> {
  const spec = UNITS.get("lab-02")!;
  const notebook = options.notebook ?? await findNotebook(spec.unit);
  const parsed = parseNotebook(await Deno.readTextFile(notebook), notebook);
  const client = {
    ...spec,
    functions: spec.functions.filter((fn) => CLIENT_PARTS.includes(fn.name)),
  };
  const source = await moduleAsGraded(parsed, client, LIB) + "export { McpClient };\n";
  await Deno.mkdir(folder, { recursive: true });
  const url = new URL("mcp_client.mts", folder);
  await Deno.writeTextFile(url, source);
  const saved = await import(`${url.href}?written=${Date.now()}`);
  const McpClient = saved.McpClient;
  for (const testCase of CASES.McpClient) {
    const observe = (Class: unknown) =>
      driveClient(Class, structuredClone(testCase.args), { graded: {} }).catch((error) =>
        `threw ${error instanceof Error ? error.name : typeof error}`
      );
    if (!isDeepStrictEqual(await observe(McpClient), await observe(options.running))) {
      throw new StaleNotebookError(
        `The saved ${basename(notebook)} does not hold the McpClient this kernel runs ` +
          `(they differ on "${testCase.label}"): save the notebook, then run this cell again.`,
      );
    }
  }
  return {
    path: fileURLToPath(url),
    notebook,
    sha256: await sha256Hex(new TextEncoder().encode(source)),
    McpClient,
  };
}

/**
 * What a function did with `args`, printing kept back: its value in the form
 * the grader compares (`normalize`), or its error's name.
 */
function outcome(
  fn: unknown,
  args: readonly unknown[],
  normalize: (value: unknown) => unknown = (value) => value,
): unknown {
  if (typeof fn !== "function") return "no such function";
  const stop = captureStdout();
  try {
    return { returned: normalize(fn(...structuredClone(args))) };
  } catch (error) {
    return { threw: error instanceof Error ? error.name : typeof error };
  } finally {
    stop();
  }
}

/**
 * The notebook file of `unit` the kernel runs: the one Jupyter names in
 * `JPY_SESSION_NAME` (JupyterLab and Notebook 7 set it), or else the most
 * recently saved notebook of that unit in the kernel's folder.
 */
async function findNotebook(unit: string): Promise<string> {
  const named = Deno.env.get("JPY_SESSION_NAME");
  if (named?.endsWith(".ipynb")) {
    const path = resolve(named);
    if (await Deno.stat(path).then((info) => info.isFile, () => false)) return path;
  }
  const newest = await newestNotebook(unit, Deno.cwd());
  if (newest === undefined) {
    throw new Error(
      `No saved notebook of ${unit} in ${Deno.cwd()}: save this notebook there, then run this cell again.`,
    );
  }
  return newest;
}

/**
 * The most recently saved notebook of `unit` (as its metadata names it) in
 * `folder`, or `undefined` when it holds none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileURLToPath } from "node:url";
 *
 * const solutions = fileURLToPath(new URL("../../solutions/", import.meta.url));
 * assert.equal(await newestNotebook("ch14-a", solutions), `${solutions}ch14-a.ipynb`);
 * assert.equal(await newestNotebook("no-such-unit", solutions), undefined);
 * ```
 */
export async function newestNotebook(unit: string, folder: string): Promise<string | undefined> {
  return (await unitNotebooks(unit, folder))[0];
}

/**
 * Every saved notebook of `unit` (as its metadata names it) in `folder`,
 * the most recently saved first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileURLToPath } from "node:url";
 *
 * const solutions = fileURLToPath(new URL("../../solutions/", import.meta.url));
 * assert.deepEqual(await unitNotebooks("ch14-a", solutions), [`${solutions}ch14-a.ipynb`]);
 * ```
 */
export async function unitNotebooks(unit: string, folder: string): Promise<string[]> {
  const found: [string, number][] = [];
  for await (const entry of Deno.readDir(folder)) {
    if (!entry.isFile || !entry.name.endsWith(".ipynb")) continue;
    const path = resolve(folder, entry.name);
    try {
      const metadata = JSON.parse(await Deno.readTextFile(path)).metadata;
      if (!isObject(metadata?.course) || metadata.course.unit !== unit) continue;
      found.push([path, (await Deno.stat(path)).mtime?.getTime() ?? 0]);
    } catch {
      // Not a notebook this can read: not this one.
    }
  }
  return found.sort((a, b) => b[1] - a[1]).map(([path]) => path);
}
