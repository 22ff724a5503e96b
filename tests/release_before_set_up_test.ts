// The learners' release before its set-up has run, as a new learner meets it: built, at a path
// with a space, with a new HOME and Deno cache. Each task its README names says, in one line, to
// run `sh tools/setup.sh`, and fetches nothing, with Deno's network cut and with it; once the
// pins are in place and Deno's cache holds them, the task runs. Before, `deno task` fetched every
// npm package the release's lock file pins (about 110) before running any task: offline, the
// learner read Deno's network error.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { certificateSettings, setUpCourse } from "./_gradescope.ts";
import { markedProcesses } from "./browser/lab_server.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const scratch = await Deno.makeTempDir({ prefix: "before set-up " });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));
const course = `${scratch}/a learner's course`;
{
  const built = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "release", course],
    cwd: root,
    stderr: "piped",
  }).output();
  assert.equal(built.code, 0, new TextDecoder().decode(built.stderr));
}

/** The tasks as the release's README has a learner type them. */
const TASKS = [["lab", "--no-browser"], ["grade", "work/ch14-b.ipynb"], ["starter", "ch14-b"]];
/**
 * Deno's network cut: every request it makes goes to a proxy nobody serves. (Not an npm registry
 * nobody serves: Deno keeps each registry's packages apart in its cache, and set-up's are the
 * real registry's.)
 */
const OFFLINE = { HTTPS_PROXY: "http://127.0.0.1:9", HTTP_PROXY: "http://127.0.0.1:9" };

/** A new learner's environment: a new HOME and Deno cache, this machine's certificates. */
async function fresh(env: Record<string, string> = {}): Promise<Record<string, string>> {
  const home = await Deno.makeTempDir({ dir: scratch, prefix: "home " });
  return {
    HOME: home,
    DENO_DIR: `${home}/.cache/deno`,
    PATH: Deno.env.get("PATH")!,
    ...certificateSettings(),
    ...env,
  };
}

/** What `deno ...args` did in the course folder with `env` alone. */
async function deno(args: string[], env: Record<string, string>) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: course,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code, stdout: decode(stdout), stderr: decode(stderr) };
}

/** The npm packages in the Deno cache `env` names, by registry. */
async function cached(env: Record<string, string>): Promise<string[]> {
  const list = (folder: string) => Array.fromAsync(Deno.readDir(folder)).catch(() => []);
  const found = [];
  for (const registry of await list(`${env.DENO_DIR}/npm`)) {
    const packages = await list(`${env.DENO_DIR}/npm/${registry.name}`);
    found.push(...packages.map(({ name }) => `${registry.name}/${name}`));
  }
  return found;
}

/** Each README task before set-up: one line that says to run set-up, and nothing fetched. */
async function saysSetUpFirst(env: Record<string, string>) {
  for (const [task, ...args] of TASKS) {
    const ran = await deno(["task", task, ...args], env);
    assert.equal(ran.code, 1, `deno task ${task}: ${ran.stderr}`);
    assert.equal(ran.stdout, "", `deno task ${task}`);
    // Deno's own echo of the task aside (`Task lab deno run ...`), one line: ours.
    const lines = ran.stderr.trimEnd().split("\n").filter((line) => !/^\S*Task\b/.test(line));
    assert.deepEqual(lines, [
      `${task}: the course is not set up on this machine yet: run \`sh tools/setup.sh\` in the ` +
      `course folder (once, with the network), then \`deno task ${task}\` again`,
    ]);
    assert.deepEqual(await cached(env), [], `deno task ${task} fetched npm packages`);
  }
}

Deno.test("before set-up, offline, each task the README names says to run set-up, in one line", async () => {
  const env = await fresh(OFFLINE);
  // The cut holds: Deno cannot fetch one of the course's packages through it.
  const cut = await deno(["cache", "lib/mcp/shared/schema.ts"], env);
  assert.notEqual(cut.code, 0, "Deno fetched through the network cut");
  assert.match(cut.stderr, /Failed (caching|loading) .*npm/);
  assert.match(cut.stderr, /Connection refused/);
  await Deno.remove(env.DENO_DIR, { recursive: true });
  await saysSetUpFirst(env);
});

Deno.test("before set-up, with the network, each task says the same, and downloads nothing", async () => {
  await saysSetUpFirst(await fresh());
});

Deno.test("once the pins are in place and Deno's cache holds them, the tasks run, offline", async () => {
  // This machine's Deno cache holds the course's packages, as set-up leaves a learner's.
  const env = await fresh({
    ...OFFLINE,
    DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
  });
  // As `sh tools/setup.sh` puts them in place.
  await Deno.copyFile(`${course}/tools/deno.lock`, `${course}/deno.lock`);
  try {
    const graded = await deno(["task", "-q", "grade", "work/ch14-b.ipynb"], env);
    assert.equal(graded.code, 2, graded.stderr);
    assert.match(graded.stderr, /^grade: work\/ch14-b\.ipynb: no such file or folder;/m);
    const started = await deno(["task", "-q", "starter", "ch14-b"], env);
    assert.equal(started.code, 0, started.stderr);
    assert.match(started.stdout, /^work\/ch14-b\.ipynb: a fresh starter$/m);
  } finally {
    await Deno.remove(`${course}/deno.lock`);
  }
});

Deno.test("pins changed since set-up (a fixed release taken) have each task say to run set-up again", async () => {
  // The machine's cache, offline: what a pin that set-up has not fetched needs is not in it.
  const env = await fresh({
    ...OFFLINE,
    DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
  });
  const map = `${course}/import_map.json`;
  const shipped = await Deno.readTextFile(map);
  await Deno.copyFile(`${course}/tools/deno.lock`, `${course}/deno.lock`);
  try {
    // A fixed release pins another ajv; the pins in place are set-up's, of the release before.
    await Deno.writeTextFile(map, shipped.replaceAll("ajv@8.20.0", "ajv@8.17.1"));
    const graded = await deno(["task", "-q", "grade", "work/ch14-b.ipynb"], env);
    assert.equal(graded.code, 1, graded.stderr);
    assert.match(graded.stderr, /^grade: the course is not set up on this machine yet: run `sh/);
    assert.equal(graded.stderr.trimEnd().split("\n").length, 1, graded.stderr);
  } finally {
    await Deno.writeTextFile(map, shipped);
    await Deno.remove(`${course}/deno.lock`);
  }
});

Deno.test("set-up cut off from the npm registry puts no pins in place: each task still says to run it", async () => {
  // The pins were put in place before the packages were fetched: the next `deno task` fetched them
  // (offline, Deno's network error again).
  const env = await fresh(OFFLINE);
  const { code, said } = await setUpCourse(course, env);
  assert.equal(code, 1, said);
  assert.match(said, /^setup: could not fetch the npm packages/m);
  assert.ok(!await Deno.stat(`${course}/deno.lock`).then(() => true, () => false));
  await Deno.remove(env.DENO_DIR, { recursive: true });
  await saysSetUpFirst(env);
});

Deno.test("set-up stopped with Ctrl-C says, in one line, to run it again; the tasks still run", async () => {
  // Ctrl-C as set-up asked JupyterLab its version (its last step, a second of Python's imports)
  // printed Python's KeyboardInterrupt and some 60 lines of its stack, and nothing of what to do.
  // The course's environment, as set-up leaves it, and the machine's Deno cache: set-up has
  // little to do but that last step.
  const env = await fresh({
    DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
    MARK: crypto.randomUUID(),
  });
  const venv = `${course}/.venv`;
  await Deno.mkdir(venv);
  await Deno.symlink(`${root}.venv/bin`, `${venv}/bin`);
  await Deno.copyFile(`${root}.venv/.course-pins`, `${venv}/.course-pins`);
  await Deno.symlink(
    `${root}tools/inspector/node_modules`,
    `${course}/tools/inspector/node_modules`,
  );
  try {
    const setUp = new Deno.Command("sh", {
      args: ["tools/setup.sh"],
      cwd: course,
      env,
      clearEnv: true,
      detached: true,
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const said = Promise.all([setUp.stdout, setUp.stderr].map((it) => new Response(it).text()));
    // Ctrl-C reaches each process of the terminal's group: set-up's, here.
    while (
      !markedProcesses("MARK", env.MARK).some(({ cmdline }) =>
        /jupyter-lab --version/.test(cmdline)
      )
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    Deno.kill(-setUp.pid, "SIGINT");
    const { code } = await setUp.status;
    const [stdout, stderr] = await said;
    assert.notEqual(code, 0, stdout);
    assert.doesNotMatch(stderr, /Traceback|KeyboardInterrupt/);
    assert.deepEqual(stderr.trimEnd().split("\n"), [
      "setup: stopped before it finished: run `sh tools/setup.sh` again (it installs only what is missing)",
    ]);
    // What it had put in place by then holds: the tasks run.
    const started = await deno(["task", "-q", "starter", "ch14-b"], { ...env, ...OFFLINE });
    assert.equal(started.code, 0, started.stderr);
  } finally {
    const made = [venv, "tools/inspector/node_modules", "deno.lock", "work/ch14-b.ipynb"];
    for (const path of made) {
      await Deno.remove(path.startsWith("/") ? path : `${course}/${path}`, { recursive: true })
        .catch(() => {});
    }
  }
});
