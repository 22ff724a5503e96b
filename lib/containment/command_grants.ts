/**
 * What a command line built from `prlimit` and bubblewrap (`bwrap`) gives
 * the program it runs, in a form where two command lines that give the same
 * are equal, whatever the order of their options: the resource limits, what
 * the sandbox shows at each path, whether it shares the network and the
 * process table, whether it ends with its parent, its environment, and the
 * program it runs. Chapter 15's grade tables and the autograder read a
 * learner's command lines with it; `command_grants_test.ts` checks it
 * against a real bubblewrap.
 *
 * @module
 */

import { readCommandLine } from "./_command_line.ts";
import { EVERY_PATH_EXISTS, type Machine } from "./_machine.ts";

export { CannotJudgeError } from "./_cannot_judge.ts";
export {
  EVERY_PATH_EXISTS,
  EVERY_PATH_EXISTS_AS_HERE,
  type Machine,
  THIS_MACHINE,
} from "./_machine.ts";

/** What a bubblewrap sandbox gives. */
export interface SandboxGrants {
  /** What the sandbox shows, one entry per path (`"/usr read-only"`), sorted. */
  paths: string[];
  /** `"none"` in a network namespace of its own, `"shared"` otherwise. */
  network: "none" | "shared";
  /** `"own"` in a PID namespace of its own (its processes end with it), `"shared"` otherwise. */
  processes: "own" | "shared";
  /**
   * The other namespaces it shares with the machine (`cgroup`, `ipc`, `user`,
   * `uts`), sorted: none in a sandbox with every namespace of its own.
   */
  sharedNamespaces: string[];
  /** Whether the sandbox is killed when the process that started it dies. */
  endsWithParent: boolean;
  /** `"cleared"` or `"inherited"`, then each variable set (`K=V`) or removed (`without K`). */
  environment: string[];
  /**
   * Whether bubblewrap's own process stays in the sandbox as its PID 1 (a PID
   * namespace of its own without `--as-pid-1`): it keeps the caller's whole
   * environment, whatever `--clearenv` does for the program, and the program,
   * the same user, can read it in `/proc/1/environ`.
   */
  reaper: boolean;
  /**
   * The capabilities the program keeps when root runs the line (as the lesson
   * does), sorted: bubblewrap keeps every one of root's (`ALL`) but those
   * `--cap-drop` drops (`without CAP_X`; `--cap-drop ALL`, every one), and
   * those `--cap-add` adds back. `[]` is none.
   */
  capabilities: string[];
}

/** What a command line gives the program it runs. */
export interface CommandGrants {
  /** Each resource limit set (`"cpu 1"`, `"data 1073741824"`, or soft and hard apart), sorted. */
  limits: string[];
  /** The bubblewrap sandbox around the program, or `null` for none. */
  sandbox: SandboxGrants | null;
  /** The program and its arguments. */
  command: string[];
}

/**
 * What `argv` gives the program it runs on `machine`: this machine's
 * `prlimit` and `bwrap` (found as the grader runs them: by `PATH` for a bare
 * name, or by an absolute path that is the same file) may wrap each other in
 * either order, and the first other word is the program. Mounts are judged
 * as bubblewrap makes them: in order, a later one hiding what the earlier
 * ones put below it, and `--remount-ro` changing only the mount at its path.
 * Throws {@linkcode CannotJudgeError} (a `TypeError`) naming the part it
 * cannot judge: more than 1000 words, paths that ask the machine about more
 * than 4096 paths (with the folders above them), a word with a NUL byte, a program named `prlimit` or `bwrap` that is not this
 * machine's (it enforces only what it does itself), an option it does not
 * know (prlimit's short options included: write `--cpu=1`), an option missing
 * its argument, an option that reads a file descriptor, a path that is not
 * absolute, a `..` in a path where the machine cannot say which links come
 * before it (bwrap follows them first), a limit prlimit cannot read, a bind
 * of a path the machine does not have (or, on a made-up machine, one it does
 * not say it has, where a later mount hides all the line shows from it), a
 * remount of what is not a mount, a
 * `--size` bwrap does not take, a mount, folder or link over what `--dev`
 * made that bwrap cannot put there, a file's bind over a folder or a
 * folder's over a file, anything in a bound file (or one of these where the
 * machine does not say whether a path of its own is a folder), a command
 * line bubblewrap would refuse, or no program.
 *
 * @example Options in another order give the same
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const a = commandGrants(["bwrap", "--unshare-all", "--ro-bind", "/usr", "/usr", "--die-with-parent", "--", "/usr/bin/true"]);
 * const b = commandGrants(["bwrap", "--die-with-parent", "--ro-bind", "/usr/", "/usr", "--unshare-all", "/usr/bin/true"]);
 * assert.deepEqual(a, b);
 * assert.deepEqual(a.sandbox?.paths, ["/usr read-only"]);
 * assert.equal(a.sandbox?.network, "none");
 * assert.deepEqual(a.sandbox?.sharedNamespaces, []);
 * const c = commandGrants(["bwrap", "--unshare-pid", "--unshare-net", "/usr/bin/true"]);
 * assert.deepEqual(c.sandbox?.sharedNamespaces, ["cgroup", "ipc", "user", "uts"]);
 * ```
 *
 * @example Limits, inside or outside the sandbox
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const grants = commandGrants(["prlimit", "--cpu=1", "--data=1048576:2097152", "--", "sleep", "1"]);
 * assert.deepEqual(grants, { limits: ["cpu 1", "data 1048576 soft, 2097152 hard"], sandbox: null, command: ["sleep", "1"] });
 * assert.throws(() => commandGrants(["prlimit", "-t1", "sleep", "1"]), CannotJudgeError);
 * ```
 *
 * @example On the cases' made-up machine, a path is there while the grants show it
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const shown = commandGrants(["bwrap", "--ro-bind", "/srv/a", "/srv/a", "true"]);
 * assert.deepEqual(shown.sandbox?.paths, ["/srv/a read-only"]);
 * const hidden = ["bwrap", "--ro-bind", "/srv/a", "/tmp/a", "--tmpfs", "/tmp", "true"];
 * assert.throws(() => commandGrants(hidden), CannotJudgeError);
 * ```
 *
 * @example `--remount-ro /` leaves the binds below it as they were
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const grants = commandGrants(["bwrap", "--bind", "/srv", "/srv", "--remount-ro", "/", "true"]);
 * assert.deepEqual(grants.sandbox?.paths, ["/ the sandbox's own root, read-only", "/srv read-write"]);
 * assert.throws(() => commandGrants(["./bwrap", "--ro-bind", "/", "/", "true"]), CannotJudgeError);
 * ```
 */
export function commandGrants(argv: unknown, machine: Machine = EVERY_PATH_EXISTS): CommandGrants {
  const { limits, sandbox, command } = readCommandLine(argv, machine);
  const shown = [...limits].map(([name, value]) => `${name} ${value}`).sort();
  return { limits: shown, sandbox: sandbox?.grants ?? null, command };
}
