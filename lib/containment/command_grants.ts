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
  "--disable-userns",
  "--assert-userns-disabled",
]);
/** Options with one argument that change nothing judged here. */
const BWRAP_IGNORED_1 = new Set(["--chdir", "--hostname", "--uid", "--gid", "--perms", "--size"]);
const BWRAP_MOUNTS_1: Record<string, string> = {
  "--tmpfs": "private, empty",
  "--proc": "the sandbox's own processes",
  "--dev": "a few devices of its own",
  "--mqueue": "message queues of its own",
  "--dir": "an empty folder",
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

/**
 * What `argv` gives the program it runs: `prlimit` and `bwrap` (by name or
 * path) may wrap each other in either order, and the first other word is the
 * program. Throws `TypeError` naming the part it cannot judge: an option it
 * does not know (prlimit's short options included: write `--cpu=1`), an
 * option missing its argument, an option that reads a file descriptor, a
 * path that is not absolute, a limit that is not a number, or no program.
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
 * assert.throws(() => commandGrants(["prlimit", "-t1", "sleep", "1"]), TypeError);
 * ```
 */
export function commandGrants(argv: unknown): CommandGrants {
  if (!Array.isArray(argv) || argv.length === 0) {
    throw new TypeError(
      `Expected a command line (a non-empty array of strings), got ${show(argv)}`,
    );
  }
  for (const part of argv) {
    if (typeof part !== "string") {
      throw new TypeError(`A command line holds strings: ${show(part)}`);
    }
  }
  const limits = new Map<string, string>();
  let sandbox: SandboxGrants | null = null;
  let rest = argv as string[];
  for (;;) {
    const program = posix.basename(rest[0] ?? "");
    if (program === "prlimit") rest = readPrlimit(rest.slice(1), limits);
    else if (program === "bwrap") {
      if (sandbox !== null) throw new TypeError("A sandbox inside a sandbox is not judged here");
      [sandbox, rest] = readBwrap(rest.slice(1));
    } else break;
  }
  if (rest.length === 0) throw new TypeError("The command line runs no program");
  const shown = [...limits].map(([name, value]) => `${name} ${value}`).sort();
  return { limits: shown, sandbox, command: [...rest] };
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
      throw new TypeError(`prlimit ${arg}: not a limit this can judge (write it as --NAME=LIMIT)`);
    }
    if (equals === -1) throw new TypeError(`prlimit ${arg} sets nothing: give it =LIMIT`);
    limits.set(name, limitValue(arg, arg.slice(equals + 1)));
  }
  return [];
}

/** A limit as `SOFT:HARD`, `SOFT:`, `:HARD` or one value for both, in words. */
function limitValue(arg: string, value: string): string {
  const sides = value.split(":");
  if (sides.length > 2) throw new TypeError(`prlimit ${arg}: at most SOFT:HARD`);
  const [soft, hard] = sides.length === 1 ? [sides[0], sides[0]] : sides;
  const read = (side: string) => {
    if (side === "") return "unchanged";
    if (side === "unlimited" || side === "infinity") return "unlimited";
    if (!/^\d+$/.test(side)) {
      throw new TypeError(`prlimit ${arg}: ${JSON.stringify(side)} is not a number`);
    }
    return String(BigInt(side));
  };
  const [s, h] = [read(soft), read(hard)];
  if (s === "unchanged" && h === "unchanged") throw new TypeError(`prlimit ${arg} sets nothing`);
  return s === h ? s : `${s} soft, ${h} hard`;
}

/** Read bubblewrap's options; return what they give, and the command after them. */
function readBwrap(args: string[]): [SandboxGrants, string[]] {
  const view = new Map<string, string>();
  const env = { cleared: false, set: new Map<string, string>(), unset: new Set<string>() };
  const capabilities = new Set<string>();
  let net = false;
  let pid = false;
  let endsWithParent = false;
  let i = 0;
  const take = (option: string, count: number) => {
    const values = args.slice(i + 1, i + 1 + count);
    if (values.length < count) throw new TypeError(`bwrap ${option} needs ${count} argument(s)`);
    i += count;
    return values;
  };
  const mount = (dest: string, what: string) => {
    for (const path of [...view.keys()]) if (within(path, dest)) view.delete(path);
    view.set(dest, what);
  };
  for (; i < args.length; i++) {
    const option = args[i];
    if (option === "--") return [finish(), args.slice(i + 1)];
    if (!option.startsWith("--")) return [finish(), args.slice(i)];
    if (BWRAP_SWITCHES.has(option)) {
      if (option === "--unshare-all") [net, pid] = [true, true];
      if (option === "--unshare-net") net = true;
      if (option === "--share-net") net = false;
      if (option === "--unshare-pid") pid = true;
      if (option === "--die-with-parent") endsWithParent = true;
      if (option === "--clearenv") {
        Object.assign(env, { cleared: true, set: new Map(), unset: new Set() });
      }
    } else if (BWRAP_IGNORED_1.has(option)) {
      take(option, 1);
    } else if (option in BWRAP_MOUNTS_1) {
      mount(absolute(option, take(option, 1)[0]), BWRAP_MOUNTS_1[option]);
    } else if (option in BWRAP_BINDS) {
      const [source, dest] = take(option, 2).map((path) => absolute(option, path));
      mount(dest, BWRAP_BINDS[option] + (source === dest ? "" : ` from ${source}`));
    } else if (option === "--symlink") {
      const [target, path] = take(option, 2);
      mount(absolute(option, path), `a link to ${target}`);
    } else if (option === "--remount-ro") {
      const dest = absolute(option, take(option, 1)[0]);
      for (const [path, what] of view) {
        if (within(path, dest)) {
          view.set(path, what.replace(/^read-write(, devices too)?/, "read-only"));
        }
      }
    } else if (option === "--chmod") {
      take(option, 2);
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
      throw new TypeError(
        `bwrap ${option} reads a file descriptor: not judged from a command line`,
      );
    } else {
      throw new TypeError(`bwrap ${option}: not an option this can judge`);
    }
  }
  return [finish(), []];

  function finish(): SandboxGrants {
    return {
      paths: [...view].map(([path, what]) => `${path} ${what}`).sort(),
      network: net ? "none" : "shared",
      processes: pid ? "own" : "shared",
      endsWithParent,
      environment: [
        env.cleared ? "cleared" : "inherited",
        ...[...env.set].map(([name, value]) => `${name}=${value}`).sort(),
        ...[...env.unset].map((name) => `without ${name}`).sort(),
      ],
      capabilities: [...capabilities].sort(),
    };
  }
}

/** `path` normalized; throws unless it is absolute. */
function absolute(option: string, path: string): string {
  if (!path.startsWith("/")) {
    throw new TypeError(`bwrap ${option} ${JSON.stringify(path)}: not an absolute path`);
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
