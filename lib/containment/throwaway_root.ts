/**
 * Where the autograder runs a learner's bubblewrap command line: a machine
 * of its own, made by the grader, in which the line runs as nobody who
 * matters. Its root shows only what the grader names (the intruder's
 * runtime and `/etc`, read-only), the folders of the machine's `PATH`
 * (read-only: a bare program name finds there what it finds on the
 * machine) and one writable folder (the playground);
 * its `/proc` is its own, so no process's root link leads out of it; and
 * the line runs there as a user of its own (a random uid no process uses,
 * which owns the playground), with no capabilities and no way to gain any
 * (`setpriv`). The learner's bubblewrap therefore makes its sandbox as any
 * user does, in a user namespace whose root is nobody on the machine: what
 * it binds keeps the machine's permissions, what it makes lands in the
 * playground or nowhere. Its processes live in the machine's own PID
 * namespace (`nsenter`), which lasts until the grader ends it, so that a
 * process the line lets outlive its server is still there to be seen.
 *
 * It needs root, to set all this up; elsewhere Chapter 15 predicts the
 * effect of a line from its grants instead.
 *
 * @module
 */

import { dirname } from "node:path";
import { systemFolders } from "./policy.ts";
import { hostPath, hostProgram } from "./_machine.ts";
import { family } from "./process_table.ts";
import { isRunning } from "../mcp/client/process_group.ts";

/** util-linux's programs that enter the machine and drop privileges (Debian's paths). */
const NSENTER = "/usr/bin/nsenter";
const SETPRIV = "/usr/bin/setpriv";
/** Where the machine's `/proc` is mounted, out of reach (see {@linkcode ThrowawayRoot.open}). */
const HIDDEN = "/.ch15-hidden";
/** The first of the uids a throw-away root picks its user from, and how many there are. */
const UIDS = { first: 2_000_000_000, count: 1 << 24 };

/** What {@linkcode ThrowawayRoot.open} shows, and what it may write. */
export interface ThrowawayRootOptions {
  /** The machine's paths shown read-only, each at its own path (where the machine has it). */
  shows: readonly string[];
  /** The one folder the programs in it may write, handed to its user. */
  writable: string;
}

/** A machine of the grader's making, for running a learner's command line (see the module). */
export class ThrowawayRoot implements AsyncDisposable {
  /** The user its programs run as: nobody on this machine but the owner of `writable`. */
  readonly uid: number;
  readonly #holder: Deno.ChildProcess;
  /** The process whose namespaces each command joins: the holder's first. */
  readonly #init: number;
  /** What reads the holder's output and errors, until it ends. */
  readonly #streams: [ReadableStreamDefaultReader<string>, Promise<string>];

  private constructor(
    uid: number,
    holder: Deno.ChildProcess,
    streams: [ReadableStreamDefaultReader<string>, Promise<string>],
  ) {
    this.uid = uid;
    this.#holder = holder;
    this.#streams = streams;
    // The holder's first child: bubblewrap's init, in the namespaces it made.
    this.#init = family(holder.pid)[1];
  }

  /**
   * Make a throw-away root showing `shows` read-only and `writable`
   * writable, and hand `writable` (its links left alone) to a fresh user.
   * Besides them it has its own `/dev` and `/proc`. bubblewrap run by a user
   * may mount a `/proc` only where one is in full sight, which the holder's
   * own (whose writable parts root's bubblewrap covers) is not: the
   * machine's is mounted too, and covered by an empty folder, where no path
   * reaches it. Throws where it cannot be made (ask
   * {@linkcode throwAwayRootWorks} first).
   *
   * @example Its programs run as its own user
   * ```ts
   * import assert from "node:assert/strict";
   *
   * import { systemFolders } from "./policy.ts";
   *
   * if (await throwAwayRootWorks()) {
   *   const writable = await Deno.makeTempDir();
   *   {
   *     await using root = await ThrowawayRoot.open({ shows: systemFolders(), writable });
   *     const [program, ...args] = root.command(["/usr/bin/id", "-u"]);
   *     const { stdout } = await new Deno.Command(program, { args }).output();
   *     assert.equal(new TextDecoder().decode(stdout).trim(), String(root.uid));
   *     assert.equal(Deno.statSync(writable).uid, root.uid);
   *   }
   *   await Deno.remove(writable, { recursive: true });
   * }
   * ```
   */
  static async open(options: ThrowawayRootOptions): Promise<ThrowawayRoot> {
    const uid = freeUid();
    await handOver(options.writable, uid);
    const mounts: string[] = [];
    const made = new Set<string>();
    const bind = (option: string, path: string) => {
      // bwrap, run by root, makes the folders above a mount point for root alone.
      const above: string[] = [];
      for (let dir = dirname(path); dir !== "/"; dir = dirname(dir)) above.unshift(dir);
      for (const dir of above.filter((dir) => !made.has(dir))) {
        mounts.push("--perms", "0755", "--dir", dir);
        made.add(dir);
      }
      mounts.push(option, path, path);
      made.add(path);
    };
    // What the machine lacks, the root lacks too. The folders of the machine's PATH are shown
    // too, so that a bare word in a line finds in the root the program it finds on the machine.
    const shown = new Set([...options.shows, ...hostPath().filter((dir) => dir.startsWith("/"))]);
    for (const path of [...shown].sort()) bind("--ro-bind-try", path);
    bind("--bind", options.writable);
    const holder = new Deno.Command("bwrap", {
      args: [
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        ...mounts,
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--bind",
        "/proc",
        `${HIDDEN}/proc`,
        "--tmpfs",
        HIDDEN,
        "--",
        "/bin/sh",
        "-c",
        "echo ready && exec cat",
      ],
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const errors = new Response(holder.stderr).text();
    const [said, output] = await firstLine(holder.stdout);
    if (said !== "ready") {
      await holder.stdin.close().catch(() => {});
      await Promise.all([holder.status, output.cancel()]);
      const why = (await errors).trim().split("\n").at(-1);
      throw new Error(`the throw-away root did not start (bwrap said: ${why})`);
    }
    return new ThrowawayRoot(uid, holder, [output, errors]);
  }

  /**
   * The command line that runs `argv` in this root: in its namespaces, as
   * {@linkcode uid}, with no capabilities and no way to gain any. A program
   * named by a bare word is the one this process's `PATH` finds (by its real
   * path, which the root shows): the `PATH` itself may name folders the root
   * does not show, as CI's fresh one does.
   */
  command(argv: readonly string[]): string[] {
    const [program, ...args] = argv;
    const found = program.includes("/") ? program : hostProgram(program) ?? program;
    return [
      NSENTER,
      `--target=${this.#init}`,
      "--mount",
      "--pid",
      "--root",
      "--wd",
      "--",
      SETPRIV,
      `--reuid=${this.uid}`,
      `--regid=${this.uid}`,
      "--clear-groups",
      "--inh-caps=-all",
      "--bounding-set=-all",
      "--no-new-privs",
      "--",
      found,
      ...args,
    ];
  }

  /** End it, and every process in it: resolves once none is left. */
  async [Symbol.asyncDispose](): Promise<void> {
    // Its first process ends with the holder's input, and the kernel kills every process of its
    // PID namespace then, each a moment later; its user runs nothing else.
    await this.#holder.stdin.close().catch(() => {});
    const [output, errors] = this.#streams;
    await Promise.all([this.#holder.status, output.cancel(), errors]);
    const deadline = Date.now() + 10_000;
    for (let left = processesOf(this.uid); left.length > 0; left = processesOf(this.uid)) {
      if (Date.now() > deadline) {
        throw new Error(`processes of the throw-away root outlived SIGKILL: ${left.join(", ")}`);
      }
      for (const pid of left) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch {
          // Gone meanwhile.
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** The live processes, each with the uid it runs as. */
function processes(): [number, number][] {
  const found: [number, number][] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name) || !isRunning(Number(entry.name))) continue;
    try {
      found.push([Number(entry.name), Deno.statSync(`/proc/${entry.name}`).uid!]);
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** The live processes running as `uid`. */
function processesOf(uid: number): number[] {
  return processes().filter(([, owner]) => owner === uid).map(([pid]) => pid);
}

/** A uid that no process runs as, at random from {@linkcode UIDS}. */
function freeUid(): number {
  const taken = new Set(processes().map(([, uid]) => uid));
  for (;;) {
    const uid = UIDS.first + crypto.getRandomValues(new Uint32Array(1))[0] % UIDS.count;
    if (!taken.has(uid)) return uid;
  }
}

/** Give `folder` and what it holds to `uid` (links left as they are: chown would follow them). */
async function handOver(folder: string, uid: number): Promise<void> {
  await Deno.chown(folder, uid, uid);
  for await (const entry of Deno.readDir(folder)) {
    const path = `${folder}/${entry.name}`;
    if (entry.isSymlink) continue;
    if (entry.isDirectory) await handOver(path, uid);
    else await Deno.chown(path, uid, uid);
  }
}

/** The first line of `stream` (or `undefined` at its end), and the reader, still open. */
async function firstLine(
  stream: ReadableStream<Uint8Array>,
): Promise<[string | undefined, ReadableStreamDefaultReader<string>]> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) return [undefined, reader];
    text += value;
  }
  return [text.slice(0, text.indexOf("\n")), reader];
}

let works: Promise<boolean> | undefined;

/**
 * Whether a learner's bubblewrap, with every namespace of its own and its
 * own `/proc`, starts in a {@linkcode ThrowawayRoot} on this machine (asked
 * once). Never where the grader is not root.
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
    if (Deno.uid() !== 0) return false;
    const folder = await Deno.makeTempDir({ prefix: "ch15-throwaway-" });
    try {
      await using root = await ThrowawayRoot.open({ shows: systemFolders(), writable: folder });
      const inner = [
        "--unshare-all",
        "--die-with-parent",
        "--ro-bind",
        "/",
        "/",
        "--proc",
        "/proc",
      ];
      const [program, ...args] = root.command(["bwrap", ...inner, "/usr/bin/true"]);
      const { success } = await new Deno.Command(program, {
        args,
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
