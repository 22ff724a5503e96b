/**
 * bubblewrap's options, read as bwrap mounts them: in order, a later mount
 * hiding what the earlier ones put below it, `--remount-ro` changing only the
 * mount at its path.
 *
 * @module
 */

import { posix } from "node:path";
import { CannotJudgeError } from "./_cannot_judge.ts";
import { hostPath, type Kind, type Machine } from "./_machine.ts";
import {
  covering,
  machinePath,
  PathMap,
  readOnly,
  type ReadonlyPathMap,
  type Shown,
  within,
} from "./_sandbox_view.ts";
import type { SandboxGrants } from "./command_grants.ts";

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
/** Linux's capabilities, in the order of their numbers, as bwrap's `--cap-add` and `--cap-drop` know them. */
const CAPABILITIES = [
  "chown",
  "dac_override",
  "dac_read_search",
  "fowner",
  "fsetid",
  "kill",
  "setgid",
  "setuid",
  "setpcap",
  "linux_immutable",
  "net_bind_service",
  "net_broadcast",
  "net_admin",
  "net_raw",
  "ipc_lock",
  "ipc_owner",
  "sys_module",
  "sys_rawio",
  "sys_chroot",
  "sys_ptrace",
  "sys_pacct",
  "sys_admin",
  "sys_boot",
  "sys_nice",
  "sys_resource",
  "sys_time",
  "sys_tty_config",
  "mknod",
  "lease",
  "audit_write",
  "audit_control",
  "setfcap",
  "mac_override",
  "mac_admin",
  "syslog",
  "wake_alarm",
  "block_suspend",
  "audit_read",
  "perfmon",
  "bpf",
  "checkpoint_restore",
].map((name) => `CAP_${name.toUpperCase()}`);
/**
 * What `--dev` makes in its folder, by kind: bwrap makes no mount, folder or
 * link over a device or a link of these, and a file's bind over a device
 * only (each is a bind of the machine's device there, a mount of its own).
 * Its `pts` is a mount of its own too (`devpts`), where bwrap can make
 * nothing, though a file may be bound over the device node in it (`ptmx`,
 * no mount).
 */
const DEV_ENTRIES: Record<string, "device" | "node" | "folder" | "terminals" | "link"> = {
  null: "device",
  zero: "device",
  full: "device",
  random: "device",
  urandom: "device",
  tty: "device",
  shm: "folder",
  pts: "terminals",
  "pts/ptmx": "node",
  fd: "link",
  stdin: "link",
  stdout: "link",
  stderr: "link",
  core: "link",
  ptmx: "link",
};
/**
 * Where each link of {@linkcode DEV_ENTRIES} that stays in `--dev`'s folder
 * leads, from that folder: bwrap follows it as it mounts, so a bind at
 * `ptmx` is made at `pts/ptmx`, and a folder there is made on that device
 * node. Its other links lead into `/proc` (`fd`, `stdin`, `core`), where
 * what they reach at that moment is not judged.
 */
const DEV_LINKS: Record<string, string> = { ptmx: "pts/ptmx" };
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
/** The namespaces `--unshare-all` makes (a user and a cgroup namespace where the machine can). */
const NAMESPACES = ["cgroup", "ipc", "net", "pid", "user", "uts"];
/** The namespaces reported apart from the network and the process table. */
const OTHER_NAMESPACES = ["cgroup", "ipc", "user", "uts"];
/**
 * What one of `--dev`'s devices shows once remounted read-only: bwrap
 * remounts it without its devices, so no program may open it.
 */
const DEVICE_READ_ONLY = "a device no program may open, read-only";
/** What `--dev`'s `pts` shows once remounted read-only: as its devices, without them. */
const TERMINALS_READ_ONLY = "pseudo-terminals of its own no program may open, read-only";
/** What the sandbox's own root (a tmpfs) shows once it is remounted read-only. */
const ROOT_READ_ONLY = "the sandbox's own root, read-only";

/** A sandbox read so far: what it grants, and what it shows at each mount, to find programs in it. */
export interface Sandbox {
  grants: SandboxGrants;
  view: ReadonlyPathMap<Shown>;
  /** The directories its `PATH` names, where a bare program name is looked up. */
  path: string[];
}

/**
 * Read bubblewrap's options as it mounts them on `machine`; return what
 * they give, and the command after them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * import { EVERY_PATH_EXISTS } from "./_machine.ts";
 *
 * const [sandbox, command] = readBwrap(["--ro-bind", "/usr", "/usr", "true"], EVERY_PATH_EXISTS);
 * assert.deepEqual(sandbox.grants.paths, ["/usr read-only"]);
 * assert.deepEqual(command, ["true"]);
 * ```
 */
export function readBwrap(args: string[], machine: Machine): [Sandbox, string[]] {
  const view = new PathMap<Shown>();
  const env = { cleared: false, set: new Map<string, string>(), unset: new Set<string>() };
  // Run by root, bubblewrap keeps every capability of root's but those dropped.
  const capabilities = new Set<string>(["ALL"]);
  let asPid1 = false;
  const unshared = new Set<string>();
  const needs: [string, string][] = [];
  let rootReadOnly = false;
  let endsWithParent = false;
  let chdir = "/";
  let mqueue = false;
  /** What `--dev` made and nothing has hidden since, by path: see {@linkcode DEV_ENTRIES}. */
  const devices = new Map<string, string>();
  /** Where each link of {@linkcode DEV_LINKS} that `--dev` made leads, by its path. */
  const devLinks = new Map<string, string>();
  /**
   * `dest`, or where a link of `--dev`'s own at `dest` leads in its folder
   * (see {@linkcode DEV_LINKS}), and on through another there (a `--dev`
   * in `pts`): bwrap follows each, and mounts where they lead.
   */
  const followed = (dest: string, depth = 0): string => {
    const target = devices.get(dest) === "link" ? devLinks.get(dest) : undefined;
    return target === undefined || depth > 8 ? dest : followed(target, depth + 1);
  };
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
   * The path of the sandbox that bwrap reaches for `dest` where a bind
   * shows a link of the machine's at `dest` or above it: it follows a
   * relative one in the sandbox (the machine's `/bin`, `usr/bin`, bound with
   * its root, leads to the sandbox's `/usr/bin`), so the mount is made there;
   * `dest` itself where no such link is on the way. Throws for an absolute
   * one, which bwrap follows from a root of its own, and for a `..` after
   * another part of a link, which the links before it decide.
   */
  const throughMachineLink = (option: string, dest: string, kind?: Kind): string => {
    const cover = covering(view, dest);
    const source = cover === undefined ? undefined : view.get(cover)!.source;
    if (source === undefined || dest === cover) return dest;
    const onMachine = machinePath(view, dest)!;
    if (byProcessPath(onMachine)) throw byProcess(option, onMachine);
    const bound = machine.realPath(source) ?? source;
    const parts = dest.slice(cover === "/" ? 1 : cover!.length + 1).split("/");
    for (let i = 1; i <= parts.length; i++) {
      const link = posix.join(bound, ...parts.slice(0, i));
      const target = machine.linkTarget(link);
      if (target === undefined) continue;
      const steps = target.split("/");
      const up = steps.findIndex((step) => step !== "..");
      if (target.startsWith("/") || steps.slice(up).includes("..")) {
        throw new CannotJudgeError(
          `bwrap ${option} ${dest}: it is reached through a link of the machine's at ${link}, ` +
            `to ${target}, which bwrap follows from a root of its own or through other links, ` +
            "so where it leads is not judged",
        );
      }
      const linked = posix.resolve(posix.dirname(posix.join(cover!, ...parts.slice(0, i))), target);
      // bwrap makes no folder through a link to what the sandbox has not (mkdir does not follow
      // one): only a file bound at the link itself is made where it leads, in a folder there.
      const rest = parts.slice(i);
      if (!has(rest.length > 0 || kind !== "file" ? linked : posix.dirname(linked), 0, option)) {
        // A --dir at the link itself: bwrap finds it there (mkdir: "exists") and goes on.
        if (rest.length === 0 && option === "--dir") {
          throw new CannotJudgeError(
            `bwrap --dir ${dest}: a link of the machine's at ${link}, to ${linked}, where the ` +
              "sandbox has no folder: bwrap leaves it as it is, which is not judged",
          );
        }
        throw new CannotJudgeError(
          `bwrap ${option} ${dest}: it is reached through a link of the machine's at ${link}, ` +
            `to ${linked}, where the sandbox has no folder, and bwrap stops there`,
        );
      }
      return posix.join(linked, ...rest);
    }
    return dest;
  };
  /**
   * `dest` as bwrap reaches it to mount there: through the links of
   * `--dev`'s own ({@linkcode followed}) and of the machine's in a bound
   * folder ({@linkcode throughMachineLink}), each followed in turn.
   */
  const reached = (option: string, dest: string, kind?: Kind): string => {
    for (let depth = 0; depth < 8; depth++) {
      const next = followed(throughMachineLink(option, dest, kind));
      if (next === dest) return dest;
      dest = next;
    }
    throw new CannotJudgeError(`bwrap ${option} ${dest}: a loop of links, which is not judged`);
  };
  /**
   * Where `dest`, which the bind of `source` at `cover` shows, is on the
   * machine; throws where bwrap reaches it through what is not judged: a
   * path under the machine's `/proc`, or a link of the machine's in the
   * bound folder, at `dest` or above it, which bwrap follows in the sandbox.
   */
  const boundPath = (option: string, dest: string, cover: string, source: string) => {
    const onMachine = machinePath(view, dest)!;
    if (byProcessPath(onMachine)) throw byProcess(option, onMachine);
    const real = machine.realPath(onMachine);
    const bound = machine.realPath(source);
    if (real !== undefined && bound !== undefined) {
      const rest = dest === cover ? "" : dest.slice(cover === "/" ? 1 : cover.length + 1);
      if (real !== posix.join(bound, rest)) {
        throw new CannotJudgeError(
          `bwrap ${option} ${dest}: it is reached through a link of the machine's at ` +
            `${onMachine} or above it, which bwrap follows`,
        );
      }
    }
    return onMachine;
  };
  /**
   * Where `dest` is on the machine, when a bind shows it; throws where
   * bubblewrap could not make `dest`: through a link, in a read-only folder
   * of the sandbox's own, or in a file system that holds no folders (nor a
   * file, but message queues, where what bwrap makes to bind a `file` on
   * is a queue).
   */
  const inside = (option: string, dest: string, file = false) => {
    const cover = covering(view, dest);
    const shown = cover === undefined ? undefined : view.get(cover)!;
    if (shown?.target !== undefined) {
      throw new CannotJudgeError(
        `bwrap ${option} ${dest}: it is reached through the link ${cover}`,
      );
    }
    if (shown?.source !== undefined) return boundPath(option, dest, cover!, shown.source);
    const readOnly = shown === undefined ? rootReadOnly : shown.what.endsWith(", read-only");
    const noFolders = shown !== undefined &&
      (/processes/.test(shown.what) || (!file && /message queues/.test(shown.what)));
    // What --dev made is there already: bwrap mounts over it, making nothing.
    if ((readOnly || (noFolders && dest !== cover)) && !made(dest) && !devices.has(dest)) {
      throw new CannotJudgeError(
        `bwrap ${option} ${dest}: bwrap cannot make it in ${cover ?? "the sandbox's root"}`,
      );
    }
    return undefined;
  };
  /**
   * `dest` with the sandbox's own links on the way to it followed, as bwrap
   * follows them to remount what they lead to; throws for an absolute one,
   * which bwrap follows from a root of its own, not the sandbox's, and for a
   * loop.
   */
  const throughLinks = (option: string, dest: string, depth = 0): string => {
    const cover = covering(view, dest);
    const target = cover === undefined ? undefined : view.get(cover)!.target;
    if (target === undefined) return dest;
    if (target.startsWith("/") || depth > 8) {
      const why = depth > 8
        ? "one of a loop of links"
        : "which bwrap follows from a root of its own";
      throw new CannotJudgeError(
        `bwrap ${option} ${dest}: it is reached through the link ${cover}, ${why}, so where ` +
          "it leads is not judged",
      );
    }
    const rest = dest === cover ? "" : dest.slice(cover!.length);
    return throughLinks(option, posix.resolve(posix.dirname(cover!), target) + rest, depth + 1);
  };
  /**
   * Whether the sandbox has the folder `dir` (for `--chdir`), its links
   * followed; throws where a link of the machine's leads there (see
   * {@linkcode boundPath}).
   */
  const has = (dir: string, depth = 0, option = "--chdir"): boolean => {
    const cover = covering(view, dir);
    if (cover === undefined) return dir === "/" || made(dir);
    const { target, source, kind } = view.get(cover)!;
    if (target !== undefined) {
      const rest = dir === cover ? "" : dir.slice(cover.length);
      return depth < 8 &&
        has(posix.resolve(posix.dirname(cover), target) + rest, depth + 1, option);
    }
    if (source === undefined) return kind !== "file" && made(dir);
    // A file bound there, or one of the machine's there, is no folder to start in.
    const onMachine = boundPath(option, dir, cover, source);
    return there(onMachine) && kindOf(onMachine) !== "file";
  };
  /**
   * Throws where `dest` is, or is under, what `--dev` made that bwrap cannot
   * put `kind` on: a folder or link on a device, anything on a link of its
   * own, anything under a device, anything made in its `pts` but a bind on
   * the device node there, or on a bind made on it (a bind on a device is a file's or a folder's:
   * {@linkcode fit} tells).
   */
  const overDevice = (option: string, dest: string, kind: "folder" | "link" | "bind") => {
    for (const [path, made] of devices) {
      if (!within(dest, path)) continue;
      const under = dest !== path;
      if (made === "folder" && (under || kind !== "link")) continue;
      if (made === "terminals" && !under && kind !== "link") continue;
      // The device node there, or a bind already made on it, which a bind may cover again.
      const node = devices.get(dest) === "node" || view.has(dest);
      if (made === "terminals" && node && kind === "bind") continue;
      if ((made === "device" || made === "node") && !under && kind === "bind") continue;
      // bwrap follows a link, to a path that is there or not at that moment (/proc/self/fd
      // before /proc is mounted): where it stops, and where it mounts, is not judged.
      if (made === "link") {
        throw new CannotJudgeError(
          `bwrap ${option} ${dest}: ${path} is a link of --dev's own, which bwrap follows, ` +
            "so what it does there is not judged",
        );
      }
      const what = made === "terminals" ? "the pseudo-terminals" : `a ${made}`;
      throw new CannotJudgeError(
        `bwrap ${option} ${dest}: ${path} is ${what} of --dev's own, where bwrap cannot ` +
          "make it, and stops there",
      );
    }
  };
  /** Where every bind read so far was made, hidden since or not. */
  const boundAt: string[] = [];
  /** Every bind's source read so far: on a made-up machine, one named under a path says it is a folder. */
  const sources = new Set<string>();
  /**
   * The paths of a made-up machine the line was judged as having, each with
   * the path of the sandbox whose mount shows it, if one: see
   * {@linkcode Machine.exists}.
   */
  const assumed = new Map<string, string | undefined>();
  /** The kind a path of a made-up machine was judged as having: what fitted where it was bound. */
  const assumedKinds = new Map<string, Kind>();
  /**
   * Whether `path` of the machine is there: not below what it has as a file
   * (or what the line took for one), and where the machine does not say,
   * taken as there, and noted.
   */
  const there = (path: string, dest?: string) => {
    if (fileAbove(path) !== undefined) return false;
    const says = machine.exists(path);
    if (says === undefined && !assumed.has(path)) assumed.set(path, dest);
    return says !== false;
  };
  /** The folder above `path` that the machine has as a file, or the line took for one, if one. */
  const fileAbove = (path: string): string | undefined => {
    for (let above = posix.dirname(path); above !== "/"; above = posix.dirname(above)) {
      // A source named under a path makes it a folder, never a file: not looked for here.
      if ((machine.kind(above) ?? assumedKinds.get(above)) === "file") return above;
    }
    return undefined;
  };
  /** What `path` of the machine is, where the machine (or a source named under it, or what fitted) says. */
  const kindOf = (path: string): Kind | undefined =>
    machine.kind(path) ?? assumedKinds.get(path) ??
      ([...sources].some((source) => source !== path && within(source, path))
        ? "folder"
        : undefined);
  /**
   * `kind` for `path`, where the machine does not say whether it is there
   * (it is made up) nor what it is: it has what fits. Whether a machine that
   * does say what is there, but not what it is, holds it, is not judged.
   */
  const fits = (path: string | undefined, kind: Kind): boolean => {
    if (path === undefined || machine.exists(path) !== undefined) return false;
    assumedKinds.set(path, kind);
    return true;
  };
  /**
   * What the sandbox has at `dest` so far (a folder, another file, nothing,
   * or `undefined` where the machine does not say what a bind put there),
   * and the machine's path it shows there, where it shows one. A path of a
   * made-up machine under a bound folder is whatever the line puts there, as
   * it is there whatever the line names.
   */
  const holds = (dest: string): { kind: Kind | "nothing" | undefined; onMachine?: string } => {
    if (dest === "/" || [...view.keys()].some((path) => path !== dest && within(path, dest))) {
      return { kind: "folder" };
    }
    const cover = covering(view, dest);
    const shown = cover === undefined ? undefined : view.get(cover)!;
    if (shown?.source !== undefined) {
      const onMachine = machinePath(view, dest)!;
      if (dest === cover) return { kind: kindOf(shown.source), onMachine };
      const kind = machine.exists(onMachine) !== false ? kindOf(onMachine) ?? "nothing" : "nothing";
      return { kind, onMachine };
    }
    if (shown !== undefined && dest === cover) return { kind: shown.kind ?? "folder" };
    const made = devices.get(dest);
    const kind = made === "device" || made === "node"
      ? "file"
      : made === "folder" || made === "terminals"
      ? "folder"
      : "nothing";
    return { kind };
  };
  /**
   * Throws where bwrap cannot put `kind` (a mount's folder, or what a bind
   * of `source` is) at `dest`: in a bound file, a folder on a file, a file
   * on a folder; and where the machine does not say which a bind's source is
   * and the sandbox's own folder or file is at `dest`, or the other way round.
   */
  const fit = (option: string, dest: string, kind: Kind | undefined, source?: string) => {
    const cover = covering(view, dest);
    const bound = cover === undefined ? undefined : view.get(cover)!.source;
    const parent = bound === undefined || cover === dest ? "folder" : kindOf(bound);
    if (parent === "file") {
      throw new CannotJudgeError(
        `bwrap ${option} ${dest}: ${cover} is a file, and bwrap stops there ` +
          `("Can't mkdir parents for ${dest}: Not a directory")`,
      );
    }
    if (parent === undefined) {
      throw new CannotJudgeError(
        `bwrap ${option} ${dest}: bwrap makes nothing in a bound file, and whether ${bound} ` +
          "is a folder the machine does not say",
      );
    }
    const there = holds(dest);
    if (there.kind === "nothing" || (kind !== undefined && kind === there.kind)) return;
    // A path of a made-up machine is what fits where it is bound: a file over one of --dev's
    // devices, a folder over a folder of the sandbox's own (a tmpfs, --dev's, its root) or a
    // bind's, as bwrap binds it on a machine that has it so.
    if (kind === undefined && there.kind !== undefined && fits(source, there.kind)) return;
    if (kind === undefined || there.kind === undefined) {
      // A bind over a bind: where the machine does not say what either is, it has what fits.
      if (source !== undefined && there.onMachine !== undefined) return;
      const unknown = kind === undefined ? source : there.onMachine;
      throw new CannotJudgeError(
        `bwrap ${option} ${dest}: bwrap mounts a folder on a folder only, a file on a file, ` +
          `and whether ${unknown} is a folder the machine does not say`,
      );
    }
    throw new CannotJudgeError(
      kind === "folder"
        ? `bwrap ${option} ${dest}: it is a file, and bwrap stops there ` +
          `("Can't mkdir ${dest}: Not a directory")`
        : `bwrap ${option} ${dest}: it is a folder, and bwrap stops there ` +
          `("Can't create file at ${dest}: Is a directory")`,
    );
  };
  /**
   * Why bwrap cannot mount at `dest`, which a bind shows from the machine's
   * `onMachine`, which is not there: it would make it on the machine itself,
   * in a folder it may write, or stops, in a file or a folder it may not.
   */
  const absent = (option: string, dest: string, onMachine: string) => {
    let above = posix.dirname(onMachine);
    while (above !== "/" && machine.exists(above) === false) above = posix.dirname(above);
    if (machine.kind(above) === "file") {
      return new CannotJudgeError(
        `bwrap ${option} ${dest}: ${above} is a file, and bwrap stops there ` +
          `("Can't mkdir parents for ${dest}: Not a directory")`,
      );
    }
    const writable = view.get(covering(view, dest)!)!.what.startsWith("read-write");
    return new CannotJudgeError(
      writable
        ? `bwrap ${option} ${dest}: it would make ${onMachine} on the machine itself`
        : `bwrap ${option} ${dest}: there is nothing at ${onMachine} to mount it on, and bwrap stops there`,
    );
  };
  const mount = (option: string, dest: string, shown: Shown) => {
    const file = shown.source !== undefined && kindOf(shown.source) === "file";
    const onMachine = inside(option, dest, file);
    if (shown.target === undefined) {
      fit(option, dest, shown.source === undefined ? "folder" : kindOf(shown.source), shown.source);
    }
    if (onMachine !== undefined && !there(onMachine, dest)) {
      throw absent(option, dest, onMachine);
    }
    for (const path of [...view.keys()]) if (within(path, dest)) view.delete(path);
    for (const path of [...devices.keys()]) if (within(path, dest)) devices.delete(path);
    view.set(dest, shown);
  };
  for (; i < args.length; i++) {
    const option = args[i];
    if (option === "--") return finish(args.slice(i + 1));
    if (!option.startsWith("-")) return finish(args.slice(i));
    // bwrap takes any other word that starts with "-" for an option, and stops at one it does not know.
    if (!option.startsWith("--")) {
      throw new CannotJudgeError(`bwrap ${option}: not an option this knows`);
    }
    if (BWRAP_SWITCHES.has(option)) {
      if (option === "--unshare-all") { for (const kind of NAMESPACES) unshared.add(kind); }
      // "-try" makes the namespace where the machine can: judged as on one that can.
      const kind = option.match(/^--unshare-(\w+?)(-try)?$/)?.[1];
      if (kind !== undefined && kind !== "all") unshared.add(kind);
      if (option === "--share-net") unshared.delete("net");
      if (option === "--as-pid-1") {
        needs.push([option, "pid"]);
        asPid1 = true;
      }
      if (option === "--die-with-parent") endsWithParent = true;
      if (option === "--clearenv") {
        Object.assign(env, { cleared: true, set: new Map(), unset: new Set() });
      }
    } else if (option === "--size") {
      // bwrap takes it right before --tmpfs, or last of its options (where it sizes nothing).
      const [size] = take(option, 1);
      const next = args[i + 1];
      if (!tmpfsSize(size)) {
        throw new CannotJudgeError(
          `bwrap --size ${JSON.stringify(size)}: not a number of bytes bwrap takes, and bwrap ` +
            "stops there",
        );
      }
      const ends = next === undefined || next === "--" || !next.startsWith("-");
      // --perms may come between; this refuses it for what it does.
      if (!ends && next !== "--tmpfs" && next !== "--perms") {
        throw new CannotJudgeError(
          `bwrap --size ${size} ${next}: bwrap takes it only before --tmpfs, and stops there`,
        );
      }
    } else if (option === "--chdir") {
      chdir = absolute(option, take(option, 1)[0]);
    } else if (option === "--hostname") {
      take(option, 1);
      needs.push([option, "uts"]);
    } else if (option in BWRAP_MOUNTS_1) {
      // In a user namespace of its own (bwrap run by anyone but root makes one) message
      // queues may be mounted only of an IPC namespace of its own.
      if (option === "--mqueue") mqueue = true;
      const dest = reached(option, absolute(option, take(option, 1)[0]), "folder");
      overDevice(option, dest, "folder");
      mount(option, dest, { what: BWRAP_MOUNTS_1[option] });
      if (option === "--dev") {
        for (const [name, kind] of Object.entries(DEV_ENTRIES)) {
          devices.set(posix.join(dest, name), kind);
        }
        for (const [name, target] of Object.entries(DEV_LINKS)) {
          devLinks.set(posix.join(dest, name), posix.join(dest, target));
        }
      }
    } else if (option === "--dir") {
      const dest = reached(option, absolute(option, take(option, 1)[0]), "folder");
      overDevice(option, dest, "folder");
      const onMachine = inside(option, dest);
      fit(option, dest, "folder");
      if (onMachine !== undefined && !there(onMachine)) {
        throw absent(option, dest, onMachine);
      }
      if (onMachine === undefined && !made(dest) && !devices.has(dest)) {
        view.set(dest, { what: "an empty folder" });
      }
    } else if (option in BWRAP_BINDS) {
      const [given, to] = take(option, 2);
      const source = sourcePath(option, given, machine);
      if (byProcessPath(source)) throw byProcess(option, source);
      const dest = reached(option, absolute(option, to), kindOf(source));
      // One that bwrap skips when it is missing leaves the grants as they are either way.
      // A -try one too: bwrap skips a source it does not find, but stops at one in a file
      // ("Can't find source path: Not a directory").
      const file = fileAbove(source);
      if (file !== undefined) {
        throw new CannotJudgeError(
          `bwrap ${option} ${source}: ${file} is a file, so nothing is in it, and bwrap stops there`,
        );
      }
      if (option.endsWith("-try") ? machine.exists(source) === false : !there(source)) {
        if (option.endsWith("-try")) continue;
        throw new CannotJudgeError(
          `bwrap ${option} ${source}: it is not on this machine, and bwrap stops there`,
        );
      }
      const what = BWRAP_BINDS[option] + (source === dest ? "" : ` from ${source}`);
      sources.add(source);
      boundAt.push(dest);
      overDevice(option, dest, "bind");
      mount(option, dest, { what, source });
    } else if (option === "--symlink") {
      const [target, path] = take(option, 2);
      const dest = absolute(option, path);
      if (made(dest)) {
        throw new CannotJudgeError(
          `bwrap --symlink ${target} ${dest}: the sandbox has ${dest} already`,
        );
      }
      overDevice(option, dest, "link");
      if (inside(option, dest) !== undefined) {
        throw new CannotJudgeError(
          `bwrap --symlink ${target} ${dest}: it would make a link on the machine itself`,
        );
      }
      mount(option, dest, { what: `a link to ${target}`, target });
    } else if (option === "--remount-ro") {
      const dest = followed(throughLinks(option, absolute(option, take(option, 1)[0])));
      const shown = view.get(dest);
      if (shown === undefined && devices.get(dest) === "device") {
        view.set(dest, { what: DEVICE_READ_ONLY, kind: "file" });
      } else if (shown === undefined && devices.get(dest) === "terminals") {
        view.set(dest, { what: TERMINALS_READ_ONLY });
      } else if (
        shown !== undefined && shown.target === undefined && shown.what !== "an empty folder"
      ) {
        view.set(dest, { ...shown, what: readOnly(shown.what) });
      } else if (dest === "/" && shown === undefined) rootReadOnly = true;
      else if (boundAt.some((at) => within(dest, at))) {
        // A bind of the machine's brings the mounts below its source (hidden later, or not).
        throw new CannotJudgeError(
          `bwrap --remount-ro ${dest}: whether the machine has a mount there, which a bind ` +
            "brought, it does not say",
        );
      } else {
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
      const cap = capability(option, take(option, 1)[0], machine.lastCapability);
      // A number bwrap takes that this kernel has no capability for: it changes nothing.
      if (cap === undefined) continue;
      const all = capabilities.has("ALL");
      if (cap === "ALL") capabilities.clear();
      if (option === "--cap-add") {
        if (cap === "ALL" || !all) capabilities.add(cap);
        else capabilities.delete(`without ${cap}`);
      } else if (cap !== "ALL") {
        if (all) capabilities.add(`without ${cap}`);
        else capabilities.delete(cap);
      }
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
    if (!has(chdir)) {
      throw new CannotJudgeError(`bwrap --chdir ${chdir}: the sandbox has no such folder`);
    }
    for (const [path, dest] of assumed) {
      const kept = [...view].some(([at, shown]) =>
        at === dest || (shown.source !== undefined && within(shown.source, path))
      );
      if (!kept) {
        throw new CannotJudgeError(
          `bwrap: ${path}: whether the machine has it, it does not say, and nothing the line ` +
            "shows from it stays in sight (bwrap stops at a missing path, whatever hides it later)",
        );
      }
    }
    const paths = [...view].map(([path, shown]) => `${path} ${shown.what}`);
    if (rootReadOnly && !view.has("/")) paths.push(`/ ${ROOT_READ_ONLY}`);
    const grants: SandboxGrants = {
      paths: paths.sort(),
      network: unshared.has("net") ? "none" : "shared",
      processes: unshared.has("pid") ? "own" : "shared",
      sharedNamespaces: OTHER_NAMESPACES.filter((kind) => !unshared.has(kind)),
      endsWithParent,
      environment: [
        env.cleared ? "cleared" : "inherited",
        ...[...env.set].map(([name, value]) => `${name}=${value}`).sort(),
        ...[...env.unset].map((name) => `without ${name}`).sort(),
      ],
      reaper: unshared.has("pid") && !asPid1,
      capabilities: [...capabilities].sort(),
    };
    // With no PATH at all (cleared, or unset), execvp looks in its default folders.
    const variable = env.set.get("PATH") ??
      (env.cleared || env.unset.has("PATH") ? undefined : hostPath().join(":"));
    const path = (variable ?? "/bin:/usr/bin").split(":").filter((dir) => dir.startsWith("/"));
    return [{ grants, view, path }, command];
  }
}

/**
 * `given` as bwrap reads a capability: `ALL` in any case, or as libcap's
 * `cap_from_name` does. A word that starts with a digit is a number as C's
 * `strtoul` reads it in base 0 (`0x15` hexadecimal, `021` octal, and
 * whatever follows the digits ignored); any other is a capability's name, in
 * any case, ended by the word's end or by a character that cannot be part of
 * a name. A number under 64 that the kernel (whose last capability is
 * `last`) has no capability for is taken, and grants nothing: `undefined`.
 */
function capability(option: string, given: string, last: number): string | undefined {
  // C's case, which knows ASCII alone: "ſ" is no "s" there.
  const upper = (text: string) => text.replace(/[a-z]/g, (letter) => letter.toUpperCase());
  if (upper(given) === "ALL") return "ALL";
  const unknown = () =>
    new CannotJudgeError(`bwrap ${option} ${given}: not a capability, and bwrap stops there`);
  if (/^\d/.test(given)) {
    const [digits, base] = /^0[xX][\da-fA-F]/.test(given)
      ? [/^0[xX]([\da-fA-F]+)/.exec(given)![1], 16]
      : given.startsWith("0")
      ? [/^0([0-7]*)/.exec(given)![1] || "0", 8]
      : [/^\d+/.exec(given)![0], 10];
    const significant = digits.replace(/^0+/, "");
    const number = significant.length > 3 ? Infinity : parseInt(significant || "0", base);
    if (number >= 64) throw unknown();
    if (number > last) return undefined;
    if (number >= CAPABILITIES.length) {
      throw new CannotJudgeError(
        `bwrap ${option} ${given}: capability ${number} of this kernel, which is not judged here`,
      );
    }
    return CAPABILITIES[number];
  }
  const name = CAPABILITIES.find((known) =>
    upper(given.slice(0, known.length)) === known && !/^\w/.test(given.slice(known.length))
  );
  if (name === undefined) throw unknown();
  return CAPABILITIES.indexOf(name) > last ? undefined : name;
}

/**
 * Whether bwrap takes `word` as a size of a tmpfs: a number as C's
 * `strtoull` reads it in base 0 (`0x100` hexadecimal, `0100` octal), every
 * character of it, not 0 and under 2^63.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(tmpfsSize("1048576") && tmpfsSize("0x100000") && tmpfsSize("0100"));
 * assert.ok(!tmpfsSize("0") && !tmpfsSize("08") && !tmpfsSize(" 1") && !tmpfsSize("1k"));
 * assert.ok(!tmpfsSize(String(2n ** 63n)) && tmpfsSize(String(2n ** 63n - 1n)));
 * ```
 */
export function tmpfsSize(word: string): boolean {
  const number = /^(?:0[xX]([\da-fA-F]+)|0([0-7]*)|([1-9]\d*))$/.exec(word);
  if (number === null) return false;
  const [, hex, octal, decimal] = number;
  const value = hex !== undefined
    ? BigInt(`0x${hex}`)
    : octal !== undefined
    ? BigInt(`0o${octal || "0"}`)
    : BigInt(decimal);
  return value > 0n && value < 2n ** 63n;
}

/**
 * A bind's source as bwrap reaches it: `..` taken after the links before it
 * are followed, which only the machine itself can tell.
 */
function sourcePath(option: string, path: string, machine: Machine): string {
  if (!hasDotDot(path)) return absolute(option, path);
  const real = path.startsWith("/") ? machine.realPath(path) : undefined;
  if (real === undefined) throw dotDot(option, path);
  return real;
}

/**
 * The machine's links into `/proc/self/fd`: each leads to a descriptor of
 * whichever process follows it (bwrap's, or the judge's, each its own
 * `stdin`: a pipe, `/dev/null`, a terminal).
 */
const BY_PROCESS_LINKS = ["/dev/fd", "/dev/stdin", "/dev/stdout", "/dev/stderr"];

/**
 * Whether `path` is under the machine's `/proc` (or one of its links into
 * `/proc/self/fd`: {@linkcode BY_PROCESS_LINKS}), where which processes run,
 * and who runs them, decide where it leads: a process's root link leads to
 * the whole file system as that process sees it, bwrap's own descriptor of
 * `/proc` to every process's, and its `stdin` is not the judge's.
 */
function byProcessPath(path: string): boolean {
  return path.startsWith("/proc/") || BY_PROCESS_LINKS.some((link) => within(path, link));
}

/** Why a path under the machine's `/proc` is not judged (see {@linkcode byProcessPath}). */
function byProcess(option: string, path: string): CannotJudgeError {
  return new CannotJudgeError(
    `bwrap ${option} ${path}: where a path under the machine's /proc leads depends on ` +
      "which processes run, and who runs them",
  );
}

/** Whether `path` has a `..` part. */
function hasDotDot(path: string): boolean {
  return path.split("/").includes("..");
}

/** Why a path with `..` is not judged where the machine cannot say where it leads. */
function dotDot(option: string, path: string): CannotJudgeError {
  return new CannotJudgeError(
    `bwrap ${option} ${path}: bwrap follows the links before ".." first, ` +
      "so where it leads depends on what those links are",
  );
}

/** `path` normalized; throws unless it is absolute, and for a `..` in it. */
function absolute(option: string, path: string): string {
  if (!path.startsWith("/")) {
    throw new CannotJudgeError(`bwrap ${option} ${JSON.stringify(path)}: not an absolute path`);
  }
  if (hasDotDot(path)) throw dotDot(option, path);
  const normal = posix.normalize(path);
  return normal.length > 1 ? normal.replace(/\/+$/, "") : normal;
}
