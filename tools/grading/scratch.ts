/**
 * A learner's code, copied into a scratch folder of its own before it runs:
 * the sandbox may read that folder, and a folder shared by every learner of
 * the same units that holds nothing of any learner's, and nothing else. The
 * folders' names are the grader's, never the learner's, so no learner path
 * is ever spliced into a permission flag or a URL. The learner's folder
 * holds their modules (one per unit: the graded cells of a notebook, or a
 * module as submitted) and an import map; the shared one, made once per
 * process, the library files those modules may import, the sandbox's worker
 * and the drivers it runs, and the lock file for the npm packages the library
 * uses (ajv), which the sandbox takes from Deno's cache. The MCP SDKs are
 * not among the packages graded code is given ({@linkcode withoutSdks}).
 * Sharing it is what lets Deno compile those files once, rather than once
 * per learner.
 *
 * @module
 */

import { posix } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Notebook, parseNotebook, sourceOf } from "../editions/notebook.ts";
import type { Submission } from "./collect.ts";
import type { GradedFunction, UnitSpec } from "./spec.ts";
import { removeTempFolder, tempFolder } from "../../lib/course/temp_folders.ts";
import { courseImports } from "../../lib/course/course_imports.ts";
import { kernelModule, type ModuleCell } from "./cells.ts";
import { SEAL_STUB, sealedPath, wiredCopy } from "./library_copies.ts";
import { SEALS_RUN_HERE } from "./realm/graded_mark.ts";
import { REALM_MAKERS } from "./realm/realm_makers.ts";
import { closedPackages, commonJsPackages, lockedClosure } from "./closed_packages.ts";

const ROOT = new URL("../../", import.meta.url);
/**
 * The files the sandbox needs, as the repository lays them out: the worker,
 * the drivers, and everything those import (the course's tests check that
 * none is missing). The library files learners' modules import
 * come besides ({@linkcode libraryFiles}).
 */
export const SANDBOX_FILES: readonly string[] = [
  "tools/grading/sandbox_runner.ts",
  "tools/grading/sandbox_worker.ts",
  "tools/grading/realm/graded_realm.ts",
  "tools/grading/realm/graded_mark.ts",
  "tools/grading/realm/npm_refusal.ts",
  "tools/grading/realm/fixed.ts",
  "tools/grading/realm/no_other_realm.ts",
  "tools/grading/realm/no_new_names.ts",
  "tools/grading/realm/node_process.ts",
  "tools/grading/realm/realm_makers.ts",
  "tools/grading/realm/reach.ts",
  "tools/grading/realm/exits.ts",
  "tools/grading/realm/output.ts",
  "tools/grading/realm/port_transport.ts",
  "tools/grading/realm/remote_client.ts",
  "tools/grading/host/server_bridge.ts",
  "tools/grading/host/client_host.ts",
  "tools/grading/drivers/lab_02_client.ts",
  "tools/grading/drivers/lab_02_tests.ts",
  "tools/grading/drivers/lab_03_decode.ts",
  "tools/grading/drivers/faulty_client.ts",
  "lib/grading/grade_driven.ts",
  "lib/grading/grading.ts",
  "lib/grading/threw_outcome.ts",
  "lib/grading/json_differences.ts",
  "lib/notebook/stdout_capture.ts",
  "lib/mcp/shared/jsonrpc.ts",
  "lib/mcp/shared/errors.ts",
  "lib/grading/not_implemented.ts",
  "lib/mcp/shared/framing.ts",
  "lib/mcp/shared/split_frames.ts",
  "lib/mcp/server/in_process_server.ts",
  "lib/mcp/shared/transport.ts",
  "lib/mcp/server/dispatch.ts",
  "lib/mcp/server/arguments.ts",
  "lib/mcp/server/pages.ts",
  "lib/mcp/server/prompt.ts",
  "lib/mcp/server/replies.ts",
  "lib/mcp/server/resource.ts",
  "lib/mcp/shared/prompt.ts",
  "lib/mcp/shared/content.ts",
  "lib/course/grammar_tools.ts",
  "lib/mcp/server/tool.ts",
  "servers/grammar_in_process.ts",
  "servers/grammar.ts",
  "servers/_mcp_server.ts",
  // The grammar server of both eras: the library's ServerSession, and what it imports.
  "lib/mcp/server/session.ts",
  "lib/mcp/server/argument_refusal.ts",
  "lib/mcp/server/session_spec.ts",
  "lib/mcp/server/server_transport.ts",
  "lib/mcp/server/server_requests.ts",
  "lib/mcp/server/stdio_server.ts",
  "lib/mcp/server/modern_answer.ts",
  "lib/mcp/server/modern_request.ts",
  "lib/mcp/server/input_round.ts",
  "lib/mcp/server/request_state.ts",
  "lib/mcp/server/request_context.ts",
  "lib/mcp/server/listen.ts",
  "lib/mcp/server/change_feed.ts",
  "lib/mcp/server/version_fit.ts",
  "lib/mcp/server/answer_problem.ts",
  "lib/mcp/server/elicitation_fit.ts",
  "lib/mcp/shared/elicitation_form.ts",
  "lib/mcp/shared/_form_formats.ts",
  "lib/mcp/shared/_form_values.ts",
  "lib/mcp/shared/elicit_answer.ts",
  "lib/formats/format_patterns.ts",
  "lib/mcp/shared/versions.ts",
  "lib/mcp/shared/meta.ts",
  "lib/mcp/shared/modern_errors.ts",
  "lib/mcp/shared/log_levels.ts",
];

/** A scratch folder ready for the sandbox. */
export interface Scratch {
  /** The learner's folder: their modules and the import map, which no other learner's sandbox may read. */
  folder: string;
  /**
   * The folder every learner of the same units shares (in this process): the
   * sandbox's runner, worker and drivers and the library files, all
   * read-only to the sandbox, none of them a learner's.
   */
  base: string;
  /** The worker's module, as a file URL. */
  worker: string;
  /** Each learner module, as a file URL, by its key (its unit, unless given one). */
  modules: Map<string, string>;
  /** Each learner module's unit, by its key. */
  units: Map<string, string>;
  /** The import map the sandbox resolves modules with. */
  importMap: string;
  /**
   * The lock file that fixes npm packages' versions (and their dependencies'),
   * so none is looked up; it names no MCP SDK, so none loads.
   */
  lock: string;
  /**
   * Deno's cache for the sandbox (its `DENO_DIR`), made once per process and
   * removed when it ends: what Deno compiles of the scratch folders (every
   * learner's module) is kept there, never in the machine's own cache, whose
   * npm packages it reads.
   */
  denoDir: string;
  /** Each unit's reference solution (see `UnitSpec.reference`), as module source, where the grader has it. */
  references: Map<string, string>;
  /**
   * For each unit, the shared folder's files (absolute paths) its learners'
   * realms may read: the realm's own, and the library the unit gives
   * ({@linkcode realmFiles}). Nothing else of the folder can be imported or read.
   */
  readable: Map<string, string[]>;
  /** The file URL of one of the {@linkcode SANDBOX_FILES} in the folder. */
  file(path: string): string;
  /** Removes the learner's folder (the shared one goes when this process ends). */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * A submission to copy into a scratch folder, under a key of its own when
 * several share a unit, and with the learner it is from when several
 * learners share the folder (each learner's modules go in a folder of their
 * own, which only that learner's realms may read); with its module's text
 * when it has been made already (by the grader's analysis process), rather
 * than made here from its code.
 */
export type ScratchSubmission = Submission & { key?: string; learner?: number; module?: string };

/**
 * Copy the code of `submissions` into a new scratch folder. A notebook gives
 * the learner's graded cells ({@linkcode learnerModule}); a module is copied
 * as it is, and may import the library files as `../lib/NAME.ts`. Several
 * submissions of one unit may share a folder (trusted code graded together,
 * such as a test's catalogue), each under its own `key`.
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
  submissions: readonly ScratchSubmission[],
  units: ReadonlyMap<string, UnitSpec>,
): Promise<Scratch> {
  const specs = [...new Set(submissions.map(({ unit }) => unit))].sort()
    .map((unit) => units.get(unit)).filter((spec) => spec !== undefined);
  const { folder: base, bundled, readable, sealedLibrary } = await baseFolder(specs, units);
  const denoDir = await sandboxCache();
  // Removed at the process's end too, when that comes first (Ctrl-C during a run).
  const folder = tempFolder("grade-");
  const scratch: Scratch = {
    folder,
    base,
    denoDir,
    // Where the course's own code runs seals in the realm, the realm is not marked as graded.
    worker: `${pathToFileURL(`${base}/${WORKER}`).href}${
      sealedLibrary ? `?${SEALS_RUN_HERE}` : ""
    }`,
    modules: new Map(),
    units: new Map(),
    importMap: `${folder}/import_map.json`,
    lock: `${base}/deno.lock`,
    references: new Map(),
    readable: new Map(Object.entries(readable)),
    file(path) {
      if (!SANDBOX_FILES.includes(path)) throw new Error(`${path} is not copied to the sandbox`);
      return pathToFileURL(`${base}/${path}`).href;
    },
    [Symbol.asyncDispose]: () => removeTempFolder(folder),
  };
  try {
    const map = importMap(await sandboxImports());
    Object.assign(map.imports, bundled);
    // Modules load from the two folders or not at all: Deno's permissions do not cover imports.
    const [baseUrl, folderUrl] = [base, folder].map((path) => pathToFileURL(`${path}/`).href);
    map.imports["file:///"] = OUTSIDE;
    // No module that would make a realm beside the learner's, where the grader's mark is not;
    // node's process without the way to node's modules past this map.
    for (const name of REALM_MAKERS) {
      map.imports[name] = map.imports[`node:${name}`] = `${baseUrl}${NO_OTHER_REALM}`;
    }
    map.imports.process = map.imports["node:process"] = `${baseUrl}${NODE_PROCESS}`;
    const scopes = { [`${baseUrl}${NODE_PROCESS}`]: { "node:process": "node:process" } };
    map.imports[baseUrl] = baseUrl;
    map.imports[folderUrl] = folderUrl;
    // A learner's module imports the library as ../lib/: it is the shared folder's.
    map.imports[`${folderUrl}lib/`] = `${baseUrl}lib/`;
    await Deno.writeTextFile(scratch.importMap, JSON.stringify({ ...map, scopes }));
    for (const submission of submissions) {
      const spec = units.get(submission.unit);
      if (submission.code === undefined || spec === undefined) continue;
      const key = submission.key ?? submission.unit;
      const name = [...scratch.units.values()].includes(spec.unit)
        ? `${spec.unit}-${scratch.modules.size}`
        : spec.unit;
      // One folder down, so that a module's `../lib/` is the shared folder's, as the map says.
      const learner = `${folder}/learner${
        submission.learner === undefined ? "" : `-${submission.learner}`
      }`;
      await Deno.mkdir(learner, { recursive: true });
      const target = `${learner}/${name}.ts`;
      const text = submission.module ?? await Deno.readTextFile(submission.code.path);
      await Deno.writeTextFile(
        target,
        submission.module === undefined && submission.code.kind === "notebook"
          ? learnerModule(parseNotebook(text, submission.code.path), spec, {
            courseCells: await courseCells(spec.unit),
          })
          : text,
      );
      scratch.modules.set(key, pathToFileURL(target).href);
      scratch.units.set(key, spec.unit);
      if (!scratch.references.has(spec.unit)) {
        const reference = await referenceModule(spec, pathToFileURL(`${base}/`));
        if (reference !== undefined) scratch.references.set(spec.unit, reference);
      }
    }
  } catch (error) {
    await scratch[Symbol.asyncDispose]();
    throw error;
  }
  return scratch;
}

let imports: Promise<Record<string, string>> | undefined;

/**
 * The course's imports less the SDKs ({@linkcode withoutSdks}), read once
 * a process: every learner's import map starts from them, and reading and
 * parsing `deno.json` for each was about 1 ms of the grader's main thread
 * a learner (`--cpu-prof` of a class of 60; BENCHMARKS.md, row 6). The
 * result is never changed: {@linkcode importMap} copies it.
 */
function sandboxImports(): Promise<Record<string, string>> {
  if (imports === undefined) {
    imports = courseImports(ROOT).then(withoutSdks);
    imports.catch(() => imports = undefined);
  }
  return imports;
}

/** A shared folder, the import map's entries for the npm packages bundled in it, and what each unit's realms may read. */
interface Base {
  folder: string;
  bundled: Record<string, string>;
  readable: Record<string, string[]>;
  /** Whether its library is the learners' release's: some module of it is a stub of its seal. */
  sealedLibrary: boolean;
}

/** The shared folders made in this process, by the units whose library copies they wire. */
const bases = new Map<string, Promise<Base>>();

let cache: Promise<string> | undefined;

/**
 * Deno's cache for this process's sandboxes (and its bundles): a folder of
 * its own, removed when the process ends, holding the machine's npm
 * packages and downloads by links. Deno keeps what it compiles in its
 * cache, and the sandbox compiles every learner's module, each at a path of
 * its own: in the machine's cache, each learner graded left their module
 * compiled (and each run the shared folder's, about a megabyte) for good.
 */
function sandboxCache(): Promise<string> {
  if (cache === undefined) {
    cache = makeCache();
    cache.catch(() => cache = undefined);
  }
  return cache;
}

async function makeCache(): Promise<string> {
  const { success, stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "null",
  }).output();
  const { denoDir, npmCache } = success ? JSON.parse(new TextDecoder().decode(stdout)) : {};
  if (typeof denoDir !== "string" || typeof npmCache !== "string") {
    throw new Error("deno info does not say where Deno's cache is");
  }
  const folder = tempFolder("grade-deno-");
  // The npm packages, and the programs Deno fetches for itself (deno bundle's esbuild), where
  // the machine's cache has them or can hold them: in a read-only cache without them, the run's
  // own cache fetches what it needs.
  for (const [name, target] of [["npm", npmCache], ["dl", `${denoDir}/dl`]]) {
    if (await folderThere(target)) await Deno.symlink(target, `${folder}/${name}`);
  }
  return folder;
}

/** Whether `path` is a folder, made if it is not there and can be. */
async function folderThere(path: string): Promise<boolean> {
  try {
    await Deno.mkdir(path, { recursive: true });
  } catch {
    // Read-only, or taken by something else: it may still be a folder (a link to one).
  }
  return await Deno.stat(path).then((info) => info.isDirectory, () => false);
}

/**
 * The folder shared by every learner of `specs` graded in this process:
 * the sandbox's own files, and the library files learners' modules may
 * import, with the library's copies of `specs`' graded functions wired (a
 * call to one is seen). Made once, the first time it is asked for.
 */
function baseFolder(specs: readonly UnitSpec[], units: ReadonlyMap<string, UnitSpec>) {
  const key = specs.map((spec) => spec.unit).join(",");
  let base = bases.get(key);
  if (base === undefined) {
    base = makeBase(specs, units);
    bases.set(key, base);
    base.catch(() => bases.delete(key));
  }
  return base;
}

async function makeBase(
  specs: readonly UnitSpec[],
  units: ReadonlyMap<string, UnitSpec>,
): Promise<Base> {
  const folder = tempFolder("grade-base-");
  const wired = libraryCopies(specs);
  const files = new Set([...SANDBOX_FILES, ...await libraryFiles(units)]);
  // Each copy's seal is wired the same: a learner's code that imports it reaches it.
  for (const [file, names] of [...wired]) {
    if (files.has(sealedPath(file))) wired.set(sealedPath(file), names);
  }
  let sealedLibrary = false;
  for (const file of files) {
    const target = `${folder}/${file}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    const names = wired.get(file);
    const text = await Deno.readTextFile(new URL(file, ROOT));
    // Any sealed module's stub says the library is the learners' release's, whose seals the
    // course's own code in the realm runs (Lab 02's in-process grammar server, the dispatcher's
    // seal), whether or not the unit's own library copies are sealed or withheld.
    if (text.startsWith(SEAL_STUB)) sealedLibrary = true;
    // A sealed module's stub holds nothing to wire: its seal is wired.
    if (names === undefined || text.startsWith(SEAL_STUB)) {
      await Deno.copyFile(new URL(file, ROOT), target);
    } else {
      await Deno.writeTextFile(target, wiredCopy(text, file, names));
    }
  }
  const lock = JSON.parse(await Deno.readTextFile(new URL("deno.lock", ROOT)));
  // No MCP SDK, and no package a path can climb out of (closed_packages.ts).
  const locked = withoutSdks(lock.specifiers ?? {});
  const npmCache = `${await sandboxCache()}/npm`;
  lock.specifiers = await closedPackages(locked, npmCache);
  // And no package those cannot reach: Deno reads each one the lock names in every sandbox.
  lock.npm = lockedClosure(lock.npm ?? {}, lock.specifiers);
  await Deno.writeTextFile(`${folder}/deno.lock`, JSON.stringify(lock, null, 2) + "\n");
  const bundled = await bundlePackages(
    folder,
    [...files],
    await commonJsPackages(locked, npmCache),
  );
  const readable: Record<string, string[]> = {};
  for (const spec of specs) {
    readable[spec.unit] = [
      ...(await realmFiles(spec, (file) => Deno.readTextFile(`${folder}/${file}`)))
        .map((file) => `${folder}/${file}`),
      `${folder}/vendor`,
    ];
  }
  return { folder, bundled, readable, sealedLibrary };
}

/** The learner's realm's own module: every realm loads it first. */
const WORKER = "tools/grading/sandbox_worker.ts";
/** What the worker loads in the realm to run a driven function's case, by the function's driver. */
const DRIVEN: Record<string, readonly string[]> = {
  "tools/grading/drivers/lab_02_client.ts": ["tools/grading/realm/port_transport.ts"],
  "tools/grading/drivers/lab_02_tests.ts": [
    "tools/grading/realm/remote_client.ts",
    "tools/grading/host/client_host.ts",
  ],
};

/**
 * The files (paths from the repository's root) that a learner's realm of
 * `spec`'s unit may read: the worker and what it loads, the drivers of the
 * unit's driven functions, and the library files the unit's starter imports
 * (`spec.imports`), each with every file it imports in turn. A graded
 * function's code can import nothing else: the library's own copies of the
 * graded ideas are not among them (the course's hostile tests audit every
 * unit). `read` gives a file's text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * const root = new URL("../../", import.meta.url);
 * const read = (file: string) => Deno.readTextFile(new URL(file, root));
 * const files = await realmFiles(UNITS.get("ch14-b")!, read);
 * assert.ok(files.includes("lib/grading/not_implemented.ts"));
 * assert.ok(!files.includes("lib/mcp/shared/transfer_problems.ts"), "Unit B's transferProblems is there");
 * ```
 */
export async function realmFiles(
  spec: UnitSpec,
  read: (file: string) => Promise<string>,
): Promise<string[]> {
  const drivers = spec.functions.flatMap((fn) => fn.driver === undefined ? [] : [fn.driver]);
  const pending = [
    WORKER,
    // What the import map gives for a module that would make another realm (it must load to say
    // so), and for node:process.
    NO_OTHER_REALM,
    NODE_PROCESS,
    ...drivers.flatMap((driver) => [driver, ...DRIVEN[driver] ?? []]),
    ...Object.keys(spec.imports).filter((file) => !file.startsWith("node:"))
      .map((file) => `lib/${file}`),
  ];
  const found = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (found.has(file)) continue;
    found.add(file);
    const text = await read(file);
    for (const [, , specifier] of [...text.matchAll(IMPORTS), ...text.matchAll(BARE_IMPORTS)]) {
      if (!specifier.startsWith(".")) continue;
      pending.push(posix.join(posix.dirname(file), specifier));
    }
  }
  return [...found].sort();
}

/**
 * Each npm package the library files `files` import names from, bundled into
 * one ES module in `folder`'s `vendor/` (`deno bundle`, from the versions the
 * lock file fixes), and the import map's entries that send those imports to
 * it. A CommonJS package is a hundred files that each realm would resolve,
 * read and compile again (ajv: 52 ms of a realm's 76), and Lab 02 runs every
 * case in a realm of its own; its bundle loads in a few milliseconds. Each
 * module of a package of `commonJs` gives its default export too (its
 * `module.exports`, as Deno gives it): graded code that imports ajv as its
 * documentation does (`import Ajv from "ajv"`) runs as in the notebook.
 * Throws `Error` naming the package when it cannot be bundled.
 *
 * @example
 * ```ts ignore
 * const entries = await bundlePackages(folder, ["lib/mcp/shared/schema.ts"]);
 * // { ajv: "file:///…/vendor/ajv.js", "ajv/dist/2020.js": "file:///…/vendor/ajv.js", … }
 * ```
 */
async function bundlePackages(
  folder: string,
  files: string[],
  commonJs: ReadonlySet<string>,
): Promise<Record<string, string>> {
  const names = Object.keys(await courseImports(ROOT));
  const packageOf = (specifier: string) =>
    names.find((name) => specifier === name || specifier.startsWith(`${name}/`));
  // The names imported from each specifier, by the package it is of.
  const wanted = new Map<string, Map<string, Set<string>>>();
  for (const file of files) {
    const text = await Deno.readTextFile(`${folder}/${file}`);
    for (const [, list, specifier] of text.matchAll(NAMED_IMPORTS)) {
      const name = packageOf(specifier);
      if (name === undefined) continue;
      const bySpecifier = wanted.get(name) ?? new Map<string, Set<string>>();
      const imported = bySpecifier.get(specifier) ?? new Set<string>();
      for (const part of list.split(",").map((part) => part.trim())) {
        if (part !== "" && !part.startsWith("type ")) imported.add(part.split(/\s+as\s+/)[0]);
      }
      wanted.set(name, bySpecifier.set(specifier, imported));
    }
  }
  const entries: Record<string, string> = {};
  await Deno.mkdir(`${folder}/vendor`, { recursive: true });
  await Promise.all([...wanted].map(async ([name, bySpecifier]) => {
    const file = `${folder}/vendor/${name.replaceAll("/", "+")}`;
    const cjs = commonJs.has(name);
    // A CommonJS module's default, under a name of its own in the bundle (`default$0`, ...).
    const exported = [...bySpecifier].map(([specifier, imported], index) => ({
      specifier,
      names: [...imported, ...cjs ? [`default as default$${index}`] : []],
      own: [...imported, `default$${index} as default`],
    }));
    const exports = exported.filter(({ names }) => names.length > 0).map(({ specifier, names }) =>
      `export { ${names.join(", ")} } from ${JSON.stringify(specifier)};`
    );
    await Deno.writeFile(`${file}.js`, await bundled(name, exports.join("\n") + "\n", file));
    const base = file.slice(file.lastIndexOf("/") + 1);
    for (const [index, { specifier, own }] of exported.entries()) {
      if (!cjs) {
        entries[specifier] = pathToFileURL(`${file}.js`).href;
        continue;
      }
      // Each specifier's own module, whose default is that module's, not the package's.
      await Deno.writeTextFile(
        `${file}.${index}.js`,
        `export { ${own.join(", ")} } from "./${base}.js";\n`,
      );
      entries[specifier] = pathToFileURL(`${file}.${index}.js`).href;
    }
  }));
  return entries;
}

/** Each bundle made in this process, by its entry's text: every shared folder of a run uses the same. */
const bundles = new Map<string, Promise<Uint8Array>>();
/**
 * The bundle begun last: each waits for it, since two `deno bundle`s in a
 * cache with no esbuild yet race to copy it there, and one fails ("failed to
 * copy esbuild binary ... No such file or directory").
 */
let lastBundle: Promise<unknown> = Promise.resolve();

/**
 * The bundle of package `name` whose entry module is `entry`, made once per
 * process (`deno bundle` is about 0.1 s of CPU time a package, and the
 * shared folder of each unit wants the same ones), one after another, in a
 * scratch file named `file` and an extension.
 */
function bundled(name: string, entry: string, file: string): Promise<Uint8Array> {
  let bundle = bundles.get(entry);
  if (bundle === undefined) {
    bundle = lastBundle.catch(() => {}).then(() => bundleOnce(name, entry, file));
    lastBundle = bundle;
    bundles.set(entry, bundle);
    bundle.catch(() => bundles.delete(entry));
  }
  return bundle;
}

async function bundleOnce(name: string, entry: string, file: string): Promise<Uint8Array> {
  await Deno.writeTextFile(`${file}.entry.ts`, entry);
  try {
    const { success, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--frozen",
        `--config=${fileURLToPath(new URL("deno.json", ROOT))}`,
        `--output=${file}.js`,
        `${file}.entry.ts`,
      ],
      // What it compiles of the entry (in a shared folder) goes where the sandbox's goes.
      env: { NO_COLOR: "1", DENO_DIR: await sandboxCache() },
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!success) {
      throw new Error(
        `could not bundle ${name} for the grading sandbox: ${new TextDecoder().decode(stderr)}`,
      );
    }
    return await Deno.readFile(`${file}.js`);
  } finally {
    await Deno.remove(`${file}.entry.ts`);
  }
}

/**
 * A named import (`import { a, type B } from "x"`; not `import type`), in
 * readable or sealed (one-line) code: its names and its specifier.
 */
const NAMED_IMPORTS = /(?:^|[;}])\s*import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/gm;

/**
 * The npm packages graded code is never given, by their names: the MCP
 * SDKs, whose clients and transports do what the units have the learner
 * write (the v2 client's transport hands an `EventSourceParserStream` to any
 * stream it is given: round 20 read `sseData`'s answers with it), and
 * playwright-core, whose utilsBundle module bundles the v1 SDK (round 20b
 * loaded it, with the environment, OS release and files it reads put in
 * place first, and read `sseData`'s answers with it too).
 */
const SDKS = /^(@modelcontextprotocol\/|playwright-core(@|\/|$))/;

/**
 * `entries` (an import map's imports, or a lock file's specifiers) less those
 * of {@linkcode SDKS}: the sandbox's import map does not name them, and its
 * frozen lock file refuses an `npm:` specifier of them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(
 *   withoutSdks({ ajv: "npm:ajv@8.20.0", "@modelcontextprotocol/client": "npm:@modelcontextprotocol/client@2.4.0", "npm:@modelcontextprotocol/sdk@1.32.2": "1.32.2", "npm:playwright-core@1.65.1": "1.65.1" }),
 *   { ajv: "npm:ajv@8.20.0" },
 * );
 * ```
 */
export function withoutSdks(entries: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(entries).filter(([key]) => !SDKS.test(key.replace(/^npm:\/?/, ""))),
  );
}

/** Whether `url` names a file that exists. */
async function exists(url: URL): Promise<boolean> {
  try {
    return (await Deno.stat(url)).isFile;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** Where a module outside the scratch folder is sent: a folder that is never there. */
const OUTSIDE = "file:///nonexistent-outside-the-grading-sandbox/";
/** What the sandbox gives for each of {@linkcode REALM_MAKERS}: a module that fails, saying why. */
const NO_OTHER_REALM = "tools/grading/realm/no_other_realm.ts";
/** What the sandbox gives for `node:process`: node's, without `getBuiltinModule`. */
const NODE_PROCESS = "tools/grading/realm/node_process.ts";

/**
 * For each library file, the functions in it that do the work of a function
 * graded in `specs`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * const wired = libraryCopies([UNITS.get("ch14-a")!]);
 * assert.deepEqual(wired.get("lib/mcp/client/allowlist.ts"), ["authorize"]);
 * ```
 */
export function libraryCopies(specs: readonly UnitSpec[]): Map<string, string[]> {
  const wired = new Map<string, string[]>();
  for (const fn of specs.flatMap((spec) => spec.functions)) {
    for (const { file, name } of fn.library ?? []) {
      const names = wired.get(file) ?? [];
      if (!names.includes(name)) names.push(name);
      wired.set(file, names);
    }
  }
  return wired;
}

/**
 * The ids of the course's own cells of `unit`, in its student edition and,
 * where this copy has it, its worked one: any other cell of a learner's is
 * one they added. Undefined when this copy of the course has neither.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const ids = await courseCells("ch14-a");
 * assert.ok(ids?.has("authorize"));
 * ```
 */
export function courseCells(unit: string): Promise<Set<string> | undefined> {
  let ids = cellIds.get(unit);
  if (ids === undefined) {
    ids = readCourseCells(unit);
    cellIds.set(unit, ids);
  }
  return ids;
}
const cellIds = new Map<string, Promise<Set<string> | undefined>>();

async function readCourseCells(unit: string): Promise<Set<string> | undefined> {
  const ids = new Set<string>();
  for (const folder of ["notebooks", "solutions"]) {
    try {
      const path = new URL(`${folder}/${unit}.ipynb`, ROOT);
      for (const cell of parseNotebook(await Deno.readTextFile(path), unit).cells) ids.add(cell.id);
    } catch {
      // This copy of the course does not have it.
    }
  }
  return ids.size === 0 ? undefined : ids;
}

/** The parts of a unit that a learner's module is made of. */
export type ModuleSpec = Pick<UnitSpec, "imports" | "supportCells"> & {
  functions: readonly Pick<GradedFunction, "name" | "cell" | "parts">[];
};

/** Options for {@linkcode learnerModule}. */
export interface LearnerModuleOptions {
  /** Where the module imports the library from: a folder URL, or a path relative to the module. @default {"../lib/"} */
  lib?: string;
  /**
   * The ids of the course's own cells: the learner's other cells are ones
   * they added, whose imports and declarations the module keeps (a helper a
   * graded function uses). @default {undefined: no added cell is kept}
   */
  courseCells?: ReadonlySet<string>;
  /**
   * Cells left out of the module, by id, each with why (one that does not
   * parse: the kernel runs a notebook's other cells, and so does the
   * grader). @default {{}}
   */
  leftOut?: Readonly<Record<string, string>>;
}

/**
 * A module holding the learner's graded cells from `notebook`, the library
 * names those cells may use (imported from `../lib/`, beside it in the
 * scratch folder, or from a `node:` module), and an export `graded` naming
 * each graded function (undefined when the learner's cells do not define it).
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
 * assert.ok(source.includes('from "../lib/mcp/shared/errors.ts"'));
 * assert.ok(source.includes("authorize: typeof authorize"));
 * ```
 */
export function learnerModule(
  notebook: Notebook,
  spec: ModuleSpec,
  options: LearnerModuleOptions = {},
): string {
  const lib = options.lib ?? "../lib/";
  const imports = Object.entries(spec.imports).map(([file, names]) =>
    `import { ${names.join(", ")} } from ${
      JSON.stringify(file.startsWith("node:") ? file : lib + file)
    };`
  );
  const ids = moduleCellIds(spec);
  const kept = moduleCells(notebook, spec, options.courseCells).map((cell) =>
    Object.hasOwn(options.leftOut ?? {}, cell.id)
      ? { ...cell, source: "// left out: it does not parse" }
      : cell
  );
  const missing = [...ids].filter((id) => !kept.some((cell) => cell.id === id));
  const cells = [kernelModule(kept), ...missing.map((id) => `// (no cell ${id})`)];
  const graded = spec.functions.map((fn) =>
    `  ${fn.name}: typeof ${fn.name} === "function" ? ${fn.name} : undefined,`
  );
  return [...imports, "", ...cells, "", "export const graded = {", ...graded, "};", ""].join("\n");
}

/** The ids of the cells a unit's module is made of: its graded functions' and its support cells. */
function moduleCellIds(spec: ModuleSpec): Set<string> {
  return new Set([
    ...spec.functions.flatMap((fn) => [fn.cell, ...fn.parts ?? []]),
    ...spec.supportCells ?? [],
  ]);
}

/**
 * The code cells of `notebook` that {@linkcode learnerModule} makes its
 * module of, in their order: the unit's graded and support cells, and each
 * cell the learner added (one whose id is not among `courseCells`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * const cells = ["authorize", "mine", "setup"].map((id) => ({ cell_type: "code" as const, id, metadata: {}, source: "" }));
 * const notebook = { nbformat: 4, nbformat_minor: 5, metadata: {}, cells };
 * const spec = UNITS.get("ch14-a")!;
 * assert.deepEqual(moduleCells(notebook, spec, new Set(["setup"])).map(({ id, added }) => [id, added]), [
 *   ["authorize", false],
 *   ["mine", true],
 * ]);
 * ```
 */
export function moduleCells(
  notebook: Notebook,
  spec: ModuleSpec,
  courseCells?: ReadonlySet<string>,
): ModuleCell[] {
  const ids = moduleCellIds(spec);
  return notebook.cells.filter((cell) => cell.cell_type === "code")
    .filter((cell) => ids.has(cell.id) || (courseCells !== undefined && !courseCells.has(cell.id)))
    .map((cell) => ({ id: cell.id, source: sourceOf(cell), added: !ids.has(cell.id) }));
}

/**
 * The library files the learners' modules may import (each unit's
 * `imports`, `node:` modules aside, and the library's copies of graded
 * functions with their seals), with every file they import in turn, as
 * paths from the repository's root. Throws `Error` naming the file when one
 * imports anything but a relative path inside `lib/` or an npm package of
 * `deno.json` (which the sandbox takes from Deno's cache): the sandbox has
 * nothing else to give.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * const files = await libraryFiles(UNITS);
 * assert.ok(files.includes("lib/mcp/shared/errors.ts"));
 * assert.ok(files.includes("lib/mcp/shared/schema.ts"), "it imports ajv, an npm package of deno.json");
 * assert.ok(files.includes("lib/mcp/shared/split_frames.sealed.js"));
 * assert.ok(files.every((file) => file.startsWith("lib/")));
 * ```
 */
export async function libraryFiles(units: ReadonlyMap<string, UnitSpec>): Promise<string[]> {
  const copies = [...libraryCopies([...units.values()]).keys()];
  const pending = [
    ...[...units.values()].flatMap((spec) => Object.keys(spec.imports))
      .filter((file) => !file.startsWith("node:")).map((file) => `lib/${file}`),
    ...copies,
  ];
  // The seals of the library's copies, where this copy of the course has them.
  for (const file of copies) {
    if (await exists(new URL(sealedPath(file), ROOT))) pending.push(sealedPath(file));
  }
  const names = Object.keys(await courseImports(ROOT));
  const isPackage = (specifier: string) =>
    names.some((name) =>
      specifier === name || specifier.startsWith(name.endsWith("/") ? name : `${name}/`)
    );
  const found = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (found.has(file)) continue;
    found.add(file);
    const text = await Deno.readTextFile(new URL(file, ROOT));
    for (const [, , specifier] of text.matchAll(IMPORTS)) {
      if (isPackage(specifier)) continue;
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

/** The modules a module imports for their effects alone (`import "./reach.ts";`). */
const BARE_IMPORTS = /(?:^|[;}])\s*import\s*(["'])([^"']+)\1/gm;

/** The modules a module imports or exports from, in readable or sealed (one-line) code. */
const IMPORTS = /(?:^|[;}])\s*(?:import|export)\b[^;"']*?from\s*(["'])([^"']+)\1/gm;

/**
 * The graded cells of `spec`'s worked edition as a module that imports the
 * library from `root` (a folder URL holding `lib/`), so that it can be
 * imported from a `data:` URL; `undefined` when the unit has no reference or
 * this copy of the course does not hold it (the learners' release).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * const root = new URL("../../", import.meta.url);
 * const source = await referenceModule(UNITS.get("lab-02")!, root);
 * assert.ok(source === undefined || source.includes(`from "${root.href}lib/mcp/shared/errors.ts"`));
 * assert.equal(await referenceModule(UNITS.get("ch14-a")!, root), undefined);
 * ```
 */
export async function referenceModule(spec: UnitSpec, root: URL): Promise<string | undefined> {
  if (spec.reference === undefined) return undefined;
  let text: string;
  try {
    text = await Deno.readTextFile(new URL(spec.reference, ROOT));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  return learnerModule(parseNotebook(text, spec.reference), spec, {
    lib: new URL("lib/", root).href,
  });
}

/**
 * An import map for the sandbox from `deno.json`'s imports: those, and for
 * each npm package a prefix entry (`ajv/` for `ajv/dist/2020.js`), which
 * `deno.json` implies and an import map must spell out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(importMap({ ajv: "npm:ajv@8.20.0" }), {
 *   imports: { ajv: "npm:ajv@8.20.0", "ajv/": "npm:/ajv@8.20.0/" },
 * });
 * ```
 */
export function importMap(imports: Record<string, string>): { imports: Record<string, string> } {
  const map = { ...imports };
  for (const [key, value] of Object.entries(imports)) {
    if (value.startsWith("npm:") && !key.endsWith("/")) {
      map[`${key}/`] ??= `npm:/${value.slice(4)}/`;
    }
  }
  return { imports: map };
}
