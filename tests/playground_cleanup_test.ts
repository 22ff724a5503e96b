// Chapter 15's playground (a fake home with a private key in it) leaves
// nothing behind when the kernel that made it ends, however it ends: a
// restart, or a crash. It used to stay in the temporary folder, one per
// restart.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { VENV } from "../tools/jupyter/jupyter.ts";
import { denoKernelEnv } from "../tools/jupyter/kernelspec.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const installed = await Deno.stat(`${VENV}bin/python`).then(() => true, () => false);

/** Make a playground in a kernel, end the kernel as `end` says, and return the playground's folder. */
async function playgroundOfEndedKernel(end: "restart" | "crash"): Promise<string> {
  const child = new Deno.Command(`${VENV}bin/python`, {
    args: [`${root}tests/kernel_restart.py`],
    env: { ...await denoKernelEnv(), NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify({
    cwd: root,
    end,
    expect: "ROOT=",
    code: `const { Playground } = await import(${
      JSON.stringify(`${root}lib/containment/playground.ts`)
    });\nconst playground = await Playground.create();\n"ROOT=" + playground.root`,
  })));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  const { output } = JSON.parse(new TextDecoder().decode(stdout));
  const made = /ROOT=([^"\n]+)/.exec(output)?.[1];
  assert.ok(made, `the cell did not say where its playground is: ${output}`);
  return made;
}

/**
 * Whether `path` is gone within `ms` (the watcher looks once a second): a
 * bound against a hang, long enough for a busy machine, not a timing.
 */
async function goneWithin(path: string, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    if (!await Deno.stat(path).then(() => true, () => false)) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

for (const end of ["restart", "crash"] as const) {
  Deno.test({
    name: `a playground is removed when its kernel ends by a ${end}`,
    ignore: !installed,
    fn: async () => {
      const made = await playgroundOfEndedKernel(end);
      const gone = await goneWithin(made, 60_000);
      if (!gone) await Deno.remove(made, { recursive: true });
      assert.ok(gone, `${made} outlived its kernel`);
    },
  });
}
