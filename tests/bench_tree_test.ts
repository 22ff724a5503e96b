// Row 6's peak memory walks the grading's process tree through each process's main thread's
// `children` list (a walk of every thread's cost 1.3 s of the class's CPU time): a process that a
// Deno program starts, and one started from that one, are found, with their memory.

import assert from "node:assert/strict";
import { treeResident } from "../bench/grading.ts";
import { firstLine } from "./_helpers.ts";

Deno.test("the bench's memory walk finds a grandchild that Deno started from a child", async () => {
  // The child starts a grandchild that holds 64 MB, says so, and waits; neither has other work.
  const grandchild = "const held = new Uint8Array(64 << 20).fill(1); console.log('held'); " +
    "await new Promise((resolve) => setTimeout(resolve, 60_000)); held[0];";
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `const c = new Deno.Command(Deno.execPath(), { args: ["eval", ${
        JSON.stringify(grandchild)
      }] }).spawn(); await c.status;`,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  try {
    assert.equal(await firstLine(child), "held", "the grandchild did not start");
    assert.ok(treeResident(child.pid) > 64 << 20, "the grandchild's 64 MB were not counted");
  } finally {
    // The child's group is its own: end the grandchild, then the child.
    for (
      const line of Deno.readTextFileSync(`/proc/${child.pid}/task/${child.pid}/children`).split(
        " ",
      )
    ) {
      if (line !== "") Deno.kill(Number(line), "SIGKILL");
    }
    child.kill("SIGKILL");
    await child.status;
  }
});
