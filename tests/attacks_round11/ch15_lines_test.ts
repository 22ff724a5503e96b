// Round 11 of issue 38's red team on Chapter 15: what the stop before left,
// each a wrong mark or a wrong lesson. The made-up machine of the grants
// cases judged lines bwrap stops at as the honest one, and refused lines
// bwrap runs; each decision here is proved against the real bwrap where it
// runs. And the lesson's policy showed every sandboxed program the machine's
// whole Deno cache. Run:
//   deno test -A tests/attacks_round11/ch15_lines_test.ts

import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Attempt, observe } from "../../lib/containment/attempts.ts";
import { bubblewrapStatus } from "../../lib/containment/bubblewrap.ts";
import { Playground } from "../../lib/containment/playground.ts";
import { INTRUDER, intruderPolicy, type Policy } from "../../lib/containment/policy.ts";
import { within } from "../../lib/containment/_sandbox_view.ts";

const ROOT = new URL("../../", import.meta.url);
const bwrapHere = (await bubblewrapStatus()).available;

/** The worked edition's `limitCommand` and `bwrapCommand`, from their cells, as one module. */
async function workedBwrapCommand(): Promise<
  (policy: Policy, command: readonly string[]) => string[]
> {
  const notebook = JSON.parse(await Deno.readTextFile(new URL("solutions/ch15.ipynb", ROOT)));
  const cell = (id: string) =>
    (notebook.cells as { id: string; source: string[] }[]).find((c) => c.id === id)!.source
      .join("");
  const policyModule = new URL("lib/containment/policy.ts", ROOT).href;
  const module = await Deno.makeTempFile({ suffix: ".ts" });
  await Deno.writeTextFile(
    module,
    `import type { Limits, Policy } from ${JSON.stringify(policyModule)};\n` +
      `${cell("limit-command")}\n${cell("bwrap-command")}\nexport { bwrapCommand };\n`,
  );
  try {
    return (await import(pathToFileURL(module).href)).bwrapCommand;
  } finally {
    await Deno.remove(module);
  }
}

/** The machine's Deno cache, as `deno info` reports it. */
function machineDenoDir(): string {
  const { stdout } = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  return JSON.parse(new TextDecoder().decode(stdout)).denoDir;
}

Deno.test({
  name:
    "Chapter 15: the intruder, sandboxed by the worked edition's line, cannot read a file planted in the machine's Deno cache",
  ignore: !bwrapHere,
  fn: async () => {
    const denoDir = machineDenoDir();
    const token = crypto.randomUUID();
    const planted = join(denoDir, `ch15-round11-${token}.txt`);
    await Deno.writeTextFile(planted, `${token}\n`);
    try {
      await using playground = await Playground.create();
      const policy = await intruderPolicy(playground);
      const bwrapCommand = await workedBwrapCommand();
      const attempt: Attempt = {
        name: "read a file in the machine's Deno cache",
        mode: "read-file",
        target: planted,
        witness: "canary",
        token,
      };
      const run = [Deno.execPath(), "run", "--no-config", "--quiet", "--allow-all", INTRUDER];
      const seen = await observe(
        attempt,
        "bubblewrap",
        (args) => bwrapCommand(policy, [...run, ...args]),
        playground,
      );
      assert.equal(seen.answer, "4", "the intruder started, with a cache of its own, and answered");
      assert.equal(seen.outcome, "refused", seen.saw);
      assert.ok(
        !policy.runtime.paths.some((path) => within(denoDir, path) || within(path, denoDir)),
        `the policy grants nothing of the machine's cache: ${policy.runtime.paths.join(", ")}`,
      );
    } finally {
      await Deno.remove(planted);
    }
  },
});
