// A busy machine, made on purpose: half of one CPU for a test's processes,
// given as a cgroup's CPU quota, or beside a process that spins on that CPU
// for as long as the test runs. And what a part of
// a test run left running, found by the mark nested in the run's that it was
// given (tools/suite_mark.ts).

import { markedProcesses } from "./browser/lab_server.ts";
import { SUITE_MARK } from "../tools/suite_mark.ts";

/**
 * The CPU a busy test holds its processes to: the first this process may run
 * on (`Cpus_allowed_list` in `/proc/self/status`), so that a machine or
 * container that offers other CPUs than 0 runs it too.
 */
const BUSY_CPU = Number(
  /^Cpus_allowed_list:\s*(\d+)/m.exec(Deno.readTextFileSync("/proc/self/status"))![1],
);

/** Where a busy test's cgroup of the `cpu` controller (cgroup v1) is made. */
const CPU_CGROUPS = "/sys/fs/cgroup/cpu";

/**
 * Half of one CPU for a test's processes, ended at the end of its `await
 * using`: `argv(command)` is `command` held to one CPU (`taskset -c`), as is
 * every process it starts, with at most half of that CPU's time.
 */
export interface HalfCpu extends AsyncDisposable {
  argv(command: readonly string[]): string[];
}

/**
 * Half of one CPU, as a learner's busy machine may give: where this machine
 * lets a test make a cgroup of the `cpu` controller (cgroup v1, as root, as
 * CI's machines do), a CFS quota of 50 ms in each 100 ms, which costs the
 * machine nothing; elsewhere, beside one process spinning on the same CPU,
 * which takes the other half (and marked, with COURSE_BUSY_LOOP and the test
 * run's MCP_COURSE_SUITE, so that the leftovers check sees it if it outlives
 * the test). The spinning loop took as much CPU as the test it kept busy:
 * about half of the learner walk's CPU time.
 */
export async function halfCpu(): Promise<HalfCpu> {
  const held = (command: readonly string[]) => ["taskset", "-c", String(BUSY_CPU), ...command];
  const cgroup = `${CPU_CGROUPS}/course-busy-${Deno.pid}-${crypto.randomUUID()}`;
  try {
    await Deno.mkdir(cgroup);
  } catch {
    return spinningBeside(held);
  }
  await Deno.writeTextFile(`${cgroup}/cpu.cfs_period_us`, "100000");
  await Deno.writeTextFile(`${cgroup}/cpu.cfs_quota_us`, "50000");
  return {
    // The shell joins the cgroup, then becomes the command: its pid, and all it starts, are in it.
    argv: (
      command,
    ) => ["sh", "-c", 'echo $$ > "$0/cgroup.procs" && exec "$@"', cgroup, ...held(command)],
    async [Symbol.asyncDispose]() {
      // A process the test left in it (ended, and counted, by the test's own check) leaves first.
      for (const pid of (await Deno.readTextFile(`${cgroup}/cgroup.procs`)).split("\n")) {
        if (pid !== "") {
          await Deno.writeTextFile(`${CPU_CGROUPS}/cgroup.procs`, pid).catch(() => {});
        }
      }
      await Deno.remove(cgroup);
    },
  };
}

/** Half of one CPU, beside a process spinning on it. */
function spinningBeside(held: (command: readonly string[]) => string[]): HalfCpu {
  const [command, ...args] = held([Deno.execPath(), "eval", "for (;;) {}"]);
  const loop = new Deno.Command(command, {
    args,
    env: { COURSE_BUSY_LOOP: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  return {
    argv: held,
    async [Symbol.asyncDispose]() {
      loop.kill("SIGKILL");
      await loop.status;
    },
  };
}

/**
 * The processes that carry the test-run mark `mark` and are still running,
 * once what ends by itself has had up to `ms` to end (a bound against a
 * hang: a watcher that polls for its kernel's end each second ends a moment
 * after it); each is then ended with SIGKILL, so that a test that finds one
 * fails without leaving it.
 */
export async function endLeftovers(mark: string, ms = 30_000): Promise<string[]> {
  const deadline = Date.now() + ms;
  let left = markedProcesses(SUITE_MARK, mark);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = markedProcesses(SUITE_MARK, mark);
  }
  for (const { pid } of left) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // It ended by itself meanwhile.
    }
  }
  return left.map(({ pid, cmdline }) => `${pid} ${cmdline}`);
}
