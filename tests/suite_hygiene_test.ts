// A test run leaves the machine as it found it: notebooks run with the
// course's own Deno kernelspec (a user without one, or with a broken one, is
// not touched), set-up registers the kernel by the program's real path (not a
// link CI deletes afterwards), and tools/leftovers.ts counts only the
// processes of its own run.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runNotebook } from "../tools/run_notebook.ts";
import { SUITE_MARK } from "../tools/suite_mark.ts";
import { LONGEST_FIRST } from "../tools/suite_order.ts";

const root = fileURLToPath(new URL("../", import.meta.url));

Deno.test("a notebook runs with the course's own kernelspec, in a home that has none", async () => {
  const home = await Deno.makeTempDir({ prefix: "no-kernelspec-home-" });
  try {
    const notebook = {
      nbformat: 4,
      nbformat_minor: 5,
      metadata: { kernelspec: { name: "deno", display_name: "Deno", language: "typescript" } },
      cells: [{
        id: "says",
        cell_type: "code",
        metadata: {},
        execution_count: null,
        outputs: [],
        // The course's say, not console.log: Deno's kernel may go idle before it forwards a
        // cell's last printed line, and say waits until it is shown.
        source: `const { say } = await import(${
          JSON.stringify(`${root}lib/notebook/display.ts`)
        });\nawait say(\`kernel \${Deno.execPath()}\`);`,
      }],
    };
    await Deno.writeTextFile(`${home}/probe.ipynb`, JSON.stringify(notebook));
    const run = await runNotebook(`${home}/probe.ipynb`, { env: { HOME: home } });
    assert.ok(run.outputs.get("says")!.includes(`kernel ${Deno.execPath()}`), run.text);
    const left = [...Deno.readDirSync(home)].map((entry) => entry.name).filter((name) =>
      name !== "probe.ipynb"
    );
    assert.ok(!left.includes(".local"), `the run wrote into the home's .local: ${left}`);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("set-up registers the kernel by deno's own path, not the link that found it", async () => {
  const home = await Deno.makeTempDir({ prefix: "kernelspec-home-" });
  try {
    await Deno.mkdir(`${home}/links`);
    await Deno.symlink(Deno.execPath(), `${home}/links/deno`);
    const { code, stderr } = await new Deno.Command("sh", {
      args: [`${root}tools/jupyter/register_kernel.sh`],
      clearEnv: true,
      env: { HOME: home, PATH: `${home}/links:/usr/bin:/bin` },
      stderr: "piped",
    }).output();
    assert.equal(code, 0, new TextDecoder().decode(stderr));
    const spec = JSON.parse(
      await Deno.readTextFile(`${home}/.local/share/jupyter/kernels/deno/kernel.json`),
    );
    assert.equal(spec.argv[0], await Deno.realPath(Deno.execPath()));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("leftovers counts the processes of its own run, not another run's", async () => {
  const ours = crypto.randomUUID();
  const leftovers = (mark: string) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", `${root}tools/leftovers.ts`],
      env: { [SUITE_MARK]: mark },
      stdout: "null",
      stderr: "piped",
    }).output();
  // Another run's server, named as the course's servers are: not ours to find.
  const theirs = new Deno.Command("bash", {
    args: ["-c", `exec -a "${root}servers/teaching.ts" sleep 30`],
    env: { [SUITE_MARK]: crypto.randomUUID() },
  }).spawn();
  try {
    assert.equal((await leftovers(ours)).code, 0);
    // Ours, and one of a part of our run (a kernel's), whose mark is nested in ours.
    const mine = ["", "/kernel"].map((part) =>
      new Deno.Command("sleep", { args: ["30"], env: { [SUITE_MARK]: `${ours}${part}` } }).spawn()
    );
    try {
      const found = await leftovers(ours);
      assert.equal(found.code, 1);
      for (const { pid } of mine) {
        assert.match(
          new TextDecoder().decode(found.stderr),
          new RegExp(`^  ${pid} .*sleep 30`, "m"),
        );
      }
    } finally {
      for (const process of mine) process.kill("SIGKILL");
      await Promise.all(mine.map((process) => process.status));
    }
  } finally {
    theirs.kill("SIGKILL");
    await theirs.status;
  }
});

Deno.test("every file the suite starts first is a test file of the suite", async () => {
  for (const file of LONGEST_FIRST) {
    assert.ok(file.endsWith("_test.ts"), `${file} is not a test file`);
    assert.ok((await Deno.stat(`${root}${file}`)).isFile, `${file} is not there`);
  }
  assert.equal(new Set(LONGEST_FIRST).size, LONGEST_FIRST.length);
});
