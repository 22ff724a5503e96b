// commandGrants against the real thing: bubblewrap and prlimit run a shell
// that reports what it sees (which paths exist and which it may write, its
// environment, its network interfaces, its limits), and the grants
// commandGrants computed from the same command line must say the same.

import assert from "node:assert/strict";
import { bubblewrapStatus } from "./bubblewrap.ts";
import { commandGrants, THIS_MACHINE } from "./command_grants.ts";

const root = await Deno.makeTempDir({ prefix: "command-grants-" });
const DATA = `${root}/data`;
await Deno.mkdir(DATA);
await Deno.writeTextFile(`${DATA}/note.txt`, "n");
globalThis.addEventListener("unload", () => Deno.removeSync(root, { recursive: true }));
const { available, reason } = await bubblewrapStatus();

const SYSTEM = [
  "--ro-bind",
  "/usr",
  "/usr",
  "--symlink",
  "usr/bin",
  "/bin",
  "--symlink",
  "usr/lib",
  "/lib",
];
const LIB64 = (() => {
  try {
    Deno.lstatSync("/lib64");
    return ["--symlink", "usr/lib64", "/lib64"];
  } catch {
    return [];
  }
})();
const REPORT = [
  "/bin/sh",
  "-c",
  `for p in ${DATA}/note.txt /etc/hostname /root; do
     if [ -e "$p" ]; then if [ -w "$p" ] && /usr/bin/touch "$p" 2>/dev/null; then echo "$p rw"; else echo "$p ro"; fi; else echo "$p absent"; fi
   done
   echo "interfaces $(/usr/bin/tail -n +3 /proc/net/dev | /usr/bin/wc -l)"
   echo "cpu $(ulimit -S -t):$(ulimit -H -t)"
   /usr/bin/env | /usr/bin/grep '^COURSE_' | /usr/bin/sort
   /usr/bin/tr '\\0' '\\n' </proc/1/environ | /usr/bin/grep -q '^COURSE_OUTER=' && echo "PID 1 holds COURSE_OUTER"
   /usr/bin/grep -q '^CapEff:[[:space:]]*0*$' /proc/self/status || echo "capabilities kept"`,
];

/** Whether bubblewrap runs as root here, as the lesson runs it (the grants say what root's keeps). */
const ROOT = Deno.uid() === 0;

/** What the shell reports from inside `options` (bubblewrap's, then maybe prlimit). */
async function inside(argv: string[]): Promise<string[]> {
  const { success, stdout, stderr } = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    env: { COURSE_OUTER: "kept" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(success, new TextDecoder().decode(stderr));
  return new TextDecoder().decode(stdout).trim().split("\n");
}

/** What the grants say the same shell would report. */
function predicted(argv: string[]): string[] {
  // The paths are this machine's: a made-up machine does not say it has them.
  const grants = commandGrants(argv, THIS_MACHINE);
  const sandbox = grants.sandbox!;
  const seen = (path: string) => {
    let best = -1;
    let what = "absent";
    for (const entry of sandbox.paths) {
      const [dest, ...rest] = entry.split(" ");
      const covers = dest === "/" || path === dest || path.startsWith(`${dest}/`);
      if (covers && dest.length > best) {
        best = dest.length;
        what = rest.join(" ");
      }
    }
    return what.startsWith("read-write") ? "rw" : what.startsWith("read-only") ? "ro" : "absent";
  };
  const cpu = grants.limits.find((limit) => limit.startsWith("cpu "))?.slice(4) ?? "unlimited";
  const [soft, hard] = cpu.includes(" soft, ")
    ? cpu.replace(" hard", "").split(" soft, ")
    : [cpu, cpu];
  return [
    ...[`${DATA}/note.txt`, "/etc/hostname", "/root"].map((path) => `${path} ${seen(path)}`),
    `interfaces ${sandbox.network === "none" ? 1 : "more"}`,
    `cpu ${soft}:${hard === "unchanged" ? "unlimited" : hard}`,
    ...(sandbox.environment[0] === "inherited" &&
        !sandbox.environment.includes("without COURSE_OUTER")
      ? ["COURSE_OUTER=kept"]
      : []),
    ...sandbox.environment.filter((entry) => entry.startsWith("COURSE_")),
    ...(sandbox.reaper ? ["PID 1 holds COURSE_OUTER"] : []),
    ...(ROOT && sandbox.capabilities.length > 0 ? ["capabilities kept"] : []),
  ].sort();
}

const CASES: [string, string[]][] = [
  ["data bound read-only after a private /tmp", [
    "--unshare-all",
    "--die-with-parent",
    "--clearenv",
    ...SYSTEM,
    ...LIB64,
    "--tmpfs",
    "/tmp",
    "--ro-bind",
    DATA,
    DATA,
  ]],
  ["a private /tmp after the data hides it", [
    "--unshare-all",
    ...SYSTEM,
    ...LIB64,
    "--ro-bind",
    DATA,
    DATA,
    "--tmpfs",
    "/tmp",
  ]],
  ["bound writable, then remounted read-only", [
    "--unshare-net",
    ...SYSTEM,
    ...LIB64,
    "--tmpfs",
    "/tmp",
    "--bind",
    DATA,
    DATA,
    "--remount-ro",
    DATA,
    "--setenv",
    "COURSE_A",
    "1",
  ]],
  ["bound writable; the environment set, then cleared", [
    "--unshare-net",
    ...SYSTEM,
    ...LIB64,
    "--tmpfs",
    "/tmp",
    "--bind",
    DATA,
    DATA,
    "--setenv",
    "COURSE_A",
    "1",
    "--clearenv",
    "--setenv",
    "COURSE_B",
    "2",
  ]],
  ["the whole machine read-only, the network shared again", [
    "--unshare-all",
    "--share-net",
    "--ro-bind",
    "/",
    "/",
    "--unsetenv",
    "COURSE_OUTER",
  ]],
  ["bubblewrap's PID 1 left out, every capability dropped", [
    "--unshare-all",
    "--as-pid-1",
    "--cap-drop",
    "ALL",
    "--clearenv",
    ...SYSTEM,
    ...LIB64,
    "--ro-bind",
    DATA,
    DATA,
  ]],
  ["one capability dropped, another added back", [
    "--unshare-pid",
    "--cap-drop",
    "CAP_NET_RAW",
    "--cap-add",
    "cap_chown",
    ...SYSTEM,
    ...LIB64,
  ]],
  ["--share-net before --unshare-all shares nothing", [
    "--share-net",
    "--unshare-all",
    "--ro-bind",
    "/",
    "/",
  ]],
];

for (const [label, options] of CASES) {
  for (const limits of [[], ["--cpu=5"], ["--cpu=5:"]]) {
    const name = `commandGrants says what bubblewrap gives: ${label} ${limits.join(" ")}`;
    Deno.test({ name, ignore: !available }, async () => {
      const argv = [
        ...(limits.length > 0 ? ["prlimit", ...limits, "--"] : []),
        "bwrap",
        ...options,
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--",
        ...REPORT,
      ];
      const seen = (await inside(argv)).map((line) =>
        line.startsWith("interfaces ") && line !== "interfaces 1" ? "interfaces more" : line
      ).sort();
      assert.deepEqual(seen, predicted(argv));
    });
  }
}

Deno.test("bubblewrap's availability is known", () => {
  assert.ok(available || reason.length > 0);
});

/** The capabilities a program is left by bwrap with `options`, as its `CapEff` bits, or what bwrap said. */
async function effective(options: string[]): Promise<bigint | string> {
  const { code, stdout, stderr } = await new Deno.Command("bwrap", {
    args: [
      ...options,
      "--ro-bind",
      "/",
      "/",
      "--proc",
      "/proc",
      "/usr/bin/grep",
      "CapEff",
      "/proc/self/status",
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (code !== 0) return new TextDecoder().decode(stderr).trim();
  return BigInt(`0x${/CapEff:\s*([\da-f]+)/.exec(new TextDecoder().decode(stdout))![1]}`);
}

Deno.test({
  name:
    "commandGrants reads a capability as bwrap does: by name, by a number in any base, past the kernel's last",
  ignore: !available || Deno.uid() !== 0,
}, async () => {
  // The bits of the capabilities named below; root's own are what "ALL" keeps.
  const BITS: Record<string, bigint> = {
    CAP_CHOWN: 0n,
    CAP_SYS_RAWIO: 17n,
    CAP_SYS_ADMIN: 21n,
    CAP_CHECKPOINT_RESTORE: 40n,
  };
  const own = await effective([]);
  assert.equal(typeof own, "bigint", String(own));
  const mask = (capabilities: string[]) =>
    capabilities.reduce(
      (bits, cap) =>
        cap === "ALL"
          ? bits | (own as bigint)
          : cap.startsWith("without ")
          ? bits & ~(1n << BITS[cap.slice(8)])
          : bits | (1n << BITS[cap]),
      0n,
    ) & (own as bigint);
  const taken = ["cap_chown", "CAP_Sys_Admin", "cap_chown,x", "cap_sys_admin x", "21", "021"]
    .concat(["00021", "0x15", "0X15", "21x", "0x", "08", "40", "41", "63", "0x3f"]);
  const refused = [
    "64",
    "0x40",
    "0100",
    "cap_chownx",
    "chown",
    "99999999999999999999",
    "cap_\u017fys_admin",
  ];
  for (const word of [...taken, ...refused]) {
    for (const options of [["--cap-drop", "ALL", "--cap-add", word], ["--cap-drop", word]]) {
      const argv = ["bwrap", ...options, "--ro-bind", "/", "/", "true"];
      const real = await effective(options);
      let judged: bigint | string;
      try {
        judged = mask(commandGrants(argv, THIS_MACHINE).sandbox!.capabilities);
      } catch (error) {
        judged = String(error);
      }
      if (typeof real === "string") {
        assert.match(
          String(judged),
          /not a capability, and bwrap stops there/,
          `${options}: ${real}`,
        );
      } else assert.equal(judged, real, `${options.join(" ")}`);
    }
  }
});

Deno.test("commandGrants reads a limit as this machine's prlimit does: as C's strtoull, -1 and 2^64-1 unlimited", async () => {
  /** The CPU limits, soft and hard, of a program run with `args`, or what prlimit said. */
  const real = async (args: string[]) => {
    const { code, stdout, stderr } = await new Deno.Command("prlimit", {
      args: [...args, "--", "/usr/bin/grep", "Max cpu time", "/proc/self/limits"],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (code !== 0) return new TextDecoder().decode(stderr).trim();
    return new TextDecoder().decode(stdout).split(/\s+/).slice(3, 5).join(" ");
  };
  const [, hard] = (await real([])).split(" ");
  // Not 0 (with "0x10" and "-0", which are 0): a program given no CPU time may be ended before it reports.
  const words = [
    ...[
      "10",
      "010",
      "+10",
      " 10",
      "10x",
      "1K",
      "-1",
      "1-",
      "5 ",
      "unlimited",
      "10:",
      "10:unlimited",
    ],
    ...["18446744073709551615", "18446744073709551614", "-18446744073709551615", "5:-1"],
    ...["infinity", "18446744073709551616", "x", "-", "--5", "unlimited:", "-1:5", "9:infinity"],
  ];
  for (const word of words) {
    const said = await real([`--cpu=${word}`]);
    let judged: string;
    try {
      const [limit] = commandGrants(["prlimit", `--cpu=${word}`, "true"]).limits;
      const [, soft, , own] = /^cpu (\S+)( soft, (\S+) hard)?$/.exec(limit)!;
      judged = `${soft} ${own === undefined ? soft : own === "unchanged" ? hard : own}`;
    } catch (error) {
      judged = String(error);
    }
    if (/^\S+ \S+$/.test(said)) assert.equal(judged, said, word);
    else assert.match(judged, /prlimit stops there|soft limit is above/, `${word}: ${said}`);
  }
});

Deno.test("commandGrants refuses what it cannot judge, naming it", () => {
  const cases: [unknown, RegExp][] = [
    [[], /non-empty array/],
    ["bwrap --unshare-all true", /non-empty array/],
    [["bwrap", 7], /holds strings/],
    [["prlimit", "-t1", "true"], /-t1/],
    [["prlimit", "--cpu", "true"], /sets nothing/],
    [["prlimit", "--cpu=G", "true"], /no limit, and prlimit stops there/],
    [["prlimit", "--pid=1", "true"], /--pid/],
    [["bwrap", "--ro-bind", "/usr"], /needs 2/],
    [["bwrap", "--ro-bind", "usr", "/usr", "true"], /not an absolute path/],
    [["bwrap", "--seccomp", "3", "true"], /file descriptor/],
    [["bwrap", "--frobnicate", "true"], /--frobnicate/],
    [["bwrap", "--unshare-all"], /runs no program/],
    [["bwrap", "--", "bwrap", "--", "true"], /inside a sandbox/],
    // Issue 30: read as /srv/data, LINK/.. hid that bwrap shows the link's target's parent.
    [["bwrap", "--ro-bind", "/srv/data/link/..", "/srv/data", "true"], /links before "\.\."/],
    [["bwrap", "--ro-bind", "/srv/data", "/srv/data/link/..", "true"], /links before "\.\."/],
    // Issue 38: a process's root link, by /proc or by bwrap's own descriptor of it, leads to
    // the whole file system as that process sees it.
    [["bwrap", "--bind", "/proc/1/root/tmp", "/opt/tmp", "true"], /\/proc\/1\/root.*processes run/],
    [["bwrap", "--bind", "/proc", "/proc", "--dir", "/proc/1/root/x", "true"], /processes run/],
    [["bwrap", "--bind", "/dev/fd/3", "/opt/p", "true"], /processes run/],
    [["bwrap", "--bind", "/", "/", "--dir", "/dev/fd/3/1/root/x", "true"], /processes run/],
    // bwrap stops at a capability it does not know: a line that drops one never runs.
    [["bwrap", "--cap-drop", "ALL", "--cap-drop", "net_raw", "true"], /not a capability/],
    [["bwrap", "--cap-add", "CAP_FLY", "true"], /not a capability/],
  ];
  for (const [argv, message] of cases) {
    assert.throws(
      () => commandGrants(argv),
      (error) => error instanceof TypeError && message.test(error.message),
      JSON.stringify(argv),
    );
  }
});

Deno.test("a bind's source through a link and .. is judged where the link leads, on this machine", async () => {
  await Deno.mkdir(`${root}/elsewhere/inner`, { recursive: true });
  await Deno.symlink(`${root}/elsewhere/inner`, `${DATA}/link`);
  try {
    const grants = commandGrants(
      ["bwrap", "--ro-bind", `${DATA}/link/..`, "/shown", "true"],
      THIS_MACHINE,
    );
    assert.deepEqual(grants.sandbox?.paths, [`/shown read-only from ${root}/elsewhere`]);
  } finally {
    await Deno.remove(`${DATA}/link`);
  }
});

Deno.test("the namespaces a sandbox shares with the machine are named: --unshare-net and --unshare-pid leave four", () => {
  const shared = (options: string[]) =>
    commandGrants(["bwrap", ...options, "true"]).sandbox?.sharedNamespaces;
  assert.deepEqual(shared(["--unshare-net", "--unshare-pid"]), ["cgroup", "ipc", "user", "uts"]);
  assert.deepEqual(shared(["--unshare-all", "--share-net"]), []);
  assert.deepEqual(
    shared(["--unshare-user-try", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]),
    [],
  );
});

Deno.test("this machine's prlimit and bwrap are known by what runs, not by the first file so named on PATH", async () => {
  // An empty prlimit that may run (a shell runs it, doing nothing) and an empty bwrap that
  // may not, early on PATH: what a bind can leave on a machine.
  const planted = `${root}/planted`;
  await Deno.mkdir(planted);
  await Deno.writeTextFile(`${planted}/prlimit`, "");
  await Deno.chmod(`${planted}/prlimit`, 0o755);
  await Deno.writeTextFile(`${planted}/bwrap`, "");
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "--quiet",
      `import { commandGrants } from ${
        JSON.stringify(new URL("./command_grants.ts", import.meta.url).href)
      };
       const judged = (argv) => { try { return commandGrants(argv).limits; } catch (e) { return e.message; } };
       console.log(JSON.stringify([
         judged(["bwrap", "--unshare-all", "--ro-bind", "/usr", "/usr", "--", "prlimit", "--cpu=1", "--", "/usr/bin/true"]),
         judged(["/usr/bin/prlimit", "--cpu=1", "--", "/usr/bin/true"]),
         judged(["prlimit", "--cpu=1", "--", "/usr/bin/true"]),
       ]));`,
    ],
    env: { PATH: `${planted}:/usr/bin:/bin`, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.ok(success);
  const [inSandbox, byPath, bare] = JSON.parse(new TextDecoder().decode(stdout));
  assert.deepEqual(inSandbox, ["cpu 1"]);
  assert.deepEqual(byPath, ["cpu 1"]);
  // A bare name outside any sandbox runs the planted file: it is not this machine's prlimit.
  assert.match(bare, /not this machine's prlimit \(\/usr\/bin\/prlimit\)/);
});

Deno.test("commandGrants keeps capabilities, soft and hard limits, and the program's own options", () => {
  const grants = commandGrants([
    "bwrap",
    "--cap-drop",
    "ALL",
    "--cap-add",
    "cap_net_raw",
    "--die-with-parent",
    "--ro-bind",
    "/",
    "/",
    "prlimit",
    "--data=100:200",
    "--nofile=unlimited",
    "/bin/echo",
    "--cpu=9",
  ]);
  assert.deepEqual(grants.sandbox?.capabilities, ["CAP_NET_RAW"]);
  // Run by root, bubblewrap keeps every capability of root's but those dropped.
  const kept = (...options: string[]) => commandGrants(["bwrap", ...options, "true"]).sandbox;
  assert.deepEqual(kept()?.capabilities, ["ALL"]);
  assert.deepEqual(kept("--cap-drop", "CAP_NET_RAW")?.capabilities, ["ALL", "without CAP_NET_RAW"]);
  assert.deepEqual(kept("--cap-add", "ALL", "--cap-drop", "ALL")?.capabilities, []);
  assert.deepEqual(kept("--cap-drop", "all", "--cap-add", "21")?.capabilities, ["CAP_SYS_ADMIN"]);
  assert.equal(kept("--unshare-pid")?.reaper, true);
  assert.equal(kept("--unshare-pid", "--as-pid-1")?.reaper, false);
  assert.deepEqual(grants.limits, ["data 100 soft, 200 hard", "nofile unlimited"]);
  assert.deepEqual(grants.command, ["/bin/echo", "--cpu=9"]);
});
