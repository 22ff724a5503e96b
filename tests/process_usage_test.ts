import assert from "node:assert/strict";
import { processUsage, saysGone } from "../tools/grading/process_usage.ts";

/**
 * The error reading `/proc/PID/stat` gives when the process is reaped
 * between the file's opening and its reading, as it can be between the two
 * halves of one `Deno.readTextFileSync`.
 */
async function reapedBetweenOpenAndRead(): Promise<unknown> {
  const child = new Deno.Command("sleep", { args: ["30"] }).spawn();
  using file = Deno.openSync(`/proc/${child.pid}/stat`);
  child.kill("SIGKILL");
  await child.status;
  try {
    file.readSync(new Uint8Array(1024));
  } catch (error) {
    return error;
  }
  throw new Error("the stat file of a reaped process read without an error");
}

Deno.test("a process reaped between the opening and the reading of its stat file has gone", async () => {
  const error = await reapedBetweenOpenAndRead();
  // Not NotFound: the grader took it for /proc out of reach and told its user to run with --allow-all.
  assert.ok(!(error instanceof Deno.errors.NotFound));
  assert.equal(saysGone(error), true, String(error));
});

Deno.test("reading /proc without leave is not taken for a process gone", async () => {
  const program = `import { processUsage } from ${
    JSON.stringify(new URL("../tools/grading/process_usage.ts", import.meta.url).href)
  }; processUsage(Deno.pid);`;
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--allow-read",
      `data:text/javascript,${encodeURIComponent(program)}`,
    ],
    env: { NO_COLOR: "1" },
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.notEqual(code, 0);
  assert.match(
    new TextDecoder().decode(stderr),
    /NotCapable: The grader cannot watch its processes/,
  );
  assert.deepEqual(processUsage(2 ** 22 + 1), { resident: 0, cpuMs: 0, threads: 0 });
});
