/**
 * Whether a sandbox shows the machine's own files where a program's start
 * depends on them. A command line's words may name the grader's program
 * while its mounts put something else at that program's path: the learner's
 * own module over the intruder's, another file over a library the runtime
 * loads, a list of libraries to preload at `/etc/ld.so.preload`. Chapter
 * 15's effect case runs a line only where it shows, at each path the program
 * needs, the machine's own files or nothing.
 *
 * @module
 */

import { readCommandLine } from "./_command_line.ts";
import { EVERY_PATH_EXISTS_AS_HERE, type Machine } from "./_machine.ts";
import { covering, machinePath, type Shown, within } from "./_sandbox_view.ts";

/** A path where a sandbox shows something else than the machine's own, and what it shows. */
export interface OtherFile {
  path: string;
  shown: string;
}

/**
 * The first place at or under one of `paths` where the sandbox of `argv`
 * shows something else than the machine's own file at that path: a bind of
 * another path of the machine, or a link (there, or on the way to it);
 * `undefined` where it shows only the machine's own files, things of its own
 * that hold nothing (an empty folder, a `tmpfs`), or nothing. The line is
 * read as it runs on `machine`; throws `CannotJudgeError` for what
 * `commandGrants` cannot judge there.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const own = ["bwrap", "--ro-bind", "/usr", "/usr", "--tmpfs", "/etc", "/usr/bin/true"];
 * assert.equal(otherFileAt(own, ["/usr", "/etc"]), undefined);
 * const swapped = ["bwrap", "--ro-bind", "/home/me/true", "/usr/bin/true", "--ro-bind", "/usr/lib", "/usr/lib", "/usr/bin/true"];
 * assert.deepEqual(otherFileAt(swapped, ["/usr"]), { path: "/usr/bin/true", shown: "read-only from /home/me/true" });
 * const linked = ["bwrap", "--symlink", "/home/me/usr", "/usr", "/usr/bin/true"];
 * assert.equal(otherFileAt(linked, ["/usr/bin"])?.path, "/usr");
 * ```
 */
export function otherFileAt(
  argv: unknown,
  paths: readonly string[],
  machine: Machine = EVERY_PATH_EXISTS_AS_HERE,
): OtherFile | undefined {
  const { sandbox } = readCommandLine(argv, machine);
  if (sandbox === null) return undefined;
  const { view } = sandbox;
  // A bind of another name for the same file (the machine's /bin at /usr/bin, which /bin leads
  // to) shows the machine's own.
  const same = (source: string, dest: string) => {
    const real = machine.realPath(source);
    return source === dest || (real !== undefined && real === machine.realPath(dest));
  };
  const other = (dest: string, shown: Shown) =>
    shown.target !== undefined || (shown.source !== undefined && !same(shown.source, dest));
  for (const path of paths) {
    for (const [dest, shown] of view) {
      if (within(dest, path) && other(dest, shown)) return { path: dest, shown: shown.what };
    }
    // What shows it from above: a link on the way, or a bind of another folder that holds it.
    const cover = covering(view, path);
    const shown = cover === undefined ? undefined : view.get(cover)!;
    if (
      shown !== undefined &&
      (shown.target !== undefined ||
        (shown.source !== undefined && machinePath(view, path) !== path))
    ) {
      return { path: cover!, shown: shown.what };
    }
  }
  return undefined;
}
