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

import { posix } from "node:path";

/** What a bubblewrap sandbox gives. */
export interface SandboxGrants {
  /** What the sandbox shows, one entry per path (`"/usr read-only"`), sorted. */
  paths: string[];
  /** `"none"` in a network namespace of its own, `"shared"` otherwise. */
  network: "none" | "shared";
  /** `"own"` in a PID namespace of its own (its processes end with it), `"shared"` otherwise. */
  processes: "own" | "shared";
  /** Whether the sandbox is killed when the process that started it dies. */
  endsWithParent: boolean;
  /** `"cleared"` or `"inherited"`, then each variable set (`K=V`) or removed (`without K`). */
  environment: string[];
  /** Capabilities added back, sorted. */
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

const RESOURCES = new Set([
  "as",
  "core",
  "cpu",
  "data",
  "fsize",
  "locks",
  "memlock",
  "msgqueue",
  "nice",
  "nofile",
  "nproc",
  "rss",
  "rtprio",
  "rttime",
  "sigpending",
  "stack",
]);
const PRLIMIT_OUTPUT = new Set(["--noheadings", "--raw", "--verbose"]);

const BWRAP_SWITCHES = new Set([
  "--unshare-all",
  "--unshare-user",
  "--unshare-user-try",
  "--unshare-ipc",
  "--unshare-pid",
  "--unshare-net",
  "--unshare-uts",
  "--unshare-cgroup",
  "--unshare-cgroup-try",
  "--share-net",
  "--die-with-parent",
  "--new-session",
  "--as-pid-1",
  "--clearenv",
]);
/** Options with one argument that change nothing judged here. */
const BWRAP_IGNORED_1 = new Set(["--size"]);
/** Options that change who the program is, or the machine's own files: not judged here. */
const BWRAP_REFUSED = new Set([
  "--uid",
  "--gid",
  "--perms",
  "--chmod",
  "--disable-userns",
  "--assert-userns-disabled",
]);
const BWRAP_MOUNTS_1: Record<string, string> = {
  "--tmpfs": "private, empty",
  "--proc": "the sandbox's own processes",
  "--dev": "a few devices of its own",
  "--mqueue": "message queues of its own",
};
const BWRAP_BINDS: Record<string, string> = {
  "--ro-bind": "read-only",
  "--ro-bind-try": "read-only",
  "--bind": "read-write",
  "--bind-try": "read-write",
  "--dev-bind": "read-write, devices too",
  "--dev-bind-try": "read-write, devices too",
};
/** Options that read a file descriptor: what they do is not on the command line. */
const BWRAP_FROM_FD = new Set([
  "--args",
  "--file",
  "--bind-data",
  "--ro-bind-data",
  "--seccomp",
  "--add-seccomp-fd",
  "--info-fd",
  "--json-status-fd",
  "--sync-fd",
  "--block-fd",
  "--userns-block-fd",
  "--userns",
  "--userns2",
  "--pidns",
]);
/** What the sandbox's own root (a tmpfs) shows once it is remounted read-only. */
const ROOT_READ_ONLY = "the sandbox's own root, read-only";

/** A command line this module cannot judge: its message starts `cannot judge`. */
export class CannotJudgeError extends TypeError {
  override name = "CannotJudgeError";
  constructor(message: string) {
    super(`cannot judge ${message}`);
  }
}

/** The machine a command line would run on, as far as judging it needs. */
export interface Machine {
  /** Whether `path` (a path of the machine, outside any sandbox) exists. */
  exists(path: string): boolean;
}

/**
 * The machine of Chapter 15's cases, made up: every path a command line
 * names is there.
 */
export const EVERY_PATH_EXISTS: Machine = { exists: () => true };

/**
 * This machine, as it is now.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(THIS_MACHINE.exists("/"), true);
 * assert.equal(THIS_MACHINE.exists("/no/such/path/here"), false);
 * ```
 */
export const THIS_MACHINE: Machine = {
  exists(path) {
    try {
      Deno.statSync(path);
      return true;
    } catch {
      return false;
    }
  },
};

/**
 * What `argv` gives the program it runs on `machine`: this machine's
 * `prlimit` and `bwrap` (found as the grader runs them: by `PATH` for a bare
 * name, or by an absolute path that is the same file) may wrap each other in
 * either order, and the first other word is the program. Mounts are judged
 * as bubblewrap makes them: in order, a later one hiding what the earlier
 * ones put below it, and `--remount-ro` changing only the mount at its path.
 * Throws {@linkcode CannotJudgeError} (a `TypeError`) naming the part it
 * cannot judge: a program named `prlimit` or `bwrap` that is not this
 * machine's (it enforces only what it does itself), an option it does not
 * know (prlimit's short options included: write `--cpu=1`), an option missing
 * its argument, an option that reads a file descriptor, a path that is not
 * absolute, a limit that is not a number, a bind of a path the machine does
 * not have, a remount of what is not a mount, a command line bubblewrap
 * would refuse, or no program.
 *
 * @example Options in another order give the same
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const a = commandGrants(["bwrap", "--unshare-all", "--ro-bind", "/usr", "/usr", "--die-with-parent", "--", "/usr/bin/true"]);
 * const b = commandGrants(["bwrap", "--die-with-parent", "--ro-bind", "/usr/", "/usr", "--unshare-pid", "--unshare-net", "/usr/bin/true"]);
 * assert.deepEqual(a, b);
 * assert.deepEqual(a.sandbox?.paths, ["/usr read-only"]);
 * assert.equal(a.sandbox?.network, "none");
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
  if (!Array.isArray(argv) || argv.length === 0) {
    throw new CannotJudgeError(
      `${show(argv)}: a command line is a non-empty array of strings`,
    );
  }
  for (const part of argv) {
    if (typeof part !== "string") {
      throw new CannotJudgeError(`${show(part)}: a command line holds strings`);
    }
  }
  const limits = new Map<string, string>();
  let sandbox: Sandbox | null = null;
  let rest = argv as string[];
  for (;;) {
    if (sandbox !== null && posix.basename(rest[0] ?? "") === "bwrap") {
      throw new CannotJudgeError("a sandbox inside a sandbox");
    }
    const program = rest.length === 0 ? undefined : programOf(rest[0], sandbox);
    if (program === "prlimit") rest = readPrlimit(rest.slice(1), limits);
    else if (program === "bwrap") [sandbox, rest] = readBwrap(rest.slice(1), machine);
    else break;
  }
  if (rest.length === 0) throw new CannotJudgeError("a command line that runs no program");
  const shown = [...limits].map(([name, value]) => `${name} ${value}`).sort();
  return { limits: shown, sandbox: sandbox?.grants ?? null, command: [...rest] };
}

/** A sandbox read so far: what it grants, and what it shows at each mount, to find programs in it. */
interface Sandbox {
  grants: SandboxGrants;
  view: ReadonlyMap<string, Shown>;
  /** The directories its `PATH` names, for a program named without its folder. */
  path: string[];
}

/** What a sandbox shows at one path: a folder of the machine's, or something of its own. */
interface Shown {
  what: string;
  /** The machine's path it shows, for a bind. */
  source?: string;
  /** Where a symbolic link leads. */
  target?: string;
}

/** The words this module reads as programs, by their base name. */
const PROGRAMS = ["prlimit", "bwrap"] as const;
type Program = typeof PROGRAMS[number];

let installed: Map<string, Program> | undefined;
/** This machine's prlimit and bwrap, by real path: where `PATH` finds them, or where Debian puts them. */
function installedPrograms(): Map<string, Program> {
  installed ??= new Map(
    PROGRAMS.map((name) => [onPath(name, hostPath()) ?? `/usr/bin/${name}`, name]),
  );
  return installed;
}

/** The machine's `PATH`, as directories. */
function hostPath(): string[] {
  try {
    return (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":").filter((dir) => dir !== "");
  } catch {
    return ["/usr/bin", "/bin"];
  }
}

/** The real path of the file `name` names in the first of `dirs` that has it. */
function onPath(name: string, dirs: string[], map = (path: string) => path): string | undefined {
  for (const dir of dirs) {
    const found = realFile(map(posix.join(dir, name)));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The real path of the file at `path` of the machine, if there is one. */
function realFile(path: string): string | undefined {
  try {
    const real = Deno.realPathSync(path);
    return Deno.statSync(real).isFile ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Which of this machine's programs `word` runs (outside any sandbox, or
 * inside `sandbox`, through what it shows), if one; throws when a word
 * named like one runs something else.
 */
function programOf(word: string, sandbox: Sandbox | null): Program | undefined {
  const named = PROGRAMS.find((name) => posix.basename(word) === name);
  if (named === undefined) return undefined;
  const toMachine = (path: string) => sandbox === null ? path : machinePath(sandbox.view, path);
  const mine = [...installedPrograms()].find(([, name]) => name === named)![0];
  // Where it is not installed, a command line is judged as on a machine with Debian's package.
  const missing = realFile(mine) === undefined;
  let real: string | undefined;
  if (!word.includes("/")) {
    real = onPath(word, sandbox?.path ?? hostPath(), (path) => toMachine(path) ?? "");
    if (real === undefined && (sandbox === null || missing)) real = mine;
  } else if (word.startsWith("/")) {
    const onMachine = toMachine(posix.normalize(word));
    real = realFile(onMachine ?? "") ?? (missing ? onMachine : undefined);
  }
  if (real !== undefined && installedPrograms().get(real) === named) return named;
  throw new CannotJudgeError(
    `${word}: it is not this machine's ${named} (${mine}), so it gives only what it does itself`,
  );
}

/** The machine's path that `path` inside a sandbox showing `view` is, if it is one of the machine's. */
function machinePath(
  view: ReadonlyMap<string, Shown>,
  path: string,
  depth = 0,
): string | undefined {
  const cover = covering(view, path);
  if (cover === undefined || depth > 8) return undefined;
  const shown = view.get(cover)!;
  const rest = path === cover ? "" : path.slice(cover === "/" ? 1 : cover.length + 1);
  if (shown.source !== undefined) return posix.join(shown.source, rest);
  if (shown.target !== undefined) {
    const target = posix.resolve(posix.dirname(cover), shown.target, rest);
    return machinePath(view, target, depth + 1);
  }
  return undefined;
}

/** The deepest path of `view` that is `path` or holds it. */
function covering(view: ReadonlyMap<string, unknown>, path: string): string | undefined {
  let best: string | undefined;
  for (const dest of view.keys()) {
    if (within(path, dest) && (best === undefined || dest.length > best.length)) best = dest;
  }
  return best;
}

/** Read prlimit's options into `limits`; return the command after them. */
function readPrlimit(args: string[], limits: Map<string, string>): string[] {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") return args.slice(i + 1);
    if (!arg.startsWith("-")) return args.slice(i);
    if (PRLIMIT_OUTPUT.has(arg)) continue;
    const equals = arg.indexOf("=");
    const name = arg.startsWith("--") ? arg.slice(2, equals === -1 ? undefined : equals) : "";
    if (!RESOURCES.has(name)) {
      throw new CannotJudgeError(`prlimit ${arg}: not a limit (write it as --NAME=LIMIT)`);
    }
    if (equals === -1) throw new CannotJudgeError(`prlimit ${arg}: it sets nothing without =LIMIT`);
    if (limits.has(name)) {
      // The second prlimit's change depends on the first's, and on what it may raise.
      throw new CannotJudgeError(`prlimit ${arg}: the ${name} limit is set twice`);
    }
    limits.set(name, limitValue(arg, arg.slice(equals + 1)));
  }
  return [];
}

/** A limit as `SOFT:HARD`, `SOFT:`, `:HARD` or one value for both, in words. */
function limitValue(arg: string, value: string): string {
  const sides = value.split(":");
  if (sides.length > 2) throw new CannotJudgeError(`prlimit ${arg}: at most SOFT:HARD`);
  const [soft, hard] = sides.length === 1 ? [sides[0], sides[0]] : sides;
  const read = (side: string) => {
    if (side === "") return "unchanged";
    if (side === "unlimited" || side === "infinity") return "unlimited";
    if (!/^\d+$/.test(side)) {
      throw new CannotJudgeError(`prlimit ${arg}: ${JSON.stringify(side)} is not a number`);
    }
    return String(BigInt(side));
  };
  const [s, h] = [read(soft), read(hard)];
  if (s === "unchanged" && h === "unchanged") {
    throw new CannotJudgeError(`prlimit ${arg}: it sets nothing`);
  }
  if (s === "unchanged") {
    throw new CannotJudgeError(`prlimit ${arg}: the soft limit stays as it is, maybe above ${h}`);
  }
  if (h !== "unchanged" && (h !== "unlimited" && (s === "unlimited" || BigInt(s) > BigInt(h)))) {
    throw new CannotJudgeError(`prlimit ${arg}: the soft limit is above the hard one`);
  }
  return s === h ? s : `${s} soft, ${h} hard`;
}

/** Read bubblewrap's options; return what they give, and the command after them. */
function readBwrap(args: string[], machine: Machine): [Sandbox, string[]] {
  const view = new Map<string, Shown>();
  const env = { cleared: false, set: new Map<string, string>(), unset: new Set<string>() };
  const capabilities = new Set<string>();
  const unshared = new Set<string>();
  const needs: [string, string][] = [];
  let rootReadOnly = false;
  let endsWithParent = false;
  let chdir = "/";
  let mqueue = false;
  let i = 0;
  const take = (option: string, count: number) => {
    const values = args.slice(i + 1, i + 1 + count);
    if (values.length < count) {
      throw new CannotJudgeError(`bwrap ${option}: it needs ${count} argument(s)`);
    }
    i += count;
    return values;
  };
  /** Whether the sandbox's own folders (not the machine's) have `dest` already. */
  const made = (dest: string) => [...view.keys()].some((path) => within(path, dest));
  /**
   * Where `dest` is on the machine, when a bind shows it; throws where
   * bubblewrap could not make `dest`: through a link, in a read-only folder
   * of the sandbox's own, or in a file system that holds no folders.
   */
  const inside = (option: string, dest: string) => {
    const cover = covering(view, dest);
    const shown = cover === undefined ? undefined : view.get(cover)!;
    if (shown?.target !== undefined) {
      throw new CannotJudgeError(
        `bwrap ${option} ${dest}: it is reached through the link ${cover}`,
      );
    }
    if (shown?.source !== undefined) return machinePath(view, dest);
    const readOnly = shown === undefined ? rootReadOnly : shown.what.endsWith(", read-only");
    const noFolders = shown !== undefined && /processes|message queues/.test(shown.what);
    if ((readOnly || (noFolders && dest !== cover)) && !made(dest)) {
      throw new CannotJudgeError(
        `bwrap ${option} ${dest}: bwrap cannot make it in ${cover ?? "the sandbox's root"}`,
      );
    }
    return undefined;
  };
  const mount = (option: string, dest: string, shown: Shown) => {
    const onMachine = inside(option, dest);
    if (onMachine !== undefined && !machine.exists(onMachine)) {
      // bwrap makes the folder to mount on, in the machine's own folder if it may write there.
      const writable = view.get(covering(view, dest)!)!.what.startsWith("read-write");
      throw new CannotJudgeError(
        writable
          ? `bwrap ${option} ${dest}: it would make ${onMachine} on the machine itself`
          : `bwrap ${option} ${dest}: there is nothing at ${onMachine} to mount it on, and bwrap stops there`,
      );
    }
    for (const path of [...view.keys()]) if (within(path, dest)) view.delete(path);
    view.set(dest, shown);
  };
  for (; i < args.length; i++) {
    const option = args[i];
    if (option === "--") return finish(args.slice(i + 1));
    if (!option.startsWith("--")) return finish(args.slice(i));
    if (BWRAP_SWITCHES.has(option)) {
      if (option === "--unshare-all") {
        for (const kind of ["net", "pid", "uts", "ipc"]) unshared.add(kind);
      }
      if (option === "--unshare-net") unshared.add("net");
      if (option === "--share-net") unshared.delete("net");
      if (option === "--unshare-pid") unshared.add("pid");
      if (option === "--unshare-uts") unshared.add("uts");
      if (option === "--unshare-ipc") unshared.add("ipc");
      if (option === "--as-pid-1") needs.push([option, "pid"]);
      if (option === "--die-with-parent") endsWithParent = true;
      if (option === "--clearenv") {
        Object.assign(env, { cleared: true, set: new Map(), unset: new Set() });
      }
    } else if (BWRAP_IGNORED_1.has(option)) {
      take(option, 1);
    } else if (option === "--chdir") {
      chdir = absolute(option, take(option, 1)[0]);
    } else if (option === "--hostname") {
      take(option, 1);
      needs.push([option, "uts"]);
    } else if (option in BWRAP_MOUNTS_1) {
      // In a user namespace of its own (bwrap run by anyone but root makes one) message
      // queues may be mounted only of an IPC namespace of its own.
      if (option === "--mqueue") mqueue = true;
      mount(option, absolute(option, take(option, 1)[0]), { what: BWRAP_MOUNTS_1[option] });
    } else if (option === "--dir") {
      const dest = absolute(option, take(option, 1)[0]);
      const onMachine = inside(option, dest);
      if (onMachine !== undefined && !machine.exists(onMachine)) {
        throw new CannotJudgeError(
          `bwrap --dir ${dest}: it would make ${onMachine} on the machine itself`,
        );
      }
      if (onMachine === undefined && !made(dest)) view.set(dest, { what: "an empty folder" });
    } else if (option in BWRAP_BINDS) {
      const [source, dest] = take(option, 2).map((path) => absolute(option, path));
      if (!machine.exists(source)) {
        if (option.endsWith("-try")) continue;
        throw new CannotJudgeError(
          `bwrap ${option} ${source}: it is not on this machine, and bwrap stops there`,
        );
      }
      const what = BWRAP_BINDS[option] + (source === dest ? "" : ` from ${source}`);
      mount(option, dest, { what, source });
    } else if (option === "--symlink") {
      const [target, path] = take(option, 2);
      const dest = absolute(option, path);
      if (made(dest)) {
        throw new CannotJudgeError(
          `bwrap --symlink ${target} ${dest}: the sandbox has ${dest} already`,
        );
      }
      if (inside(option, dest) !== undefined) {
        throw new CannotJudgeError(
          `bwrap --symlink ${target} ${dest}: it would make a link on the machine itself`,
        );
      }
      mount(option, dest, { what: `a link to ${target}`, target });
    } else if (option === "--remount-ro") {
      const dest = absolute(option, take(option, 1)[0]);
      const shown = view.get(dest);
      if (shown !== undefined && shown.target === undefined && shown.what !== "an empty folder") {
        view.set(dest, { ...shown, what: readOnly(shown.what) });
      } else if (dest === "/" && shown === undefined) rootReadOnly = true;
      else {
        throw new CannotJudgeError(
          `bwrap --remount-ro ${dest}: it is not a mount of the sandbox, and bwrap stops there`,
        );
      }
    } else if (option === "--setenv") {
      const [name, value] = take(option, 2);
      env.set.set(name, value);
      env.unset.delete(name);
    } else if (option === "--unsetenv") {
      const [name] = take(option, 1);
      env.set.delete(name);
      if (!env.cleared) env.unset.add(name);
    } else if (option === "--cap-add" || option === "--cap-drop") {
      const [cap] = take(option, 1);
      if (option === "--cap-add") capabilities.add(cap.toUpperCase());
      else capabilities.delete(cap.toUpperCase());
    } else if (BWRAP_FROM_FD.has(option)) {
      throw new CannotJudgeError(
        `bwrap ${option}: it reads a file descriptor, not the command line`,
      );
    } else if (BWRAP_REFUSED.has(option)) {
      throw new CannotJudgeError(`bwrap ${option}: it changes who runs, or the machine's files`);
    } else {
      throw new CannotJudgeError(`bwrap ${option}: not an option this knows`);
    }
  }
  return finish([]);

  function finish(command: string[]): [Sandbox, string[]] {
    if (mqueue && !unshared.has("ipc")) {
      throw new CannotJudgeError("bwrap --mqueue without --unshare-ipc: it depends on who runs it");
    }
    for (const [option, kind] of needs) {
      if (!unshared.has(kind)) {
        throw new CannotJudgeError(`bwrap ${option}: bwrap refuses it without --unshare-${kind}`);
      }
    }
    const there = covering(view, chdir) === undefined
      ? chdir === "/" || made(chdir)
      : machine.exists(machinePath(view, chdir) ?? "/") &&
        (machinePath(view, chdir) !== undefined || made(chdir));
    if (!there) {
      throw new CannotJudgeError(`bwrap --chdir ${chdir}: the sandbox has no such folder`);
    }
    const paths = [...view].map(([path, shown]) => `${path} ${shown.what}`);
    if (rootReadOnly && !view.has("/")) paths.push(`/ ${ROOT_READ_ONLY}`);
    const grants: SandboxGrants = {
      paths: paths.sort(),
      network: unshared.has("net") ? "none" : "shared",
      processes: unshared.has("pid") ? "own" : "shared",
      endsWithParent,
      environment: [
        env.cleared ? "cleared" : "inherited",
        ...[...env.set].map(([name, value]) => `${name}=${value}`).sort(),
        ...[...env.unset].map((name) => `without ${name}`).sort(),
      ],
      capabilities: [...capabilities].sort(),
    };
    const variable = env.set.get("PATH") ?? (env.cleared ? undefined : hostPath().join(":"));
    const path = (variable ?? "/bin:/usr/bin").split(":").filter((dir) => dir.startsWith("/"));
    return [{ grants, view, path }, command];
  }
}

/** What a mount shows, once remounted read-only. */
function readOnly(what: string): string {
  if (what.startsWith("read-write")) {
    return what.replace(/^read-write(, devices too)?/, "read-only");
  }
  return what.startsWith("read-only") || what.endsWith(", read-only") ? what : `${what}, read-only`;
}

/** `path` normalized; throws unless it is absolute. */
function absolute(option: string, path: string): string {
  if (!path.startsWith("/")) {
    throw new CannotJudgeError(`bwrap ${option} ${JSON.stringify(path)}: not an absolute path`);
  }
  const normal = posix.normalize(path);
  return normal.length > 1 ? normal.replace(/\/+$/, "") : normal;
}

/** Whether `path` is `folder` or inside it. */
function within(path: string, folder: string): boolean {
  return folder === "/" || path === folder || path.startsWith(`${folder}/`);
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 80) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
