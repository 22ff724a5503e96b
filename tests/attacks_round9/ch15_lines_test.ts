// Round 9 of issue 38's red team on Chapter 15's graded lines: hostile
// learners holding the release, who want a line the judge reads otherwise
// than bubblewrap does (a line bwrap refuses, judged as the honest one; a
// program found where execvp does not look), and honest learners whose
// right line must keep its mark. Each line goes through the real judges
// (commandGrants, and the effect case: run where bubblewrap runs, predicted
// where it cannot), and, where bubblewrap runs here, through the real bwrap,
// which proves the premise. No attempt of the round still succeeds. Run:
//   deno test -A tests/attacks_round9/ch15_lines_test.ts

import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import {
  CannotJudgeError,
  commandGrants,
  EVERY_PATH_EXISTS_AS_HERE,
  THIS_MACHINE,
} from "../../lib/containment/command_grants.ts";
import { EFFECT_EXPECTED, effectOf, predictedEffect } from "../../lib/containment/effect.ts";
import { bubblewrapStatus } from "../../lib/containment/bubblewrap.ts";
import { bwrapRuns, effectLines } from "../_chapter15.ts";

const { policy, honest, line, data, env } = effectLines();
const bwrapHere = (await bubblewrapStatus()).available;

/** A small sandbox real bwrap can start `/bin/true` in, with `--dev`'s own devices. */
const SMALL = ["--ro-bind", "/usr", "/usr", "--ro-bind", "/lib", "/lib"];
const SMALL_DEV = [...SMALL, "--ro-bind", "/lib64", "/lib64", "--ro-bind", "/bin", "/bin"];

/** A small line around `options` that real bwrap can run `/bin/true` in, with `--dev`'s own devices. */
const small = (
  options: string[],
) => ["bwrap", ...SMALL_DEV, "--dev", "/dev", ...options, "--", "/bin/true"];

/** What this machine's bwrap, run by whoever runs the test, says when it does not start `/bin/true` with `options`. */
function bwrapRefusal(options: string[]): string | undefined {
  const { success, stderr } = new Deno.Command("bwrap", {
    args: small(options).slice(1),
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).outputSync();
  return success ? undefined : new TextDecoder().decode(stderr).trim();
}

/** Whether this machine's bwrap starts `/bin/true` with `options`. */
function bwrapStarts(options: string[]): boolean {
  return bwrapRefusal(options) === undefined;
}

/** The judges' answer for a line: refused, or the grants read and the effect predicted. */
function judged(argv: string[]): string {
  try {
    commandGrants(argv);
  } catch (error) {
    if (!(error instanceof CannotJudgeError)) throw error;
    return "refused";
  }
  try {
    return isDeepStrictEqual(predictedEffect(argv), EFFECT_EXPECTED) ? "earns" : "no mark";
  } catch (error) {
    if (!(error instanceof CannotJudgeError)) throw error;
    return "refused";
  }
}

/**
 * Options that bwrap stops at, put after the honest line's: before, the
 * judge read each as the honest line (its grants, and where bubblewrap cannot
 * run the effect case's mark), though nothing would ever run.
 */
const BWRAP_STOPS: [string, string[]][] = [
  ["--size before another option than --tmpfs", ["--size", "100", "--dir", "/x"]],
  ["--size that is not a number", ["--size", "abc", "--tmpfs", "/x"]],
  ["--size 0", ["--size", "0", "--tmpfs", "/x"]],
  ["a link over --dev's /dev/null", ["--symlink", "/x", "/dev/null"]],
  ["a tmpfs over --dev's /dev/null", ["--tmpfs", "/dev/null"]],
  ["a folder over --dev's /dev/null", ["--dir", "/dev/null"]],
  ["a folder's bind over --dev's /dev/null", ["--ro-bind", "/usr", "/dev/null"]],
  ["a bind over --dev's link /dev/stdin", ["--ro-bind", "/usr", "/dev/stdin"]],
  ["a tmpfs through --dev's link /dev/fd", ["--tmpfs", "/dev/fd"]],
  ["an option with one dash", ["-x"]],
];

for (const [label, extra] of BWRAP_STOPS) {
  Deno.test(`Chapter 15: a line bwrap stops at is not judged as the honest one: ${label}`, () => {
    if (bwrapHere) assert.equal(bwrapStarts(extra), false, "bwrap stops at it");
    const argv = line(...honest, ...extra);
    assert.throws(() => commandGrants(argv), CannotJudgeError);
    assert.throws(() => predictedEffect(argv), CannotJudgeError);
  });
}

/**
 * A file's bind over a folder the sandbox has, a folder's over a file, or
 * anything in a bound file: bwrap stops ("Is a directory", "Not a
 * directory"), and the judge took each line as the honest one, having no
 * idea which a bind's source was. The made-up machine of the grants cases
 * cannot say whether /etc/passwd is a file: refused there too, as where
 * it is this machine's, where something else shows it so (a file bound
 * over it, a later mount hiding it).
 */
const KIND_STOPS: [string, string[]][] = [
  ["a file's bind over /dev, hidden by another --dev", [
    "--ro-bind",
    "/usr/bin/true",
    "/dev",
    "--dev",
    "/dev",
  ]],
  ["a file's bind over the private /tmp", [
    "--tmpfs",
    "/tmp",
    "--ro-bind",
    "/etc/hostname",
    "/tmp",
  ]],
  ["a file's bind over the sandbox's root", ["--ro-bind", "/etc/hostname", "/"]],
  ["a file's bind in a bound file", [
    "--ro-bind",
    "/etc/hostname",
    "/x",
    "--ro-bind",
    "/etc/passwd",
    "/x/y",
  ]],
  ["a tmpfs in a bound file", ["--ro-bind", "/etc/hostname", "/x", "--tmpfs", "/x/y"]],
  ["a tmpfs over a bound file", ["--ro-bind", "/etc/hostname", "/x", "--tmpfs", "/x"]],
  ["a folder over a bound file", ["--ro-bind", "/etc/hostname", "/x", "--dir", "/x"]],
];

/**
 * The same with a bind over another of the machine's files or folders, or
 * over a folder of the sandbox's own, which the made-up machine has as the
 * line needs them (as it has every path a line names, a folder where one is
 * bound over a folder: round 12): refused where the effect case judges a
 * line, on this machine.
 */
const KIND_STOPS_HERE: [string, string[]][] = [
  ["a file's bind over --dev's folder /dev", ["--ro-bind", "/etc/passwd", "/dev"]],
  ["a file's bind over --dev's folder /dev/shm", ["--ro-bind", "/etc/hostname", "/dev/shm"]],
  ["a file's bind over a folder --dir made", ["--dir", "/x", "--ro-bind", "/etc/hostname", "/x"]],
  ["a folder's bind over a bound file", [
    "--ro-bind",
    "/etc/hostname",
    "/x",
    "--ro-bind",
    "/usr",
    "/x",
  ]],
  ["a folder's bind over a file in a bound folder", [
    "--ro-bind",
    "/usr",
    "/x",
    "--ro-bind",
    "/usr",
    "/x/bin/true",
  ]],
  ["a file's bind over a folder in a bound folder", [
    "--ro-bind",
    "/usr",
    "/x",
    "--ro-bind",
    "/etc/hostname",
    "/x/bin",
  ]],
  ["a tmpfs over a file in a bound folder", ["--ro-bind", "/usr", "/x", "--tmpfs", "/x/bin/true"]],
];

for (const [label, extra] of [...KIND_STOPS, ...KIND_STOPS_HERE]) {
  Deno.test(`Chapter 15: a line bwrap stops at is not judged as the honest one: ${label}`, () => {
    const argv = line(...honest, ...extra);
    if (KIND_STOPS.some(([other]) => other === label)) {
      assert.throws(() => commandGrants(argv), CannotJudgeError);
    }
    assert.throws(() => commandGrants(argv, EVERY_PATH_EXISTS_AS_HERE), CannotJudgeError);
    assert.throws(() => predictedEffect(argv), CannotJudgeError);
    if (!bwrapHere) return;
    const said = bwrapRefusal(extra);
    assert.ok(said !== undefined, "bwrap stops at it");
    // On this machine, the judge says why, as bwrap does.
    assert.throws(
      () => commandGrants(small(extra), THIS_MACHINE),
      (error: Error) =>
        error instanceof CannotJudgeError &&
        error.message.includes(said.slice(said.lastIndexOf(": ") + 2)),
    );
  });
}

/** Lines bwrap runs, which the judge refused: an honest learner's line is not "cannot judge". */
const BWRAP_RUNS: [string, string[]][] = [
  ["a size left last, sizing nothing", ["--size", "1048576"]],
  ["a size in hexadecimal", ["--size", "0x100000", "--tmpfs", "/x"]],
  ["a size in octal", ["--size", "04000000", "--tmpfs", "/x"]],
  ["--dev's /dev/null remounted read-only", ["--remount-ro", "/dev/null"]],
  ["a file's bind over --dev's /dev/null", ["--ro-bind", "/etc/hostname", "/dev/null"]],
  ["a file's bind over a file in a bound folder", [
    "--ro-bind",
    "/usr",
    "/x",
    "--ro-bind",
    "/etc/hostname",
    "/x/bin/true",
  ]],
  ["a folder's bind over --dev's folder /dev/shm", ["--ro-bind", "/usr", "/dev/shm"]],
];

for (const [label, extra] of BWRAP_RUNS) {
  Deno.test(`Chapter 15: a line bwrap runs is judged: ${label}`, () => {
    if (bwrapHere) assert.equal(bwrapRefusal(extra), undefined, "bwrap runs it");
    const argv = line(...honest, ...extra);
    commandGrants(argv, EVERY_PATH_EXISTS_AS_HERE);
    if (bwrapHere) commandGrants(small(extra), THIS_MACHINE);
    // Predicted too, but where only running it shows what the programs started read.
    try {
      predictedEffect(argv);
    } catch (error) {
      assert.ok(error instanceof CannotJudgeError && /only running it shows/.test(error.message));
    }
  });
}

Deno.test("Chapter 15: a file bound at /dev/null is not predicted as no /dev/null at all", () => {
  // The shell and setsid the intruder starts read /dev/null: a plain bind of the machine's is
  // nodev (they cannot start), but a file bound there they read, so only running it shows.
  const argv = line(...honest, "--ro-bind", "/etc/hostname", "/dev/null");
  assert.throws(
    () => predictedEffect(argv),
    (error: Error) =>
      error instanceof CannotJudgeError && /only running it shows/.test(error.message),
  );
});

Deno.test("Chapter 15: --dev's /dev/null remounted read-only is no device a program may open", () => {
  // bwrap remounts it without its devices: the shell and setsid the intruder starts read it.
  const { paths } = commandGrants(line(...honest, "--remount-ro", "/dev/null")).sandbox!;
  assert.ok(paths.includes("/dev/null a device no program may open, read-only"));
  if (bwrapHere) {
    const { success } = new Deno.Command("bwrap", {
      args: [
        ...small(["--remount-ro", "/dev/null"]).slice(1, -2),
        "--",
        "/bin/sh",
        "-c",
        ": < /dev/null",
      ],
      stdin: "null",
      stderr: "null",
    }).outputSync();
    assert.equal(success, false, "the shell cannot open it");
  }
});

Deno.test("Chapter 15: with PATH unset, a bare prlimit is the one execvp's default folders hold, not the one the grader's PATH finds", () => {
  // The judge looked a bare program up on the grader's own PATH, where bwrap's execvp (with no
  // PATH) looks in /bin and /usr/bin: here the judge found prlimit at /usr/local/bin and read a
  // CPU limit, where bwrap runs /usr/bin/true, bound at /usr/bin/prlimit, and limits nothing.
  const saved = Deno.env.get("PATH");
  Deno.env.set("PATH", "/usr/local/bin:/usr/bin:/bin");
  const options = [
    ...SMALL,
    "--ro-bind",
    "/lib64",
    "/lib64",
    "--tmpfs",
    "/usr/local/bin",
    "--ro-bind",
    "/usr/bin/prlimit",
    "/usr/local/bin/prlimit",
    "--ro-bind",
    "/usr/bin/true",
    "/usr/bin/prlimit",
    "--unsetenv",
    "PATH",
  ];
  const program = ["prlimit", "--cpu=1", "--", "/usr/bin/sh", "-c", "ulimit -t"];
  try {
    assert.throws(
      () => commandGrants(["bwrap", ...options, "--", ...program]),
      (error: Error) =>
        error instanceof CannotJudgeError && /not this machine's prlimit/.test(error.message),
    );
  } finally {
    if (saved === undefined) Deno.env.delete("PATH");
    else Deno.env.set("PATH", saved);
  }
  if (bwrapHere && Deno.statSync("/usr/local/bin").isDirectory) {
    const { stdout, stderr, success } = new Deno.Command("bwrap", {
      args: [...options, "--", ...program],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).outputSync();
    assert.ok(success, new TextDecoder().decode(stderr));
    assert.equal(new TextDecoder().decode(stdout), "", "what ran was not prlimit");
  }
});

/** The honest line's options with `--tmpfs /tmp` given `size` first. */
const sized = (size: string) =>
  honest.flatMap((option, i) =>
    option === "--tmpfs" && honest[i + 1] === "/tmp" ? ["--size", size, option] : [option]
  );

/** Right lines an honest learner may write (the lesson's text accepts each): each must earn. */
const HONEST: [string, string[]][] = [
  ["the worked line", line(...honest)],
  ["a session of its own", line(...honest, "--new-session")],
  ["another working folder", line(...honest, "--chdir", "/usr")],
  ["a host name of its own", line(...honest, "--hostname", "sandbox")],
  ["a private /tmp of a given size", line(...sized("1048576"))],
  ["a private /tmp of a size in hexadecimal", line(...sized("0x100000"))],
  ["a private /tmp of a size in octal", line(...sized("04000000"))],
  ["a size left last", line(...honest, "--size", "1048576")],
  [
    "every namespace named one by one",
    line(
      ...honest.filter((option) => option !== "--unshare-all"),
      "--unshare-user",
      "--unshare-ipc",
      "--unshare-pid",
      "--unshare-net",
      "--unshare-uts",
      "--unshare-cgroup",
    ),
  ],
  ["every capability dropped twice", line(...honest, "--cap-drop", "ALL")],
  ["the variables set again", line(...honest, ...env)],
];

Deno.test("Chapter 15: an honest learner's right lines earn the effect case, predicted", () => {
  const lost = HONEST.filter(([, argv]) => judged(argv) !== "earns").map(([label]) => label);
  assert.deepEqual(lost, []);
});

Deno.test({
  name:
    "Chapter 15: an honest learner's right lines earn the effect case, run in the grader's root",
  ignore: !bwrapRuns,
  fn: async () => {
    const lost: string[] = [];
    for (const [label, argv] of HONEST) {
      const effect = await effectOf(argv).catch((error: Error) =>
        `${error.name}: ${error.message}`
      );
      if (!isDeepStrictEqual(effect, EFFECT_EXPECTED)) {
        lost.push(`${label}: ${JSON.stringify(effect)}`);
      }
    }
    assert.deepEqual(lost, []);
  },
});

/**
 * "the whole machine, read-only": the lesson asks that the sandbox show
 * nothing but the policy's paths; this line shows the machine's whole root
 * read-only (run by root as the lesson runs it: every file of the machine,
 * /etc/shadow and the hidden cases included), hides /tmp (where the
 * playground is) under a private one and binds the data folder back. Every
 * attempt the intruder makes was refused and the tool answered 4, so it
 * earned the case, run (in the grader's root, which holds nothing of the
 * machine's beyond the policy) and predicted alike; what it shows beyond the
 * policy is now an attempt of the case's own, decided from the grants.
 */
Deno.test({
  name: "Chapter 15: the whole machine, read-only, /tmp private",
  fn: async () => {
    // The honest line's binds taken out, the machine's root put under its own /tmp, /proc and /dev.
    const own = honest.filter((_, i) =>
      !honest.slice(Math.max(0, i - 2), i + 1).includes("--ro-bind")
    );
    const whole = own.flatMap((option) =>
      option === "--tmpfs" ? ["--ro-bind", "/", "/", option] : [option]
    );
    const argv = line(...whole, "--ro-bind", data, data);
    assert.ok(!argv.includes(policy.runtime.paths[0]), "only / is bound of the runtime");
    assert.notEqual(judged(argv), "earns");
    if (bwrapRuns) {
      assert.notDeepEqual(await effectOf(argv).catch(() => undefined), EFFECT_EXPECTED);
    }
  },
});
