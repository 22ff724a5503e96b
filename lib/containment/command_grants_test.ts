// commandGrants against the real thing: bubblewrap and prlimit run a shell
// that reports what it sees (which paths exist and which it may write, its
// environment, its network interfaces, its limits), and the grants
// commandGrants computed from the same command line must say the same.

import assert from "node:assert/strict";
import { bubblewrapStatus } from "./bubblewrap.ts";
import { commandGrants } from "./command_grants.ts";

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
   /usr/bin/env | /usr/bin/grep '^COURSE_' | /usr/bin/sort`,
];

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
  const grants = commandGrants(argv);
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

Deno.test("commandGrants refuses what it cannot judge, naming it", () => {
  const cases: [unknown, RegExp][] = [
    [[], /non-empty array/],
    ["bwrap --unshare-all true", /non-empty array/],
    [["bwrap", 7], /holds strings/],
    [["prlimit", "-t1", "true"], /-t1/],
    [["prlimit", "--cpu", "true"], /sets nothing/],
    [["prlimit", "--cpu=1G", "true"], /not a number/],
    [["prlimit", "--pid=1", "true"], /--pid/],
    [["bwrap", "--ro-bind", "/usr"], /needs 2/],
    [["bwrap", "--ro-bind", "usr", "/usr", "true"], /not an absolute path/],
    [["bwrap", "--seccomp", "3", "true"], /file descriptor/],
    [["bwrap", "--frobnicate", "true"], /--frobnicate/],
    [["bwrap", "--unshare-all"], /runs no program/],
    [["bwrap", "--", "bwrap", "--", "true"], /inside a sandbox/],
  ];
  for (const [argv, message] of cases) {
    assert.throws(
      () => commandGrants(argv),
      (error) => error instanceof TypeError && message.test(error.message),
      JSON.stringify(argv),
    );
  }
});

Deno.test("commandGrants keeps capabilities, soft and hard limits, and the program's own options", () => {
  const grants = commandGrants([
    "bwrap",
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
  assert.deepEqual(grants.limits, ["data 100 soft, 200 hard", "nofile unlimited"]);
  assert.deepEqual(grants.command, ["/bin/echo", "--cpu=9"]);
});
