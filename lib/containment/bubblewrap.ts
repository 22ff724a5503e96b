/**
 * Whether bubblewrap can run here. It needs the `bwrap` program (Debian's
 * `bubblewrap` package, which `tools/setup.sh` installs) and a kernel that
 * lets it make namespaces; some containers and hubs forbid that. Where it
 * cannot run, Chapter 15 says so and grades its command lines without
 * running them.
 *
 * @module
 */

/** What {@linkcode bubblewrapStatus} found. */
export interface BubblewrapStatus {
  available: boolean;
  /** Why, in a sentence a learner can act on. */
  reason: string;
}

/**
 * Try `bwrap --unshare-all --die-with-parent --ro-bind / / true`, the
 * smallest sandbox that uses every namespace Chapter 15 needs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const status = await bubblewrapStatus();
 * assert.equal(typeof status.available, "boolean");
 * assert.ok(status.reason.length > 0);
 * ```
 */
export async function bubblewrapStatus(): Promise<BubblewrapStatus> {
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command("bwrap", {
      args: ["--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "true"],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    return {
      available: false,
      reason: "bubblewrap is not installed: run `sh tools/setup.sh` " +
        "(it installs Debian's bubblewrap package), or `apt-get install bubblewrap`",
    };
  }
  if (!output.success) {
    const said = new TextDecoder().decode(output.stderr).trim().split("\n").at(-1);
    return {
      available: false,
      reason: `this machine forbids the namespaces bubblewrap needs (bwrap said: ${said}); ` +
        "containers and hubs often do",
    };
  }
  return { available: true, reason: "bubblewrap can make the namespaces it needs here" };
}
