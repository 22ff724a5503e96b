// A busy machine, made on purpose: processes that spin on the CPU for as long
// as a test runs beside them, started and ended by the test, and marked (they
// inherit the test run's MCP_COURSE_SUITE, and carry COURSE_BUSY_LOOP) so that
// the suite's leftovers check sees any that outlives it. And what a part of
// a test run left running, found by the mark nested in the run's that it was
// given (tools/suite_mark.ts).

import { markedProcesses } from "./browser/lab_server.ts";
import { SUITE_MARK } from "../tools/suite_mark.ts";

/** The processes spinning beside a test, ended (and waited for) at the end of its `await using`. */
export interface BusyLoops extends AsyncDisposable {
  pids: number[];
}

/** Options for {@linkcode busyLoops}. */
export interface BusyOptions {
  /**
   * The one CPU the loops spin on (`taskset -c`), to be shared with a test's
   * processes held to it too ({@linkcode onBusyCpu}). @default {any CPU}
   */
  cpu?: number;
}

/** Start `count` processes that spin on the CPU until they are disposed of. */
export function busyLoops(count = 2, { cpu }: BusyOptions = {}): BusyLoops {
  const loop = [Deno.execPath(), "eval", "for (;;) {}"];
  const argv = cpu === undefined ? loop : onBusyCpu(cpu, loop);
  const loops = Array.from({ length: count }, () =>
    new Deno.Command(argv[0], {
      args: argv.slice(1),
      env: { COURSE_BUSY_LOOP: "1" },
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn());
  return {
    pids: loops.map((loop) => loop.pid),
    async [Symbol.asyncDispose]() {
      for (const loop of loops) loop.kill("SIGKILL");
      await Promise.all(loops.map((loop) => loop.status));
    },
  };
}

/**
 * The CPU a busy test holds its loop and its processes to: the first this
 * process may run on (`Cpus_allowed_list` in `/proc/self/status`), so that
 * a machine or container that offers other CPUs than 0 runs it too.
 */
export const BUSY_CPU = Number(
  /^Cpus_allowed_list:\s*(\d+)/m.exec(Deno.readTextFileSync("/proc/self/status"))![1],
);

/**
 * `argv` held to CPU `cpu` (`taskset -c`), as is every process it starts:
 * beside one loop held there ({@linkcode busyLoops}), it has at most half a
 * CPU, less than beside two loops free on two CPUs (two thirds), for half
 * their CPU time.
 */
export function onBusyCpu(cpu: number, argv: readonly string[]): string[] {
  return ["taskset", "-c", String(cpu), ...argv];
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
