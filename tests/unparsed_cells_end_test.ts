// The grader's check of which cells do not parse keeps to a learner's memory, and ends with the
// grader: a SIGTERM or a closed terminal reaches the grader's process alone (Ctrl-C reaches its
// whole group), and the check, started as a child of its own, ran on after the grader had gone
// (seconds on a large cell a learner handed in).

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { plainTemp } from "../lib/course/plain_temp.ts";
import { commandsHolding } from "./_helpers.ts";
import { processUsage } from "../tools/grading/process_usage.ts";

const root = fileURLToPath(new URL("../", import.meta.url));

/** What the grader does at the signal (`tools/grade.ts`), and a check that takes a while. */
const grader = `
import { unparsedCells } from ${
  JSON.stringify(new URL("../tools/grading/unparsed_cells.ts", import.meta.url).href)
};
for (const [signal, code] of [["SIGTERM", 143], ["SIGHUP", 129]]) {
  Deno.addSignalListener(signal, () => Deno.exit(code));
}
// Formatted already, so that the check holds little memory (far below its limit) as it reads it.
const big = Array.from({ length: 60000 }, (_, at) => "const x" + at + " = " + at + ";").join("\\n");
await unparsedCells([{ id: "big", source: big }, { id: "typo", source: "return [[1];" }], 600_000);
`;

/** The running processes whose command line names `folder` (the grader's TMPDIR). */
const runningIn = (folder: string) => commandsHolding(folder).map(({ pid }) => pid);

/** How many bytes process `pid` has read, by `/proc/PID/io` (0 once it has gone). */
function bytesRead(pid: number): number {
  try {
    return Number(/^rchar: (\d+)$/m.exec(Deno.readTextFileSync(`/proc/${pid}/io`))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * Run `code` as a grader with a TMPDIR of its own, and `body` with it (the grader, its TMPDIR,
 * and whether it has ended); after, no process of it and no folder is left.
 */
async function asGrader(
  code: string,
  body: (grader: Deno.ChildProcess, tmp: string, ended: () => boolean) => Promise<void>,
): Promise<void> {
  const tmp = await Deno.makeTempDir({ dir: plainTemp(), prefix: "unparsed-end-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    cwd: root,
    env: { TMPDIR: tmp },
    stdout: "null",
    stderr: "null",
  }).spawn();
  let ended = false;
  child.status.then(() => ended = true);
  try {
    await body(child, tmp, () => ended);
  } finally {
    for (const pid of runningIn(tmp)) Deno.kill(pid, "SIGKILL");
    if (!ended) child.kill("SIGKILL");
    await child.status;
    while (runningIn(tmp).length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await Deno.remove(tmp, { recursive: true });
  }
}

for (const signal of ["SIGTERM", "SIGHUP"] as const) {
  Deno.test(`a ${signal} to the grader during the cells' check leaves no process and no folder`, async () => {
    await asGrader(grader, async (child, tmp, ended) => {
      // Once the check has read the large cell (before, the folder's removal stopped it reading).
      while (!runningIn(tmp).some((pid) => bytesRead(pid) > 500_000)) {
        assert.ok(!ended(), "the grader ended before its check read the cells");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      child.kill(signal);
      await child.status;
      assert.deepEqual(runningIn(tmp), [], "the check outlived the grader");
      assert.deepEqual([...Deno.readDirSync(tmp)].map(({ name }) => name), []);
    });
  });
}

/** A grader's check of a cell that does not parse beside one of `items` objects (16 bytes each). */
const checking = (items: number) => `
import { unparsedCells } from ${
  JSON.stringify(new URL("../tools/grading/unparsed_cells.ts", import.meta.url).href)
};
const big = "const x = [" + Array(${items}).fill("{a:1,b:[1,2,3]}").join(",") + "];";
const typo = "function f() {\\n  return [[1];\\n}";
console.log(JSON.stringify(await unparsedCells([{ id: "typo", source: typo }, { id: "big", source: big }])));
`;

// The check (deno fmt --check) held 1.7 GB for a cell of 1 MB, and took a cell of 3.2 MB past the
// machine's 24 GB, where the kernel's OOM killer stopped it. Now a cell too large to check within
// a learner's memory is not called unparsed; one of 100 kB still is.
for (
  const [items, found] of [
    [6_250, { typo: "SyntaxError: Expected ',', got ';', in: return [[1];" }],
    [62_500, {}],
  ] as const
) {
  Deno.test(`the cells' check of a cell of ${items * 16 / 1e6} MB holds at most a learner's 512 MB`, async () => {
    const tmp = await Deno.makeTempDir({ dir: plainTemp(), prefix: "unparsed-budget-" });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", checking(items)],
      cwd: root,
      env: { TMPDIR: tmp },
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    let peak = 0;
    const sampler = setInterval(() => {
      for (const pid of runningIn(tmp)) peak = Math.max(peak, processUsage(pid).resident);
    }, 5);
    try {
      const { code, stdout } = await child.output();
      assert.equal(code, 0);
      assert.deepEqual(JSON.parse(new TextDecoder().decode(stdout)), found);
      // The limit, and what the check may take between two readings of it.
      assert.ok(peak < 600 << 20, `the check held ${Math.round(peak / 2 ** 20)} MB`);
    } finally {
      clearInterval(sampler);
      for (const pid of runningIn(tmp)) Deno.kill(pid, "SIGKILL");
      await Deno.remove(tmp, { recursive: true });
    }
  });
}

/** The most resident memory process `pid` has held (`VmHWM`), in bytes; 0 once it has gone. */
function highWater(pid: number): number {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    return Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

Deno.test("a check whose grader was killed outright holds at most 1 GB, and ends", async () => {
  // SIGKILL (or the OOM killer) ends the grader with no handler run: its check, watched only by
  // the grader, ran on unwatched (a cell of 1 MB to 1.7 GB, one of 3.2 MB to the machine's 24).
  await asGrader(checking(62_500), async (child, tmp, ended) => {
    while (runningIn(tmp).length === 0) {
      assert.ok(!ended(), "the grader ended before its check started");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    child.kill("SIGKILL");
    await child.status;
    let peak = 0;
    for (let checks = runningIn(tmp); checks.length > 0; checks = runningIn(tmp)) {
      for (const pid of checks) peak = Math.max(peak, highWater(pid));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // The kernel's limit (1 GiB of data) and the program's own code, resident beside it.
    assert.ok(peak < 1.25 * 2 ** 30, `the check held ${Math.round(peak / 2 ** 20)} MB`);
  });
});
