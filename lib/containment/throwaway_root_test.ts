// The throw-away root against the lines a hostile learner would run in it:
// each route from a sandbox to the machine's own file system (a process's
// root link, bubblewrap's own descriptor of /proc, the root bound writable,
// every capability) is tried for real, and the machine is checked afterwards.

import assert from "node:assert/strict";
import { systemFolders } from "./policy.ts";
import { isRunning } from "../mcp/client/process_group.ts";
import { ThrowawayRoot, throwAwayRootWorks } from "./throwaway_root.ts";

const ignore = !(await throwAwayRootWorks());

/** Run `body` with a throw-away root showing the system folders and `shows`, writing a folder of its own. */
async function inRoot(
  shows: string[],
  body: (root: ThrowawayRoot, writable: string) => Promise<void>,
): Promise<void> {
  const writable = await Deno.makeTempDir({ prefix: "ch15-throwaway-test-" });
  try {
    await using root = await ThrowawayRoot.open({
      shows: [...systemFolders(), ...shows],
      writable,
    });
    await body(root, writable);
  } finally {
    await Deno.remove(writable, { recursive: true });
  }
}

/** Run `argv` in `root`; its exit code and what it printed. */
async function run(root: ThrowawayRoot, argv: string[]): Promise<[number, string]> {
  const [program, ...args] = root.command(argv);
  const { code, stdout, stderr } = await new Deno.Command(program, {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return [code, decoder.decode(stdout) + decoder.decode(stderr)];
}

/** The live processes running as `uid`. */
function processesOf(uid: number): number[] {
  return [...Deno.readDirSync("/proc")].map((entry) => Number(entry.name)).filter((pid) => {
    try {
      return Deno.statSync(`/proc/${pid}`).uid === uid && isRunning(pid);
    } catch {
      return false;
    }
  });
}

Deno.test({
  name:
    "a program named by a bare word runs in the root when PATH names folders the root does not show",
  ignore,
  async fn() {
    // CI's fresh PATH is a folder of links that no root shows. A PATH is the whole process's, and
    // test files run side by side in one process: the root is opened in a process of its own.
    const links = await Deno.makeTempDir({ prefix: "ch15-path-" });
    try {
      await Deno.symlink(Deno.realPathSync("/usr/bin/bwrap"), `${links}/bwrap`);
      const module = (name: string) => JSON.stringify(new URL(name, import.meta.url).href);
      const script = `
        import { systemFolders } from ${module("./policy.ts")};
        import { ThrowawayRoot } from ${module("./throwaway_root.ts")};
        const writable = await Deno.makeTempDir({ prefix: "ch15-throwaway-test-" });
        try {
          await using root = await ThrowawayRoot.open({ shows: systemFolders(), writable });
          const inner = ["--unshare-all", "--ro-bind", "/", "/", "--proc", "/proc", "/usr/bin/true"];
          const [program, ...args] = root.command(["bwrap", ...inner]);
          const { code, stderr } = await new Deno.Command(program, { args, stdin: "null" }).output();
          console.log(code, new TextDecoder().decode(stderr));
        } finally {
          await Deno.remove(writable, { recursive: true });
        }`;
      const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
        args: ["eval", "--no-config", script],
        env: { PATH: links },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const decoder = new TextDecoder();
      const said = decoder.decode(stdout) + decoder.decode(stderr);
      assert.ok(success, said);
      assert.match(said, /^0 /, said);
    } finally {
      await Deno.remove(links, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "a throw-away root runs its programs as a user of its own, with no capabilities, among its own processes",
  ignore,
  fn: () =>
    // A path the machine lacks is left out, as on the machine.
    inRoot(["/no/such/path"], async (root, writable) => {
      const [code, said] = await run(root, [
        "/bin/sh",
        "-c",
        "id -u; grep -E '^Cap(Prm|Eff|Bnd)' /proc/self/status; ls /proc | grep -c '^[0-9]'; " +
        "touch /usr/x 2>/dev/null || echo read-only; touch $0/x && echo writable",
        writable,
      ]);
      assert.equal(code, 0, said);
      const [uid, prm, eff, bnd, processes, usr, mine] = said.trim().split("\n");
      assert.equal(uid, String(root.uid));
      assert.ok(root.uid > 65535, uid);
      for (const caps of [prm, eff, bnd]) assert.match(caps, /:\s+0+$/);
      // Its first process, the shell, grep and ls: nothing of the machine's.
      assert.ok(Number(processes) <= 6, processes);
      assert.deepEqual([usr, mine], ["read-only", "writable"]);
    }),
});

Deno.test({
  name:
    "a learner's bubblewrap in a throw-away root writes nothing on the machine: not through a process's root link, bwrap's own /proc, / bound writable, or every capability",
  ignore,
  fn: async () => {
    const shown = await Deno.makeTempDir({ prefix: "ch15-throwaway-shown-" });
    const nonce = `ch15-escape-${crypto.randomUUID()}`;
    // Where an escape would land: the machine's /tmp, and a folder the root shows read-only.
    const targets = [`/tmp/${nonce}`, `${shown}/${nonce}`];
    let uid = 0;
    try {
      await inRoot([shown], async (root) => {
        uid = root.uid;
        const lines = targets.flatMap((target) => [
          // The routes that worked as root, in the throw-away root of issue 30.
          ["--unshare-pid", "--bind", "/proc", "/proc", "--dir", `/proc/${Deno.pid}/root${target}`],
          ...[3, 4, 5].flatMap((fd) => [
            [
              "--unshare-pid",
              "--bind",
              `/dev/fd/${fd}`,
              "/opt/p",
              "--dir",
              `/opt/p/1/root${target}`,
            ],
            ["--bind", `/dev/fd/${fd}`, "/opt/p", "--dir", `/opt/p/${Deno.pid}/root${target}`],
          ]),
          ["--bind", `/proc/${Deno.pid}/root/`, "/opt/r", "--dir", `/opt/r${target}`],
          ["--bind", "/proc/1/root", "/opt/r", "--dir", `/opt/r${target}`],
          ["--bind", "/proc/self/root", "/opt/r", "--dir", `/opt/r${target}`],
          ["--bind", "/", "/", "--dir", target],
          ["--cap-add", "ALL", "--bind", "/", "/", "--dir", target],
          ["--unshare-all", "--cap-add", "ALL", "--bind", "/", "/", "--dir", target],
          ["--dev-bind", "/", "/", "--dir", target],
        ]);
        for (const line of lines) {
          await run(root, ["bwrap", ...line, "--", "/usr/bin/true"]);
          for (const target of targets) {
            const made = await Deno.lstat(target).then(() => true, () => false);
            assert.equal(made, false, `${line.join(" ")} made ${target}`);
          }
        }
      });
      assert.deepEqual(processesOf(uid), [], "a process of the throw-away root's user is left");
    } finally {
      for (const target of targets) await Deno.remove(target, { recursive: true }).catch(() => {});
      await Deno.remove(shown, { recursive: true });
    }
  },
});

Deno.test({
  name: "a process that leaves its session in a throw-away root lasts until the root ends",
  ignore,
  fn: async () => {
    let uid = 0;
    let daemons: number[] = [];
    await inRoot([], async (root) => {
      uid = root.uid;
      const [code, said] = await run(root, [
        "/bin/sh",
        "-c",
        "/usr/bin/setsid /bin/sleep 300 </dev/null >/dev/null 2>&1 &",
      ]);
      assert.equal(code, 0, said);
      // The shell has gone; what runs as the root's user now is the daemon.
      for (let tries = 0; daemons.length === 0 && tries < 100; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        daemons = processesOf(uid);
      }
      assert.equal(daemons.length, 1, "the daemon outlived the shell that started it");
    });
    assert.equal(isRunning(daemons[0]), false, "the daemon ended with the root");
    assert.deepEqual(processesOf(uid), []);
  },
});
