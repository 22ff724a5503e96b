// `deno task autograder --unit UNIT [--points N] [--hidden VISIBILITY] [FILE]`:
// build the autograder package for one Gradescope assignment (default
// `autograder.zip`): `setup.sh` and `run_autograder` at its root, the grader
// with everything it runs, the hidden cases included, and `assignment.json`
// (the unit it grades, the assignment's points, when hidden cases show).
// Its `deno.json` and `deno.lock` hold only the npm packages grading
// imports, so that `setup.sh` caches those and nothing else. Besides the
// instructors' repository, this package is the one place the hidden cases
// live: give it to the grading platform, never to learners.

import { zipSync } from "fflate";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { learnersConfig } from "../release/deno_config.ts";
import { localImports, walk } from "../release/contents.ts";
import { libraryFiles, SANDBOX_FILES } from "../grading/scratch.ts";
import { UNITS } from "../grading/units/mod.ts";
import { VISIBILITIES, type Visibility } from "./gradescope.ts";
import { type DenoLock, packageOf, prunedLock } from "./pruned_lock.ts";

const root = new URL("../../", import.meta.url);
const USAGE = "usage: deno task autograder --unit UNIT [--points N] [--hidden VISIBILITY] [FILE]";
const PROGRAMS = [
  "tools/autograder/run.ts",
  "tools/grading/sandbox_runner.ts",
  "holdouts/mod.ts",
  ...SANDBOX_FILES,
];
/** The worked editions whose solutions the grader's drivers test learners' tests against. */
const REFERENCES = [...UNITS.values()].flatMap((spec) => spec.reference ?? []);
/** Executable entries: Gradescope runs both as programs. */
const SCRIPTS = {
  "setup.sh": "tools/autograder/setup.sh",
  "run_autograder": "tools/autograder/run_autograder",
};

/** The assignment and target named on the command line, checked. */
function options() {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: { unit: { type: "string" }, points: { type: "string" }, hidden: { type: "string" } },
    allowPositionals: true,
  });
  if (values.unit === undefined || !UNITS.has(values.unit)) {
    const known = [...UNITS.keys()].join(", ");
    throw new Error(
      `${
        values.unit === undefined ? "name the assignment's unit" : `unknown unit ${values.unit}`
      }` +
        ` (one of ${known})\n${USAGE}`,
    );
  }
  const points = values.points === undefined ? undefined : Number(values.points);
  if (points !== undefined && !(Number.isFinite(points) && points > 0)) {
    throw new Error(`--points must be a positive number, not ${values.points}\n${USAGE}`);
  }
  const hidden = (values.hidden ?? "after_published") as Visibility;
  if (!VISIBILITIES.includes(hidden)) {
    throw new Error(`--hidden must be one of ${VISIBILITIES.join(", ")}, not ${hidden}`);
  }
  if (positionals.length > 1) throw new Error(USAGE);
  const target = positionals[0] ?? fileURLToPath(new URL("autograder.zip", root));
  let folder = false;
  try {
    folder = Deno.statSync(target).isDirectory;
  } catch {
    // A new file, as the package should be.
  }
  if (folder) {
    const file = `${target.replace(/\/+$/, "")}/autograder.zip`;
    throw new Error(`${target} is a folder: name the package's file, such as ${file}\n${USAGE}`);
  }
  return { assignment: { unit: values.unit, points, hidden }, target };
}

/** The npm specifiers (`npm:ajv@8.20.0`) that `files` reach, as `deno info` finds them. */
async function npmSpecifiers(files: readonly string[]): Promise<Set<string>> {
  // `deno info` takes one module: one that imports them all, which it reads and never runs.
  const entry = await Deno.makeTempFile({ suffix: ".ts" });
  await Deno.writeTextFile(
    entry,
    files.map((file) => `import ${JSON.stringify(new URL(file, root).href)};\n`).join(""),
  );
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", `--config=${fileURLToPath(new URL("deno.json", root))}`, entry],
    cwd: fileURLToPath(root),
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output().finally(() => Deno.remove(entry));
  if (code !== 0) throw new Error(`deno info failed: ${new TextDecoder().decode(stderr).trim()}`);
  const graph = JSON.parse(new TextDecoder().decode(stdout)) as {
    modules: { dependencies?: { code?: { specifier?: string } }[] }[];
  };
  const found = new Set<string>();
  for (const module of graph.modules) {
    for (const dependency of module.dependencies ?? []) {
      const specifier = dependency.code?.specifier;
      if (specifier?.startsWith("npm:")) found.add(packageOf(specifier));
    }
  }
  return found;
}

try {
  const { assignment, target } = options();
  const library = await libraryFiles(UNITS);
  const files = new Set([
    ...await localImports(root, PROGRAMS),
    // What learners' cells may import, which the grader copies beside them: read, not imported.
    ...library,
    // The readable modules the copy check holds learners' code against (`copied.ts`).
    ...[...UNITS.values()].flatMap((spec) =>
      spec.functions.flatMap((fn) => fn.libraryModules ?? [])
    ),
    ...await walk(root, "holdouts"),
    ...await walk(root, "schemas"),
    ...REFERENCES,
  ]);
  const cached = [...PROGRAMS, ...library];
  const needed = await npmSpecifiers(cached);
  const entries: Record<string, Uint8Array | [Uint8Array, { os: number; attrs: number }]> = {};
  const text = (value: unknown) => new TextEncoder().encode(JSON.stringify(value, null, 2) + "\n");
  for (const file of [...files].sort()) entries[file] = await Deno.readFile(new URL(file, root));
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  const imports = config.imports as Record<string, string>;
  const named = (name: string) => needed.has(packageOf(imports[name]));
  entries["deno.json"] = text({ ...learnersConfig(config, named), tasks: {} });
  const lock = JSON.parse(await Deno.readTextFile(new URL("deno.lock", root))) as DenoLock;
  entries["deno.lock"] = text(prunedLock(lock, [...needed].sort()));
  entries["assignment.json"] = text(assignment);
  // What setup.sh compiles and caches: the programs grading runs, and the library learners import.
  entries["cache.txt"] = new TextEncoder().encode(cached.join("\n") + "\n");
  for (const [name, source] of Object.entries(SCRIPTS)) {
    // Unix mode bits in the high half of the external attributes: rwxr-xr-x.
    entries[name] = [await Deno.readFile(new URL(source, root)), { os: 3, attrs: 0o100755 << 16 }];
  }
  await Deno.writeFile(target, zipSync(entries, { level: 9, mtime: new Date("2026-01-01") }));
  console.log(
    `autograder: ${Object.keys(entries).length} files in ${target}, grading ${assignment.unit}` +
      ` out of ${assignment.points ?? "the unit's own total"}, hidden cases ${assignment.hidden};` +
      ` npm packages: ${[...needed].sort().join(", ")}`,
  );
} catch (error) {
  console.error(`autograder: ${(error as Error).message}`);
  Deno.exit(1);
}
