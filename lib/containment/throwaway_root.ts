/**
 * Where the autograder runs a learner's bubblewrap command line: inside a
 * sandbox of its own that shows the whole machine read-only but for one
 * throw-away folder. bubblewrap, run as root, makes the folders and files it
 * mounts on wherever a bind lets it write; a learner's line that binds the
 * machine's own folders could so leave a folder where a class's results go,
 * or an empty `prlimit` early on root's `PATH`. Here any such mount point
 * either lands in the throw-away folder or is refused ("Read-only file
 * system"), and the learner's sandbox then does not start.
 *
 * @module
 */

/**
 * The command line that runs what follows it with the machine read-only but
 * for `writable`, its own `/dev`, and the machine's `/proc` (a learner's
 * bubblewrap, in a user namespace of its own, may mount a `/proc` only where
 * the machine's is in full sight).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const outer = throwAwayRoot("/tmp/ch15-playground-x");
 * assert.deepEqual(outer.slice(0, 3), ["bwrap", "--ro-bind", "/"]);
 * assert.equal(outer.at(-1), "--");
 * ```
 */
export function throwAwayRoot(writable: string): string[] {
  return [
    "bwrap",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--bind",
    "/proc",
    "/proc",
    "--bind",
    writable,
    writable,
    // The learner's bubblewrap needs the capabilities to make its own namespaces and mounts.
    "--cap-add",
    "ALL",
    "--die-with-parent",
    "--",
  ];
}

let works: Promise<boolean> | undefined;

/**
 * Whether a bubblewrap sandbox with every namespace of its own and its own
 * `/proc` starts inside {@linkcode throwAwayRoot} on this machine (asked once).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(typeof await throwAwayRootWorks(), "boolean");
 * ```
 */
export function throwAwayRootWorks(): Promise<boolean> {
  works ??= (async () => {
    const folder = await Deno.makeTempDir({ prefix: "ch15-throwaway-" });
    try {
      const [program, ...outer] = throwAwayRoot(folder);
      const inner = [
        "--unshare-all",
        "--die-with-parent",
        "--ro-bind",
        "/",
        "/",
        "--proc",
        "/proc",
      ];
      const { success } = await new Deno.Command(program, {
        args: [...outer, "bwrap", ...inner, "true"],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).output();
      return success;
    } catch {
      return false;
    } finally {
      await Deno.remove(folder, { recursive: true });
    }
  })();
  return works;
}
