/**
 * The official conformance suite's verdict on the course's library, for
 * Lab 04: `deno task conformance` run when the suite is installed here
 * (`sh tools/setup.sh test` installs it), and its two summary lines read.
 *
 * @module
 */

import { fileURLToPath } from "node:url";

/** What the suite said, or that it did not run. */
export interface ConformanceVerdict {
  ran: boolean;
  /** e.g. `26 of 26 passed`, or `not run`. */
  server: string;
  client: string;
}

const ROOT = new URL("../../", import.meta.url);
const SUITE = new URL(
  "tools/conformance/node_modules/@modelcontextprotocol/conformance/package.json",
  ROOT,
);

/**
 * Run the suite, if it is installed, and give its verdict on each side.
 *
 * @example
 * ```ts ignore
 * const { server } = await conformanceVerdict(); // "26 of 26 passed"
 * ```
 */
export async function conformanceVerdict(): Promise<ConformanceVerdict> {
  const present = (url: URL) => Deno.stat(url).then(() => true, () => false);
  if (!await present(SUITE) || !await present(new URL("tools/conformance.ts", ROOT))) {
    return { ran: false, server: "not run", client: "not run" };
  }
  const { stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "conformance"],
    cwd: fileURLToPath(ROOT),
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "null",
  }).output();
  const said = new TextDecoder().decode(stdout);
  const side = (name: string) =>
    new RegExp(`^${name} scenarios \\([^)]*\\): (.*)$`, "m").exec(said)?.[1] ?? "no verdict";
  return { ran: true, server: side("server"), client: side("client") };
}
