// The workshop hub (`deno task hub`), as a class meets it: a real JupyterHub
// with three learner accounts, their servers spawned through the hub's REST API
// with the admin service's token (COURSE_HUB_TOKEN), the course pulled by
// nbgitpuller from the learners' release, a Deno kernel from the system-wide
// kernelspec running Unit A's first cells, each learner's work theirs alone and
// kept across a restart and a pull, and nothing left running once the hub stops.
// Its accounts, state and processes are removed at the end, whatever happens.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { isRunning } from "../lib/mcp/client/process_group.ts";
import { processesOf } from "../tools/hub/accounts.ts";
import { KernelChannel } from "./_kernel_channel.ts";

const repository = fileURLToPath(new URL("../", import.meta.url));
const scratch = await Deno.makeTempDir({ prefix: "hub test " });
await Deno.chmod(scratch, 0o755);
const state = `${scratch}/state`;
const tag = crypto.randomUUID().slice(0, 6).replace(/^\d/, "t");
const learners = ["ana", "ben", "cam"].map((name) => `h${tag}-${name}`);
const token = crypto.randomUUID().replaceAll("-", "");
const admin = { Authorization: `token ${token}` };

/** A port nothing listens on now. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

const port = freePort();
const hubUrl = `http://127.0.0.1:${port}`;

async function removeAccounts() {
  for (const name of learners) {
    await new Deno.Command("userdel", { args: ["--remove", name], stderr: "null" }).output();
  }
}

/** The hub's REST API, as the admin service; the parsed reply. */
async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${hubUrl}/hub/api/${path}`, {
    method,
    headers: { ...admin, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`);
  return text === "" ? undefined : JSON.parse(text);
}

/** Start `name`'s server through the API and wait until it is ready. */
async function spawn(name: string): Promise<void> {
  await fetch(`${hubUrl}/hub/api/users/${name}/server`, { method: "POST", headers: admin })
    .then((response) => response.body?.cancel());
  for (let tries = 0; tries < 300; tries++) {
    const user = await api("GET", `users/${name}`);
    if (user.server !== null && user.pending === null) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  assert.fail(`${name}'s server did not start`);
}

/** Stop `name`'s server through the API and wait until it has stopped. */
async function stopServer(name: string): Promise<void> {
  await fetch(`${hubUrl}/hub/api/users/${name}/server`, { method: "DELETE", headers: admin })
    .then((response) => response.body?.cancel());
  for (let tries = 0; tries < 300; tries++) {
    const user = await api("GET", `users/${name}`);
    if (user.server === null && user.pending === null) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  assert.fail(`${name}'s server did not stop`);
}

/** A request to `name`'s own server with `key` (a learner's token). */
function asLearner(key: string, name: string, path: string, init: RequestInit = {}) {
  return fetch(`${hubUrl}/user/${name}/${path}`, {
    ...init,
    headers: { Authorization: `token ${key}`, "Content-Type": "application/json" },
  });
}

/**
 * Pull the release into ~/course as the nbgitpuller link does (its page calls
 * this API with the link's parameters); the events it streamed.
 */
async function pull(key: string, name: string, repo: string): Promise<string> {
  const query = new URLSearchParams({ repo, branch: "main", targetpath: "course" });
  const response = await asLearner(key, name, `git-pull/api?${query}`);
  const events = await response.text();
  assert.match(events, /"phase": "finished"/, events);
  return events;
}

/** Read a file of `name`'s through their server's contents API. */
async function contents(key: string, name: string, path: string) {
  const response = await asLearner(key, name, `api/contents/${path}?content=1`);
  return { status: response.status, body: await response.json().catch(() => undefined) };
}

/** Processes anywhere on the machine whose command line names this hub's state folder or port. */
async function hubProcesses(): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name) || Number(entry.name) === Deno.pid) continue;
    try {
      if (!isRunning(entry.name)) continue;
      const line = (await Deno.readTextFile(`/proc/${entry.name}/cmdline`)).replaceAll("\0", " ");
      if (line.includes(state) || line.includes(`--port ${port} `)) found.push(line);
    } catch {
      // It ended while it was being read.
    }
  }
  return found;
}

Deno.test("the workshop hub serves three learners their own course, kernel and work, and leaves nothing running", async () => {
  // The README's first command (quick once the hub's environment is installed).
  const setup = await new Deno.Command("sh", {
    args: ["tools/setup.sh", "hub"],
    cwd: repository,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(setup.success, new TextDecoder().decode(setup.stderr));
  // The README's second command, with a scratch state folder and a free port.
  // deno-fmt-ignore
  const args = ["task", "-q", "hub", "--port", String(port), "--learners", learners.join(","), "--state", state];
  const hub = new Deno.Command(Deno.execPath(), {
    args,
    cwd: repository,
    env: { COURSE_HUB_TOKEN: token, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const printed: string[] = [];
  let logged = "";
  const errors = hub.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (text) => void (logged = (logged + text).slice(-4000)) }),
  );
  const lines = hub.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let stopped = false;
  try {
    let buffer = "";
    while (!printed.some((line) => line.startsWith("hub: hand the course out with: "))) {
      const { value, done } = await lines.read();
      assert.ok(!done, `the hub ended before it was ready:\n${printed.join("\n")}\n${logged}`);
      buffer += value;
      printed.push(...buffer.split("\n").slice(0, -1));
      buffer = buffer.slice(buffer.lastIndexOf("\n") + 1);
    }
    const reading = (async () => {
      for (let next = await lines.read(); !next.done; next = await lines.read()) {
        printed.push(...next.value.split("\n"));
      }
    })();
    for (const name of learners) {
      assert.ok(printed.some((line) => line.startsWith(`hub: learner ${name}, password `)), name);
    }
    const link = new URL(
      printed.find((line) => line.includes("hand the course out"))!.split(": ")[2],
    );
    assert.ok(link.href.startsWith(`${hubUrl}/hub/user-redirect/git-pull?`), link.href);
    const release = link.searchParams.get("repo")!;
    assert.equal(release, `${state}/release.git`);
    assert.equal(link.searchParams.get("targetPath"), "course");

    const keys = new Map<string, string>();
    for (const name of learners) {
      await spawn(name);
      const { token: key } = await api("POST", `users/${name}/tokens`, { note: "hub test" });
      keys.set(name, key);
      await pull(key, name, release);
      const readme = await contents(key, name, "course/README.md");
      assert.equal(readme.status, 200);
      assert.match(readme.body.content, /External Tools with MCP/);

      const specs = await (await asLearner(key, name, "api/kernelspecs")).json();
      const deno = specs.kernelspecs.deno?.spec;
      assert.ok(deno, `no Deno kernelspec for ${name}: ${Object.keys(specs.kernelspecs)}`);
      assert.equal(deno.argv[0], "/opt/external-tools-hub/venv/bin/deno");
      assert.equal(deno.env.DENO_DIR, `${state}/deno`, "Deno's cache is outside home");

      const kernel = await KernelChannel.open(
        `${hubUrl}/user/${name}/`,
        key,
        "course/work/ch14-a.ipynb",
        "deno",
      );
      // The learner makes their copies as the README says, in a terminal in course/.
      const starter = await kernel.run(
        `const made = await new Deno.Command("deno", { args: ["task", "-q", "starter", "ch14-a"], cwd: "/home/${name}/course" }).output();\n` +
          `if (!made.success) throw new Error(new TextDecoder().decode(made.stderr));`,
      );
      assert.equal(starter.error, undefined);
      const notebook = await contents(key, name, "course/work/ch14-a.ipynb");
      assert.equal(notebook.status, 200, "the learner's copy of Unit A");
      // Unit A's cells up to the first table's verdict: the setup cell says where work is saved,
      // and the untouched answerFor needs work.
      const code: string[] = notebook.body.content.cells
        .filter((cell: { cell_type: string }) => cell.cell_type === "code")
        .map((cell: { source: string | string[] }) => [cell.source].flat().join(""));
      const verdictCell = code.findIndex((source) => source.includes('say("ANSWER_CHECK"'));
      assert.ok(verdictCell > 0, "Unit A has a cell that says ANSWER_CHECK");
      const cells = code.slice(0, verdictCell + 1);
      try {
        // Both lines may be forwarded by the kernel after its idle.
        const expected = new Map([
          [0, /Your work is saved in/],
          [verdictCell, /ANSWER_CHECK NEEDS_WORK/],
        ]);
        const runs = [];
        for (const [index, cell] of cells.entries()) {
          runs.push(await kernel.run(cell, { until: expected.get(index) }));
        }
        assert.deepEqual(runs.map((run) => run.error), cells.map(() => undefined));
        assert.match(
          runs[0].output,
          new RegExp(`Your work is saved in /home/${name}/course/work/ch14-a/`),
        );
        assert.match(runs[verdictCell].output, /ANSWER_CHECK NEEDS_WORK/);
        const mine = await kernel.run(
          `Deno.writeTextFileSync("/home/${name}/course/work/notes.txt", "${name}'s notes"); "saved"`,
        );
        assert.equal(mine.error, undefined);
      } finally {
        await kernel.close();
      }
    }

    // Their work is theirs alone: not through the hub, not from their own code.
    const [ana, ben] = learners;
    const across = await contents(keys.get(ana)!, ben, "course/work/notes.txt");
    assert.equal(across.status, 403, `${ana} read ${ben}'s work through the hub`);
    const own = await contents(keys.get(ben)!, ben, "course/work/notes.txt");
    assert.equal(own.body.content, `${ben}'s notes`);
    const kernel = await KernelChannel.open(
      `${hubUrl}/user/${ana}/`,
      keys.get(ana)!,
      "course/work/x.ipynb",
      "deno",
    );
    try {
      // The outcome goes to a file of ana's: Deno's kernel may forward a cell's value late.
      const peek = await kernel.run(
        `let seen = "read";\n` +
          `try { Deno.readTextFileSync("/home/${ben}/course/work/notes.txt"); } catch (e) { seen = (e as Error).name; }\n` +
          `Deno.writeTextFileSync("/home/${ana}/course/work/peek.txt", seen);`,
      );
      assert.equal(peek.error, undefined);
      const seen = await contents(keys.get(ana)!, ana, "course/work/peek.txt");
      assert.equal(seen.body.content, "PermissionDenied");
    } finally {
      await kernel.close();
    }

    // work/ is kept across a restart of the server and a pull of a changed release.
    const update = `${scratch}/update`;
    const git = (...args: string[]) =>
      new Deno.Command("git", { args, cwd: update, stdout: "null", stderr: "piped" }).output()
        .then(({ success, stderr }) => assert.ok(success, new TextDecoder().decode(stderr)));
    await new Deno.Command("git", { args: ["clone", "-q", release, update] }).output();
    await Deno.writeTextFile(`${update}/NEWS.md`, "A fixed handout.\n");
    await git("add", "NEWS.md");
    await git(
      "-c",
      "user.name=Instructor",
      "-c",
      "user.email=i@localhost",
      "commit",
      "-qm",
      "A fix",
    );
    await git("push", "-q", "origin", "HEAD:main");
    await stopServer(ana);
    await spawn(ana);
    await pull(keys.get(ana)!, ana, release);
    assert.equal((await contents(keys.get(ana)!, ana, "course/NEWS.md")).status, 200);
    const kept = await contents(keys.get(ana)!, ana, "course/work/notes.txt");
    assert.equal(kept.body?.content, `${ana}'s notes`);
    assert.equal((await contents(keys.get(ana)!, ana, "course/work/ch14-a")).status, 200);

    // Stopping the hub stops every server, kernel and the proxy.
    hub.kill("SIGTERM");
    const status = await hub.status;
    stopped = true;
    await reading;
    assert.equal(status.code, 0, printed.join("\n"));
    assert.ok(printed.some((line) => line.startsWith("hub: stopped")), printed.join("\n"));
    const uids = await Promise.all(learners.map(async (name) => {
      const { stdout } = await new Deno.Command("id", { args: ["-u", name] }).output();
      return Number(new TextDecoder().decode(stdout));
    }));
    assert.deepEqual(await processesOf(uids), []);
    assert.deepEqual(await hubProcesses(), []);
  } finally {
    if (!stopped) {
      // A hub that has exited already would throw here, hiding why the test failed.
      try {
        hub.kill("SIGTERM");
      } catch { /* it has exited */ }
      await hub.status;
    }
    await lines.cancel().catch(() => {});
    await errors.catch(() => {});
    await removeAccounts();
    await Deno.remove(scratch, { recursive: true });
  }
});
