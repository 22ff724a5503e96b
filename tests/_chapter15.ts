// Shared by the tests that grade Chapter 15's command lines through the
// grader: a learner's module built around a bwrapCommand body, the honest
// binds, and whether the grader runs the effect case here.

import type { Results } from "./_grading.ts";
import { bubblewrapStatus } from "../lib/containment/bubblewrap.ts";
import { throwAwayRootWorks } from "../lib/containment/throwaway_root.ts";
import { effectInputs } from "../lib/containment/effect.ts";
import { casesOf, loadHoldouts, UNITS } from "../tools/grading/units/mod.ts";

/** Chapter 15's module, with `bwrapCommand` (and `limitCommand`) as `change` makes them. */
export function chapter15(bwrapBody: string, program = "bwrap", prlimit = "prlimit"): string {
  return `
export function limitCommand(limits, command) {
  return [${
    JSON.stringify(prlimit)
  }, "--data=" + limits.memoryBytes, "--cpu=" + limits.cpuSeconds, "--", ...command];
}
export function denoFlags() { return []; }
export function bwrapCommand(policy, command) {
  const options = ["--unshare-all", "--as-pid-1", "--cap-drop", "ALL", "--die-with-parent", "--clearenv"];
  if (policy.net.length > 0) options.push("--share-net");
  for (const [name, value] of Object.entries({ ...policy.runtime.env, ...policy.env })) {
    options.push("--setenv", name, value);
  }
  options.push("--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev");
  ${bwrapBody}
  return [${JSON.stringify(program)}, ...options, "--", ...limitCommand(policy.limits, command)];
}
`;
}

/** Whether the grader runs Chapter 15's effect case here, rather than predicting it. */
export const bwrapRuns = (await bubblewrapStatus()).available && await throwAwayRootWorks();

/** The binds of the worked `bwrapCommand`: the runtime and the data read-only, what it writes writable. */
export const HONEST_BINDS = `
  for (const path of [...policy.runtime.paths, ...policy.read]) options.push("--ro-bind", path, path);
  for (const path of policy.write) options.push("--bind", path, path);`;

/** How many cases Chapter 15's `fn` has, visible and hidden: the marks it can earn. */
async function casesOfChapter15(fn: string): Promise<number> {
  const spec = UNITS.get("ch15")!;
  return casesOf(spec, spec.functions.find((f) => f.name === fn)!, await loadHoldouts()).length;
}

/** How many cases Chapter 15's bwrapCommand has: its marks, which the hidden cases change. */
export const BWRAP_CASES = await casesOfChapter15("bwrapCommand");

/** How many cases Chapter 15's limitCommand has. */
export const LIMIT_CASES = await casesOfChapter15("limitCommand");

/** The marks of `fn` in `results`: what it scored, of how many. */
export function marks(results: Results, fn: string): string {
  const tests = results.tests.filter((t) => t.name.startsWith(fn));
  return `${tests.reduce((sum, t) => sum + t.score, 0)}/${tests.length}`;
}

/**
 * Lines for the effect case, built around the grader's own inputs: the
 * policy's variables and read-only binds, the honest options, and `line`,
 * which puts options before the grader's command.
 */
export function effectLines() {
  const { policy, command, root } = effectInputs();
  const data = policy.read[0];
  const env = Object.entries(policy.runtime.env).flatMap((
    [name, value],
  ) => ["--setenv", name, value]);
  const binds = [...policy.runtime.paths, data].flatMap((path) => ["--ro-bind", path, path]);
  const mounts = ["--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev", ...binds];
  const honest = [
    "--unshare-all",
    "--as-pid-1",
    "--cap-drop",
    "ALL",
    "--die-with-parent",
    "--clearenv",
    ...env,
    ...mounts,
  ];
  const line = (...options: string[]) => ["bwrap", ...options, "--", ...command];
  return { policy, command, root, data, env, binds, mounts, honest, line };
}
