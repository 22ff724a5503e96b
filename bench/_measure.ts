// Helpers the benchmarks share: medians, a clock, and the commands that start
// the benchmark's servers.

import process from "node:process";
import { fileURLToPath } from "node:url";

/** The median of `values` (the mean of the middle two when there are an even number). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("The median of nothing is undefined");
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** How long `body` takes, in milliseconds. */
export async function timed(body: () => Promise<unknown> | unknown): Promise<number> {
  const start = performance.now();
  await body();
  return performance.now() - start;
}

const ROOT = new URL("../", import.meta.url);

/** The path of `file`, relative to the project's root. */
export function projectPath(file: string): string {
  return fileURLToPath(new URL(file, ROOT));
}

/** The command that runs the Deno script `file` (relative to the project's root). */
export function denoScript(file: string, flags: string[] = ["--no-config"]): string[] {
  return [Deno.execPath(), "run", "--quiet", ...flags, projectPath(file)];
}

/**
 * The CPU time this process has used so far (user and system, every
 * thread), in milliseconds, to the microsecond.
 */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
