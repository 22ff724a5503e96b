// A process that cannot remove its scratch folders (killed, or a Deno kernel that Jupyter shut down,
// whose `unload` never runs) does not leave them for good: the next process that makes a folder of
// their kind removes them, and nothing that may still be in use.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { plainTemp } from "../lib/course/plain_temp.ts";
import { firstLine } from "./_helpers.ts";

const module = fileURLToPath(new URL("../lib/course/temp_folders.ts", import.meta.url));

/** A `deno eval` that makes a `prefix` folder in `tmp`, says where, and then runs `then`. */
function maker(tmp: string, then: string, prefix = "course-logs-"): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `import { tempFolder } from ${JSON.stringify(module)};
       console.log(tempFolder(${JSON.stringify(prefix)}));
       ${then}`,
    ],
    env: { TMPDIR: tmp },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
}

const names = (tmp: string) => [...Deno.readDirSync(tmp)].map(({ name }) => name).sort();

/** This process's pid namespace, as folders' names hold it. */
const namespace = /^pid:\[(\d+)\]$/.exec(Deno.readLinkSync("/proc/self/ns/pid"))![1];

/**
 * A process that made a `killedPrefix` folder in a TMPDIR of its own is
 * killed; the next process to make a `nextPrefix` folder there removes it.
 */
async function sweptAfterKill(killedPrefix: string, nextPrefix: string): Promise<void> {
  const tmp = await Deno.makeTempDir({ dir: plainTemp(), prefix: "temp-folders-" });
  try {
    const killed = maker(
      tmp,
      "await new Promise(() => setInterval(() => {}, 1000));",
      killedPrefix,
    );
    const left = await firstLine(killed);
    killed.kill("SIGKILL");
    await killed.status;
    assert.ok(Deno.statSync(left).isDirectory, "the killed process's folder is there");
    const next = maker(tmp, "", nextPrefix);
    await firstLine(next);
    assert.equal((await next.status).code, 0);
    assert.deepEqual(names(tmp), []);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

Deno.test("a folder left by a process that was killed goes when the next one makes its own", () =>
  sweptAfterKill("course-logs-", "course-logs-"));

Deno.test("a killed grader's folder of a rare kind goes when the next process makes a folder of another", () =>
  sweptAfterKill("grade-cells-", "course-logs-"));

Deno.test("a live process's folder, one of another pid namespace, one whose name holds no pid or no pid written as Deno writes it, and a link are left alone", async () => {
  const tmp = await Deno.makeTempDir({ dir: plainTemp(), prefix: "temp-folders-" });
  const outside = await Deno.makeTempDir({ dir: plainTemp(), prefix: "temp-folders-outside-" });
  try {
    const gone = new Deno.Command("true").spawn();
    const { pid } = gone;
    await gone.status;
    await Deno.writeTextFile(`${outside}/kept`, "");
    // Another namespace's process of that pid (a grader in a container sharing TMPDIR) may run.
    const elsewhere = BigInt(namespace) + 1n;
    const kept = [
      `course-logs-${Deno.pid}-${namespace}-live`,
      `course-logs-${pid}-${elsewhere}-elsewhere`,
      `course-logs-${pid}-${namespace}-link`,
      "course-logs-nopid-x",
      `other-${pid}-${namespace}-x`,
      // Names like a course folder's that no process makes: no pid is 0 or written with a 0 first.
      `grade-0-${namespace}-x`,
      `grade-0${pid}-${namespace}-x`,
      `grade-basement-${pid}-${namespace}-x`,
    ];
    await Deno.mkdir(`${tmp}/${kept[0]}`);
    await Deno.mkdir(`${tmp}/${kept[1]}`);
    await Deno.symlink(outside, `${tmp}/${kept[2]}`);
    await Deno.mkdir(`${tmp}/${kept[3]}`);
    for (const name of kept.slice(4)) await Deno.mkdir(`${tmp}/${name}`);
    // Beside them, one that goes: the sweep ran.
    await Deno.mkdir(`${tmp}/course-logs-${pid}-${namespace}-gone`);
    const next = maker(tmp, "");
    await firstLine(next);
    assert.equal((await next.status).code, 0);
    assert.deepEqual(names(tmp), kept.sort());
    assert.deepEqual([...Deno.readDirSync(outside)].map(({ name }) => name), ["kept"]);
  } finally {
    await Deno.remove(tmp, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});
