// The grader's check of which cells do not parse ends with the grader: a SIGTERM or a closed
// terminal reaches the grader's process alone (Ctrl-C reaches its whole group), and the check's
// `deno fmt`, started as a child of its own, ran on after the grader had gone (seconds on a
// large cell a learner handed in).

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { plainTemp } from "../lib/course/plain_temp.ts";
import { readStat } from "../lib/mcp/client/process_group.ts";

const root = fileURLToPath(new URL("../", import.meta.url));

/** What the grader does at the signal (`tools/grade.ts`), and a check that takes seconds. */
const grader = `
import { unparsedCells } from ${
  JSON.stringify(new URL("../tools/grading/unparsed_cells.ts", import.meta.url).href)
};
for (const [signal, code] of [["SIGTERM", 143], ["SIGHUP", 129]]) {
  Deno.addSignalListener(signal, () => Deno.exit(code));
}
const row = Array.from({ length: 50 }, (_, at) => at).join(",");
const big = Array.from({ length: 6000 }, (_, at) => "const x" + at + " = [" + row + "];").join("\\n");
await unparsedCells([{ id: "big", source: big }, { id: "typo", source: "return [[1];" }], 600_000);
`;

/** The processes still running whose command line names `folder` (the grader's TMPDIR). */
function runningIn(folder: string): number[] {
  return [...Deno.readDirSync("/proc")].flatMap(({ name }) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      const command = Deno.readTextFileSync(`/proc/${name}/cmdline`);
      const state = readStat(name)?.state;
      return command.includes(folder) && state !== undefined && state !== "Z" ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

/** How many bytes process `pid` has read, by `/proc/PID/io` (0 once it has gone). */
function bytesRead(pid: number): number {
  try {
    return Number(/^rchar: (\d+)$/m.exec(Deno.readTextFileSync(`/proc/${pid}/io`))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

for (const signal of ["SIGTERM", "SIGHUP"] as const) {
  Deno.test(`a ${signal} to the grader during the cells' check leaves no process and no folder`, async () => {
    const tmp = await Deno.makeTempDir({ dir: plainTemp(), prefix: "unparsed-end-" });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", grader],
      cwd: root,
      env: { TMPDIR: tmp },
      stdout: "null",
      stderr: "null",
    }).spawn();
    let ended = false;
    child.status.then(() => ended = true);
    try {
      // Once the check has read the large cell (before, the folder's removal stopped it reading).
      while (!runningIn(tmp).some((pid) => bytesRead(pid) > 500_000)) {
        assert.ok(!ended, "the grader ended before its check read the cells");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      child.kill(signal);
      await child.status;
      assert.deepEqual(runningIn(tmp), [], "the check outlived the grader");
      assert.deepEqual([...Deno.readDirSync(tmp)].map(({ name }) => name), []);
    } finally {
      for (const pid of runningIn(tmp)) Deno.kill(pid, "SIGKILL");
      if (!ended) child.kill("SIGKILL");
      await child.status;
      while (runningIn(tmp).length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      await Deno.remove(tmp, { recursive: true });
    }
  });
}
