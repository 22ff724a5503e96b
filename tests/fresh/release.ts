// The learners' release, set up as a learner sets it up on a fresh machine
// (`deno task test:fresh`, which CI runs): built, copied to a folder whose path
// has a space and a quote, and there, with a new HOME (no Deno kernelspec, no
// caches of Deno, npm or pip), CI's fresh PATH without Deno and with Debian's
// own Python, and npm installing into a prefix of the learner's own, `sh
// tools/setup.sh && deno task lab --no-browser` as its README says, the lab and
// its kernels with Deno's network cut (what set-up cached must be all they
// need). The printed address opens; each learner's copy runs cell by cell in
// a Deno kernel that JupyterLab starts, as Run All runs it; a terminal in JupyterLab grades and starts a unit again; and
// everything started is stopped. Then each unit's autograder package, set up
// as Gradescope sets one up with no download cache, grades the worked and the
// student edition as the instructors' grader does.

import assert from "node:assert/strict";
import { unzipSync } from "fflate";
import { fileURLToPath } from "node:url";
import { UNITS } from "../../tools/grading/units/mod.ts";
import { suiteMarkEnv } from "../../tools/suite_mark.ts";
import { markedProcesses } from "../browser/lab_server.ts";
import { certificateSettings, GradescopeImage, setUpCourse, task } from "../_gradescope.ts";
import { KernelChannel } from "../_kernel_channel.ts";

const repository = fileURLToPath(new URL("../../", import.meta.url));
const scratch = await Deno.makeTempDir({ prefix: "fresh machine " });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));
/** The units in the order a learner takes them, the README's. */
const ORDER = [...UNITS.keys()];
const MARK = "COURSE_FRESH_MACHINE_TEST";

/** Seconds since `start`, for the phases' times this test prints. */
const since = (start: number) => `${((performance.now() - start) / 1000).toFixed(1)} s`;
/** Text without the escapes a terminal adds (colours, its window's title). */
const plain = (text: string) =>
  // deno-lint-ignore no-control-regex
  text.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g, "");

/**
 * A fresh learner's machine: a new HOME; CI's fresh PATH (`.ci/fresh_path.ts`)
 * without the Deno that set-up installs, with Debian 12's own Python (3.11.2)
 * where this image puts pyenv's (3.11.7) first, and without `apt-get`, so that
 * set-up can never change this machine (what it would install from Debian's
 * packages is here already); npm's global prefix in that HOME (as npm advises
 * for installing without root), first on the PATH; and this machine's own
 * certificate settings. The environment, and the Deno set-up will install.
 */
async function freshMachine(): Promise<{ env: Record<string, string>; deno: string }> {
  const home = `${scratch}/home`;
  const bin = `${scratch}/bin`;
  await Deno.mkdir(home);
  const linked = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", ".ci/fresh_path.ts", bin],
    cwd: repository,
    stderr: "piped",
  }).output();
  assert.ok(linked.success, new TextDecoder().decode(linked.stderr));
  const names = [...Deno.readDirSync(bin)].map(({ name }) => name);
  for (const name of names) {
    // The real program: under CI's fresh PATH, fresh_path.ts links to that PATH's links.
    const real = await Deno.realPath(`${bin}/${name}`).catch(() => "");
    const pyenv = real.includes("/.pyenv/");
    if (name === "deno" || name === "apt-get" || pyenv) await Deno.remove(`${bin}/${name}`);
  }
  // Debian's own Python, which a fresh Debian machine has on its PATH (the image's is pyenv's).
  for (const name of ["python3", "pip3"]) {
    const debian = await Deno.stat(`/usr/bin/${name}`).then(() => true, () => false);
    const linked = await Deno.lstat(`${bin}/${name}`).then(() => true, () => false);
    if (debian && !linked) await Deno.symlink(`/usr/bin/${name}`, `${bin}/${name}`);
  }
  const prefix = `${home}/.npm-global`;
  const env = {
    HOME: home,
    PATH: `${prefix}/bin:${bin}`,
    LANG: "C.UTF-8",
    NPM_CONFIG_PREFIX: prefix,
    ...certificateSettings(),
    ...suiteMarkEnv(),
    [MARK]: crypto.randomUUID(),
  };
  return { env, deno: `${prefix}/bin/deno` };
}

/**
 * Deno's network cut, for a learner offline once set-up has run: every request Deno makes
 * goes to a proxy nobody serves, but those to this machine (JupyterLab, the labs' own servers).
 * An unreachable `NPM_CONFIG_REGISTRY` would not do: Deno keeps each registry's packages
 * apart in its cache, so it would miss what set-up cached from the real one.
 */
const OFFLINE = {
  HTTPS_PROXY: "http://127.0.0.1:9",
  HTTP_PROXY: "http://127.0.0.1:9",
  NO_PROXY: "127.0.0.1,localhost,::1",
};

/** The address JupyterLab prints once it serves, read from what `output` gathers. */
async function printedAddress(output: { text: string }, exited: Promise<unknown>): Promise<URL> {
  let ended = false;
  exited.then(() => ended = true);
  const deadline = Date.now() + 120_000;
  const address = /http:\/\/127\.0\.0\.1:\d+\/lab\/tree\/work\/ch14-a\.ipynb\?token=\w+/;
  while (!address.test(output.text)) {
    assert.ok(!ended, `deno task lab ended before it printed its address:\n${output.text}`);
    assert.ok(Date.now() < deadline, `no address within 120 s:\n${output.text}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return new URL(output.text.match(address)![0]);
}

/** A terminal in JupyterLab (File → New → Terminal): what `command` printed there, and its status. */
async function inTerminal(
  server: string,
  token: string,
  command: string,
): Promise<{ printed: string; status: number }> {
  const headers = { Authorization: `token ${token}` };
  const made = await fetch(`${server}api/terminals`, { method: "POST", headers });
  assert.ok(made.ok, `POST api/terminals: ${made.status}`);
  const { name } = await made.json();
  const socket = new WebSocket(`${server.replace(/^http/, "ws")}terminals/websocket/${name}`, {
    headers,
  });
  let printed = "";
  try {
    const status = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${command} ran past 300 s in the terminal:\n${plain(printed)}`)),
        300_000,
      );
      socket.onerror = () => reject(new Error("the terminal's websocket failed"));
      socket.onopen = () => socket.send(JSON.stringify(["stdin", `${command}; echo "EXIT $?"\r`]));
      socket.onmessage = (event) => {
        const [kind, text] = JSON.parse(event.data as string);
        if (kind !== "stdout") return;
        printed += text;
        const exit = plain(printed).match(/^EXIT (\d+)\r?$/m);
        if (exit !== null) {
          clearTimeout(timer);
          resolve(Number(exit[1]));
        }
      };
    });
    return { printed: plain(printed), status };
  } finally {
    socket.close();
    const ended = await fetch(`${server}api/terminals/${name}`, { method: "DELETE", headers });
    await ended.body?.cancel();
  }
}

/** Run every code cell of the learner's copy of `unit` in a new Deno kernel; what each did. */
async function runAll(server: string, token: string, unit: string) {
  const response = await fetch(`${server}api/contents/work/${unit}.ipynb?content=1`, {
    headers: { Authorization: `token ${token}` },
  });
  assert.ok(response.ok, `the learner's copy of ${unit}: ${response.status}`);
  const { content } = await response.json();
  const cells = (content.cells as { cell_type: string; id: string; source: string }[])
    .filter((cell) => cell.cell_type === "code");
  const kernel = await KernelChannel.open(server, token, `work/${unit}.ipynb`, "deno");
  try {
    const runs = [];
    for (const cell of cells) runs.push({ id: cell.id, ...await kernel.run(cell.source) });
    return runs;
  } finally {
    await kernel.close();
  }
}

Deno.test("the learners' release sets up on a fresh machine, and every unit runs in JupyterLab", async () => {
  const built = `${scratch}/built`;
  await task("release", built);
  // Handed out as an archive is: unpacked, here at a path with a space and a quote.
  const course = `${scratch}/a learner's course`;
  await Deno.mkdir(course);
  const copied = await new Deno.Command("cp", { args: ["-R", `${built}/.`, course] }).output();
  assert.ok(copied.success);
  const { env, deno } = await freshMachine();

  let start = performance.now();
  const { code, said } = await setUpCourse(course, env);
  assert.equal(code, 0, said);
  console.log(`sh tools/setup.sh: ${since(start)}`);
  assert.match(said, /^setup: ready: deno 2\.9\.6 .*, JupyterLab 4\.\d+\.\d+ in \.venv\/$/m);
  // The virtual environment is Debian's own Python's, the one a fresh Debian machine has.
  const version = (python: string) =>
    new Deno.Command(python, { args: ["--version"] }).output().then(({ stdout }) => stdout);
  assert.deepEqual(await version(`${course}/.venv/bin/python`), await version("/usr/bin/python3"));
  const spec = JSON.parse(
    await Deno.readTextFile(`${env.HOME}/.local/share/jupyter/kernels/deno/kernel.json`),
  );
  assert.ok(spec.argv[0].startsWith(`${env.HOME}/.npm-global/`), `the kernel runs ${spec.argv[0]}`);
  await Deno.stat(`${course}/.venv/share/jupyter/lab/settings/overrides.json`);
  await Deno.stat(
    `${course}/tools/inspector/node_modules/@modelcontextprotocol/inspector/package.json`,
  );

  // The cut holds: with a cache of its own, Deno cannot fetch the course's packages through it.
  const cut = await new Deno.Command(deno, {
    args: ["cache", "lib/mcp/shared/schema.ts"],
    cwd: course,
    env: { ...env, ...OFFLINE, DENO_DIR: `${scratch}/uncached` },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(!cut.success, "Deno fetched through the network cut");
  assert.match(new TextDecoder().decode(cut.stderr), /Failed caching npm package/);

  // From here on, Deno has no network, as a learner on a train after set-up.
  start = performance.now();
  const lab = new Deno.Command(deno, {
    args: ["task", "lab", "--no-browser"],
    cwd: course,
    env: { ...env, ...OFFLINE },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = { text: "" };
  const gathered = Promise.all([lab.stdout, lab.stderr].map(async (stream) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) output.text += chunk;
  }));
  const marked = () => markedProcesses(MARK, env[MARK]);
  try {
    const address = await printedAddress(output, lab.status);
    console.log(`deno task lab --no-browser, until it printed its address: ${since(start)}`);
    const token = address.searchParams.get("token")!;
    const server = `${address.origin}/`;
    const page = await fetch(address);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /JupyterLab/);
    const specs = await (await fetch(`${server}api/kernelspecs?token=${token}`)).json();
    assert.deepEqual(Object.keys(specs.kernelspecs), ["deno"]);

    for (const unit of ORDER) {
      start = performance.now();
      const runs = await runAll(server, token, unit);
      console.log(`${unit}: ${runs.length} cells in ${since(start)}`);
      for (const run of runs) {
        assert.equal(run.error, undefined, `${unit}, cell ${run.id}:\n${plain(run.output)}`);
      }
      const all = plain(runs.map((run) => run.output).join("\n"));
      assert.match(all, /↷/, `${unit}: no step waits for the learner's work`);
      assert.doesNotMatch(all, /HOLDOUT_RESULT/, unit);
      assert.doesNotMatch(all, /You wrote no prediction first/, unit);
    }

    assert.doesNotMatch(plain(output.text), /Download /, "Deno fetched something once set up");

    start = performance.now();
    const grade = await inTerminal(server, token, "deno task grade work/ch14-b.ipynb");
    console.log(`deno task grade in JupyterLab's terminal: ${since(start)}`);
    assert.equal(grade.status, 0, grade.printed);
    assert.match(grade.printed, /no hidden cases/);
    assert.match(grade.printed, /splitFrames/);
    const starter = await inTerminal(server, token, "deno task starter ch14-b");
    assert.equal(starter.status, 0, starter.printed);
    assert.match(starter.printed, /work\/ch14-b\.ipynb: a fresh starter; your earlier copy is/);
  } finally {
    // Ctrl-C, as a learner stops it: tools/lab.ts passes it on to JupyterLab, which ends its kernels.
    for (const { pid } of marked().filter(({ cmdline }) => cmdline.includes("tools/lab.ts"))) {
      Deno.kill(pid, "SIGTERM");
    }
    const deadline = Date.now() + 30_000;
    while (marked().length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const left = marked();
    for (const { pid } of left) Deno.kill(pid, "SIGKILL");
    await lab.status;
    await gathered;
    assert.deepEqual(left, [], `still running 30 s after deno task lab was stopped`);
  }
});

Deno.test("each unit's autograder package, set up as Gradescope does, grades as the instructors' grader", async () => {
  // One image serves every unit: the packages differ only in the assignment they name, which
  // setup.sh never reads, and a fresh download cache of its own.
  const image = new GradescopeImage(`${scratch}/autograder`, { pipCache: `${scratch}/pip cache` });
  await Deno.mkdir(image.folder);
  const editions = ORDER.flatMap((unit) => [`solutions/${unit}.ipynb`, `notebooks/${unit}.ipynb`]);
  await task("grade", ...editions, "--json", `${scratch}/instructors.json`);
  const instructorsGrade = new Map<string, { score: number; max_score: number }>(
    JSON.parse(await Deno.readTextFile(`${scratch}/instructors.json`))
      .map((results: { submission: string }) => [results.submission, results]),
  );
  let first: Record<string, Uint8Array> | undefined;
  for (const unit of ORDER) {
    const zip = `${scratch}/${unit}.zip`;
    await task("autograder", "--unit", unit, zip);
    const { "assignment.json": assignment, ...files } = unzipSync(await Deno.readFile(zip));
    if (first === undefined) {
      first = files;
      const start = performance.now();
      await image.setUp(zip);
      console.log(`the autograder's setup.sh: ${since(start)}`);
    } else {
      assert.deepEqual(files, first, `${unit}'s package holds other files than ${ORDER[0]}'s`);
      await Deno.writeFile(`${image.folder}/source/assignment.json`, assignment);
    }
    for (const edition of ["solutions", "notebooks"]) {
      const notebook = `${edition}/${unit}.ipynb`;
      const expected = instructorsGrade.get(notebook)!;
      const { results } = await image.submit({
        [`${unit}.ipynb`]: await Deno.readTextFile(`${repository}${notebook}`),
      });
      const where = `${unit}'s ${edition} edition`;
      assert.ok(!results.tests.some((test) => test.name.startsWith("autograder error")), where);
      assert.equal(results.score, expected.score, where);
      assert.equal(
        results.tests.reduce((sum, test) => sum + test.max_score, 0),
        expected.max_score,
        where,
      );
      if (edition === "solutions") assert.equal(results.score, expected.max_score, where);
      else assert.ok(results.score < expected.max_score, where);
    }
  }
});
