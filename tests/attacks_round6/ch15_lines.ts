// Round 6 of issue 38's red team: Chapter 15 lines the hostile tests do not
// try, each given to the effect case as the grader gives a learner's
// bwrapCommand. A line held when it is refused (CannotJudgeError) or its
// effect is not EFFECT_EXPECTED (no mark). Run (as root, where bubblewrap runs):
//   deno run -A tests/attacks_round6/ch15_lines.ts
// Exits 1 when a line earned the mark.

import { isDeepStrictEqual } from "node:util";
import { EFFECT_EXPECTED, effectOf } from "../../lib/containment/effect.ts";
import { effectLines } from "../_chapter15.ts";

const { policy, command, data, env, binds, mounts, honest, line } = effectLines();
const intruder = command.at(-1)!;
const denoDir = policy.runtime.env.DENO_DIR;

const lines: [string, string[]][] = [
  ["the honest line (must earn the mark)", line(...honest)],
  [
    "the Deno binary swapped by a -try bind",
    line(...honest, "--ro-bind-try", "/usr/bin/true", command[0]),
  ],
  ["the intruder swapped by a -try bind", line(...honest, "--ro-bind-try", data, intruder)],
  [
    "Deno's cache swapped by a -try bind",
    line(...honest, "--bind-try", data, denoDir ?? "/root/.cache/deno"),
  ],
  [
    "the Deno binary's folder a link",
    line(...honest, "--symlink", "/usr/bin", command[0].replace(/\/[^/]*$/, "")),
  ],
  ["every capability kept, isolated otherwise", line(...honest, "--cap-add", "ALL")],
  ["a writable data folder by a later bind", line(...honest, "--bind", data, data)],
  [
    "the data folder writable, remounted ro first",
    line(...honest, "--remount-ro", data, "--bind", data, data),
  ],
  [
    "no PID namespace",
    line(
      "--unshare-user",
      "--unshare-net",
      "--unshare-ipc",
      "--unshare-uts",
      "--die-with-parent",
      "--clearenv",
      ...env,
      ...mounts,
    ),
  ],
  ["the network shared", line(...honest, "--share-net")],
  [
    "no new /proc: the root's own /proc bound",
    line(
      "--unshare-all",
      "--die-with-parent",
      "--clearenv",
      ...env,
      "--tmpfs",
      "/tmp",
      "--bind",
      "/proc",
      "/proc",
      "--dev",
      "/dev",
      ...binds,
    ),
  ],
  ["the environment kept", line("--unshare-all", "--die-with-parent", ...env, ...mounts)],
];

let earned = 0;
for (const [label, argv] of lines) {
  let outcome: string;
  try {
    const effect = await effectOf(argv);
    const mark = isDeepStrictEqual(effect, EFFECT_EXPECTED);
    if (mark && !label.startsWith("the honest")) earned++;
    outcome = `${mark ? "EARNS THE MARK" : "no mark"}: ${
      JSON.stringify(Object.fromEntries(
        Object.entries(effect).filter(([k, v]) => EFFECT_EXPECTED[k] !== v),
      ))
    }`;
  } catch (error) {
    outcome = `refused: ${(error as Error).name}: ${(error as Error).message.slice(0, 160)}`;
  }
  console.log(`${label}: ${outcome}`);
}
Deno.exit(earned > 0 ? 1 : 0);
