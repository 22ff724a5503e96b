// Round 11 of issue 38's red team on Chapter 15: what the stop before left,
// each a wrong mark or a wrong lesson. The made-up machine of the grants
// cases judged lines bwrap stops at as the honest one, and refused lines
// bwrap runs; each decision here is proved against the real bwrap where it
// runs. And the lesson's policy showed every sandboxed program the machine's
// whole Deno cache. Run:
//   deno test -A tests/attacks_round11/ch15_lines_test.ts

import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CASES } from "../../cases/ch15.ts";
import { type Attempt, observe } from "../../lib/containment/attempts.ts";
import { bubblewrapStatus } from "../../lib/containment/bubblewrap.ts";
import {
  CannotJudgeError,
  commandGrants,
  EVERY_PATH_EXISTS,
  THIS_MACHINE,
} from "../../lib/containment/command_grants.ts";
import { machineFilesBeyond } from "../../lib/containment/effect.ts";
import { Playground } from "../../lib/containment/playground.ts";
import { INTRUDER, intruderPolicy, type Policy } from "../../lib/containment/policy.ts";
import { within } from "../../lib/containment/_sandbox_view.ts";
import { gradeCases } from "../../lib/grading/grading.ts";

const ROOT = new URL("../../", import.meta.url);
const bwrapHere = (await bubblewrapStatus()).available;

/** The worked edition's `limitCommand` and `bwrapCommand`, from their cells, as one module. */
async function workedBwrapCommand(): Promise<
  (policy: Policy, command: readonly string[]) => string[]
> {
  const notebook = JSON.parse(await Deno.readTextFile(new URL("solutions/ch15.ipynb", ROOT)));
  const cell = (id: string) =>
    (notebook.cells as { id: string; source: string[] }[]).find((c) => c.id === id)!.source
      .join("");
  const policyModule = new URL("lib/containment/policy.ts", ROOT).href;
  const module = await Deno.makeTempFile({ suffix: ".ts" });
  await Deno.writeTextFile(
    module,
    `import type { Limits, Policy } from ${JSON.stringify(policyModule)};\n` +
      `${cell("limit-command")}\n${cell("bwrap-command")}\nexport { bwrapCommand };\n`,
  );
  try {
    return (await import(pathToFileURL(module).href)).bwrapCommand;
  } finally {
    await Deno.remove(module);
  }
}

/** The machine's Deno cache, as `deno info` reports it. */
function machineDenoDir(): string {
  const { stdout } = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  return JSON.parse(new TextDecoder().decode(stdout)).denoDir;
}

Deno.test({
  name:
    "Chapter 15: the intruder, sandboxed by the worked edition's line, cannot read a file planted in the machine's Deno cache",
  ignore: !bwrapHere,
  fn: async () => {
    const denoDir = machineDenoDir();
    const token = crypto.randomUUID();
    const planted = join(denoDir, `ch15-round11-${token}.txt`);
    await Deno.writeTextFile(planted, `${token}\n`);
    try {
      await using playground = await Playground.create();
      const policy = await intruderPolicy(playground);
      const bwrapCommand = await workedBwrapCommand();
      const attempt: Attempt = {
        name: "read a file in the machine's Deno cache",
        mode: "read-file",
        target: planted,
        witness: "canary",
        token,
      };
      const run = [Deno.execPath(), "run", "--no-config", "--quiet", "--allow-all", INTRUDER];
      const seen = await observe(
        attempt,
        "bubblewrap",
        (args) => bwrapCommand(policy, [...run, ...args]),
        playground,
      );
      assert.equal(seen.answer, "4", "the intruder started, with a cache of its own, and answered");
      assert.equal(seen.outcome, "refused", seen.saw);
      assert.ok(
        !policy.runtime.paths.some((path) => within(denoDir, path) || within(path, denoDir)),
        `the policy grants nothing of the machine's cache: ${policy.runtime.paths.join(", ")}`,
      );
    } finally {
      await Deno.remove(planted);
    }
  },
});

/** The runtime real bwrap needs to start `/bin/sh` here. */
const SMALL = ["/usr", "/lib", "/lib64", "/bin"].filter((path) => THIS_MACHINE.exists(path))
  .flatMap((path) => ["--ro-bind", path, path]);

/** What this machine's bwrap does with `options` around `sh -c script`: its output, or `undefined` where it stops. */
function bwrapRun(options: string[], script = "true"): string | undefined {
  const { success, stdout } = new Deno.Command("bwrap", {
    // The script's programs from the sandbox's own /usr, whatever PATH the test runs with.
    args: [
      ...SMALL,
      ...options,
      "--setenv",
      "PATH",
      "/usr/bin:/bin",
      "--",
      "/bin/sh",
      "-c",
      script,
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  return success ? new TextDecoder().decode(stdout) : undefined;
}

/** Whether the judge refuses `options` (after a small runtime) on `machine`. */
function refused(options: string[], machine = THIS_MACHINE): boolean {
  try {
    commandGrants(["bwrap", ...SMALL, ...options, "--", "/bin/true"], machine);
    return false;
  } catch (error) {
    if (!(error instanceof CannotJudgeError)) throw error;
    return true;
  }
}

/**
 * The visible case "the intruder's policy", and the worked line with
 * `hidden` put right after `--clearenv`: options whose mounts a later one
 * of the worked line hides, on the made-up machine the case describes.
 */
const MISSING_HIDDEN: [string, string[]][] = [
  ["a missing path bound under /tmp, which the private /tmp hides", [
    "--tmpfs",
    "/tmp",
    "--ro-bind",
    "/opt/no/such/folder",
    "/tmp/x",
  ]],
  ["a missing path bound at /usr, which /usr bound again hides", [
    "--ro-bind",
    "/opt/no/such/folder",
    "/usr",
  ]],
  ["a folder bound, a missing one made in it read-only, then hidden", [
    "--ro-bind",
    "/opt/no/such/folder",
    "/opt/x",
    "--dir",
    "/opt/x/y",
    "--tmpfs",
    "/opt/x",
  ]],
];

for (const [label, hidden] of MISSING_HIDDEN) {
  Deno.test(`Chapter 15's grants case: a line that binds a path the case's machine does not have, then hides it, earns nothing: ${label}`, async () => {
    const worked = await workedBwrapCommand();
    const theCase = CASES.bwrapCommand[0];
    const hostile = (policy: Policy, command: readonly string[]) => {
      const line = worked(policy, command);
      return line.toSpliced(line.indexOf("--clearenv") + 1, 0, ...hidden);
    };
    assert.equal(gradeCases(worked, [theCase], { normalize: commandGrants })[0].status, "PASS");
    const [row] = gradeCases(hostile, [theCase], { normalize: commandGrants });
    assert.equal(row.status, "FAIL", "bwrap stops at the missing path: the program never runs");
    assert.match(row.message, /cannot judge/);
    if (bwrapHere) {
      assert.equal(
        bwrapRun(["--dev", "/dev", ...hidden, "--tmpfs", "/tmp", "--ro-bind", "/usr", "/usr"]),
        undefined,
        "bwrap stops",
      );
    }
  });
}

/**
 * Lines around `--dev`'s own devices, each with whether bwrap starts the
 * program: the judge must refuse exactly those it stops at, on this machine
 * and on the made-up one alike.
 */
const DEVICE_LINES: [string[], "runs" | "stops"][] = [
  [["--ro-bind", "/etc/hostname", "/dev/null"], "runs"],
  [["--remount-ro", "/dev/pts"], "runs"],
  [["--remount-ro", "/dev/pts", "--remount-ro", "/dev/pts"], "runs"],
  [["--dir", "/dev/pts", "--remount-ro", "/dev/pts"], "runs"],
  [["--tmpfs", "/dev/pts", "--remount-ro", "/dev/pts"], "runs"],
  [["--remount-ro", "/dev/pts", "--ro-bind", "/etc/hostname", "/dev/pts/ptmx"], "runs"],
  [["--remount-ro", "/dev", "--ro-bind", "/etc/hostname", "/dev/null"], "runs"],
  [["--remount-ro", "/dev/shm"], "stops"],
  [["--remount-ro", "/dev/pts/ptmx"], "stops"],
  [["--dir", "/dev/pts/x"], "stops"],
  [["--symlink", "a", "/dev/pts/x"], "stops"],
  [["--remount-ro", "/dev/pts", "--tmpfs", "/dev/pts/x"], "stops"],
  [["--tmpfs", "/dev/pts/ptmx"], "stops"],
  [["--symlink", "a", "/dev/pts"], "stops"],
];

for (const [options, outcome] of DEVICE_LINES) {
  Deno.test(`Chapter 15's judge: --dev /dev ${options.join(" ")}: bwrap ${outcome === "runs" ? "runs it, so it is judged" : "stops, so it is refused"}`, () => {
    const line = ["--dev", "/dev", ...options];
    if (bwrapHere) {
      assert.equal(bwrapRun(line) === undefined ? "stops" : "runs", outcome, "premise");
    }
    assert.equal(refused(line), outcome === "stops", "on this machine");
    assert.equal(refused(line, EVERY_PATH_EXISTS), outcome === "stops", "on the cases' machine");
  });
}

Deno.test("Chapter 15's judge: --remount-ro /dev/pts is read-only, and no program may open its devices, as bwrap makes it", () => {
  const line = ["--dev", "/dev", "--remount-ro", "/dev/pts"];
  const { paths } = commandGrants(["bwrap", ...line, "true"], EVERY_PATH_EXISTS).sandbox!;
  assert.deepEqual(paths, [
    "/dev a few devices of its own",
    "/dev/pts pseudo-terminals of its own no program may open, read-only",
  ]);
  if (bwrapHere) {
    const mounts = bwrapRun(
      ["--proc", "/proc", ...line],
      "grep ' /dev/pts ' /proc/self/mountinfo",
    )!;
    assert.match(mounts, / \/dev\/pts ro,[^ ]*nodev/);
  }
});

/**
 * A hard link is the file under each of its names: nothing on it says which
 * name came first, so no grant follows one. A bind of a folder shows every
 * file in it, a hard link of a file elsewhere included (a folder the policy
 * denies), and nothing at the other name; so the grants say what the folder
 * holds by the names in it, and the policy's paths are judged by name. A
 * line cannot make a hard link, so only the machine's owner puts one there.
 */
Deno.test({
  name:
    "Chapter 15's judge: a hard link in a granted folder is that folder's file, as bwrap shows it",
  ignore: !bwrapHere,
  fn: async () => {
    const root = await Deno.makeTempDir({ prefix: "ch15-hard-links-" });
    try {
      const [granted, denied] = [`${root}/granted`, `${root}/denied`];
      await Deno.mkdir(granted);
      await Deno.mkdir(denied);
      await Deno.writeTextFile(`${denied}/key`, "the denied key\n");
      await Deno.link(`${denied}/key`, `${granted}/key`);
      await Deno.writeTextFile(`${granted}/note`, "the granted note\n");
      await Deno.link(`${granted}/note`, `${denied}/note`);
      for (const [shown, other] of [[granted, denied], [denied, granted]]) {
        const line = ["--ro-bind", shown, shown];
        const grants = commandGrants(["bwrap", ...SMALL, ...line, "true"], THIS_MACHINE);
        assert.ok(grants.sandbox!.paths.includes(`${shown} read-only`));
        const seen = bwrapRun(line, `cat ${shown}/key ${shown}/note; ls ${other} 2>&1 || true`)!;
        assert.match(seen, /the denied key\nthe granted note\n/, "both names in the bound folder");
        assert.match(seen, /No such file or directory/, "nothing at the other names");
      }
      const policy: Policy = {
        runtime: { paths: [], env: {} },
        read: [granted],
        write: [],
        net: [],
        env: {},
        run: [],
        deny: [denied],
        limits: { memoryBytes: 1, cpuSeconds: 1 },
      };
      const sandbox = (path: string) =>
        commandGrants(["bwrap", "--ro-bind", path, path, "true"], THIS_MACHINE).sandbox!;
      assert.deepEqual(machineFilesBeyond(sandbox(granted), policy), []);
      assert.deepEqual(machineFilesBeyond(sandbox(denied), policy), [denied]);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
