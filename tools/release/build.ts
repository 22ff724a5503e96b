// `deno task release [DIR]`: build the learners' course in DIR (default
// `release/`): the student editions, the library, the servers, the schemas,
// the visible cases, the set-up, a README for learners and the grader for a
// self-check on the visible cases. It holds no worked edition, no hidden case
// and no test, and each library module that implements a graded function only
// sealed (`sealed.ts`), or withheld (`withheld.ts`): it refuses to build from a stale seal or
// recording (`record_lab_03.ts`). DIR must be new, empty, or a release this command built
// before (it is then replaced): nothing else is ever deleted.

import { fileURLToPath } from "node:url";
import { releaseFiles } from "./contents.ts";
import { learnersConfig, learnersLock, releaseConfig } from "./deno_config.ts";
import { moduleDocumentation, releaseStub, sealedModules, staleSeals } from "./sealed.ts";
import { starterHusk, WITHHELD, withheldNames, withheldStub } from "./withheld.ts";
import { staleRecording } from "./record_lab_03.ts";
import { sealedPath } from "../grading/library_copies.ts";
import { UNITS } from "../grading/units/mod.ts";

const root = new URL("../../", import.meta.url);
const MARK = ".course-release";
const target = Deno.args[0] ?? fileURLToPath(new URL("release/", root));
/**
 * What git ignores in a clone of the release: the learner's work, and what set-up and the units
 * put in the course folder (the pins in place, JupyterLab's environment, the Inspector's npm
 * packages, the packages Chapter 15 installs to run the filesystem server, JupyterLab's
 * checkpoints of a handout).
 */
const IGNORED = [
  "/work/*",
  "!/work/.gitkeep",
  "/deno.lock",
  "/.venv/",
  "/tools/inspector/node_modules/",
  "/node_modules/",
  ".ipynb_checkpoints/",
  // What a later unit's kernel writes beside your Unit A as it loads it, should it be killed then.
  ".your-unit-a-*",
];

try {
  await prepare(target);
  const sealed = sealedModules(UNITS);
  const stale = await staleSeals(root, sealed);
  const staleRecorded = await staleRecording(root);
  if (staleRecorded !== undefined) stale.push(staleRecorded);
  if (stale.length > 0) throw new Error(stale.join("; "));
  const withheld = Object.keys(WITHHELD);
  // A withheld module's seal stays with the instructors.
  const files = (await releaseFiles(root)).filter((file) =>
    !withheld.some((module) => file === sealedPath(module))
  );
  const code: string[] = [];
  for (const file of files) {
    const to = `${target}/${file}`;
    await Deno.mkdir(to.slice(0, to.lastIndexOf("/")), { recursive: true });
    if (withheld.includes(file)) {
      const names = await withheldNames(root, file);
      await Deno.writeTextFile(
        to,
        WITHHELD[file].starter === undefined
          ? withheldStub(file, names, { documentation: await moduleDocumentation(root, file) })
          : await starterHusk(root, file, names),
      );
    } else if (sealed.includes(file)) {
      await Deno.writeTextFile(to, releaseStub(file, await moduleDocumentation(root, file)));
    } else await Deno.copyFile(new URL(file, root), to);
    if (/\.(ts|mts|js|ipynb)$/.test(file)) code.push(await Deno.readTextFile(to));
  }
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  // A package the release's code (its modules and notebooks) never names is one only the
  // instructors' tools use.
  const learners = learnersConfig(config, (name) => code.some((text) => text.includes(name)));
  const { config: shipped, map } = releaseConfig(learners);
  await Deno.writeTextFile(`${target}/deno.json`, JSON.stringify(shipped, null, 2) + "\n");
  await Deno.writeTextFile(`${target}/import_map.json`, JSON.stringify(map, null, 2) + "\n");
  // The pins, which set-up copies to deno.lock (see tools/set_up_first.ts).
  const lock = JSON.parse(await Deno.readTextFile(new URL("deno.lock", root)));
  await Deno.writeTextFile(
    `${target}/tools/deno.lock`,
    JSON.stringify(learnersLock(lock, learners), null, 2) + "\n",
  );
  await Deno.writeTextFile(`${target}/README.md`, await learnersReadme());
  await Deno.writeTextFile(`${target}/.gitignore`, IGNORED.map((line) => `${line}\n`).join(""));
  await Deno.writeTextFile(`${target}/${MARK}`, `built from the instructors' repository\n`);
  console.log(`release: ${files.length + 5} files in ${target}`);
} catch (error) {
  console.error(`release: ${(error as Error).message}`);
  Deno.exit(1);
}

/**
 * The learners' README: its own opening, then the learners' path from the
 * instructors' README (its "Learners:" section, up to the next section), so
 * that the two never say different things.
 */
async function learnersReadme(): Promise<string> {
  const opening = await Deno.readTextFile(new URL("tools/release/README.md", root));
  const readme = await Deno.readTextFile(new URL("README.md", root));
  const start = readme.indexOf("\n## Learners:");
  const end = readme.indexOf("\n## ", start + 1);
  if (start === -1 || end === -1) throw new Error('README.md has no "## Learners:" section');
  const path = readme.slice(start + 1, end).replace(
    /^Learners get the learners' release.*\n\n/m,
    "",
  );
  return opening.replace(/<!-- The learners' path.*-->\n/, path);
}

/** Make `folder` ready: create it, or empty a release built here before; refuse anything else. */
async function prepare(folder: string): Promise<void> {
  const entries = [];
  try {
    for await (const entry of Deno.readDir(folder)) entries.push(entry.name);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (entries.length > 0 && !entries.includes(MARK)) {
    throw new Error(`${folder} is not empty and is not a release built before: choose another`);
  }
  for (const name of entries) await Deno.remove(`${folder}/${name}`, { recursive: true });
  await Deno.mkdir(folder, { recursive: true });
}
