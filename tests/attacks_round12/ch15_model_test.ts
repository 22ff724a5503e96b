// Round 12 on Chapter 15's judges: where the course's model of bubblewrap
// and the real one still disagreed after round 11. Each decision is the real
// bwrap's, run here where it runs. Run:
//   deno test -A tests/attacks_round12/ch15_model_test.ts

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { bubblewrapStatus } from "../../lib/containment/bubblewrap.ts";
import {
  CannotJudgeError,
  commandGrants,
  EVERY_PATH_EXISTS,
  THIS_MACHINE,
} from "../../lib/containment/command_grants.ts";
import { EFFECT_EXPECTED, effectOf, predictedEffect } from "../../lib/containment/effect.ts";
import { Playground } from "../../lib/containment/playground.ts";
import { bwrapRuns, effectLines } from "../_chapter15.ts";

const bwrapHere = (await bubblewrapStatus()).available;

/** The runtime real bwrap needs to start `/bin/true` here. */
const SMALL = ["/usr", "/lib", "/lib64", "/bin"].filter((path) => THIS_MACHINE.exists(path))
  .flatMap((path) => ["--ro-bind", path, path]);

/** Whether this machine's bwrap starts `/bin/true` with `options` after a small runtime. */
function bwrapStarts(options: string[]): boolean {
  return bwrapSays(options, "true") !== undefined;
}

/** What `script` prints, run by `/bin/sh` under this machine's bwrap with `options` after a small runtime; `undefined` where bwrap stops. */
function bwrapSays(options: string[], script: string): string | undefined {
  const { success, stdout } = new Deno.Command("bwrap", {
    args: [...SMALL, ...options, "--", "/bin/sh", "-c", script],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  return success ? new TextDecoder().decode(stdout).trim() : undefined;
}

/** The grants' paths of `options` after a small runtime on `machine`, or "refused". */
function paths(options: string[], machine = EVERY_PATH_EXISTS): string[] | "refused" {
  try {
    return commandGrants(["bwrap", ...SMALL, ...options, "--", "/bin/true"], machine).sandbox!
      .paths;
  } catch (error) {
    if (!(error instanceof CannotJudgeError)) throw error;
    return "refused";
  }
}

/** A path the cases' made-up machine cannot place: whether it is there, or a folder, it does not say. */
const UNPLACED = "/srv/course/tools";

/**
 * Binds of a path the made-up machine cannot place over folders of the
 * sandbox's own: round 9 refused each there (it did not say whether the
 * path is a folder), where it takes a path bound over a device as a file.
 * bwrap binds a folder over each, so the made-up machine has a folder there.
 */
const OVER_OWN_FOLDERS: [string, (source: string) => string[]][] = [
  ["--dev's /dev/shm", (source) => ["--dev", "/dev", "--ro-bind", source, "/dev/shm"]],
  ["--dev's /dev", (source) => ["--dev", "/dev", "--ro-bind", source, "/dev"]],
  ["a tmpfs", (source) => ["--tmpfs", "/x", "--ro-bind", source, "/x"]],
  ["a folder --dir made", (source) => ["--dir", "/x", "--bind", source, "/x"]],
];

for (const [label, options] of OVER_OWN_FOLDERS) {
  Deno.test(`Chapter 15's judge: a path the cases' machine cannot place, bound over ${label}, is judged as bwrap binds a folder there`, async () => {
    const folder = await Deno.makeTempDir({ prefix: "ch15-r12-folder-" });
    const file = `${folder}.file`;
    await Deno.writeTextFile(file, "x\n");
    try {
      const made = paths(options(UNPLACED));
      assert.notEqual(made, "refused", "judged on the cases' machine");
      const here = paths(options(folder), THIS_MACHINE);
      assert.deepEqual(made, (here as string[]).map((p) => p.replace(folder, UNPLACED)));
      // Where it is a file, bwrap stops, and the judge refuses it on this machine.
      assert.equal(paths(options(file), THIS_MACHINE), "refused");
      if (bwrapHere) {
        assert.ok(bwrapStarts(options(folder)), "bwrap binds a folder there");
        assert.ok(!bwrapStarts(options(file)), "bwrap stops at a file there");
      }
    } finally {
      await Deno.remove(folder);
      await Deno.remove(file);
    }
  });
}

Deno.test("Chapter 15's judge: a path the cases' machine took as a folder is one wherever the line binds it again", async () => {
  // bwrap stops at one of the two binds whatever the path is: a folder over a device, or a file
  // over a folder. The made-up machine may not take it as a folder once and a file after.
  const twice = (source: string) => [
    "--dev",
    "/dev",
    "--ro-bind",
    source,
    "/dev/shm",
    "--ro-bind",
    source,
    "/dev/null",
  ];
  assert.equal(paths(twice(UNPLACED)), "refused");
  if (bwrapHere) {
    const folder = await Deno.makeTempDir({ prefix: "ch15-r12-folder-" });
    const file = `${folder}.file`;
    await Deno.writeTextFile(file, "x\n");
    try {
      assert.ok(!bwrapStarts(twice(folder)) && !bwrapStarts(twice(file)), "bwrap stops");
    } finally {
      await Deno.remove(folder);
      await Deno.remove(file);
    }
  }
});

const { honest, line, root, policy, binds } = effectLines();
const home = policy.deny[0];

/**
 * Lines of the effect case that bind a playground path and hide it all
 * (the playground's folders, which the grader makes, are folders): refused
 * before as of a kind the machine does not say, though bwrap runs each. The
 * first two hide the home folder, as the honest line does by not binding it;
 * the next hides the data folder too, which the intruder's tool then cannot
 * read; the last binds the data folder back in the private playground.
 */
const HIDDEN_PLAYGROUND: [string, string[], "earns" | "no mark"][] = [
  [
    "the home folder bound, then hidden",
    [...honest, "--bind", home, home, "--tmpfs", home],
    "earns",
  ],
  ["the home folder bound elsewhere, then hidden", [
    ...honest,
    "--ro-bind",
    home,
    "/x",
    "--tmpfs",
    "/x",
  ], "earns"],
  [
    "the whole playground bound, then hidden",
    [...honest, "--bind", root, root, "--tmpfs", root],
    "no mark",
  ],
  ["the whole playground hidden, the data folder bound back", [
    ...honest.slice(0, honest.indexOf(binds[0])),
    "--bind",
    root,
    root,
    "--tmpfs",
    root,
    ...binds,
  ], "earns"],
];

/** The effect case's answer: a mark, none, or its refusal. */
function mark(effect: Record<string, string>): "earns" | "no mark" {
  return isDeepStrictEqual(effect, EFFECT_EXPECTED) ? "earns" : "no mark";
}

for (const [label, options, outcome] of HIDDEN_PLAYGROUND) {
  Deno.test(`Chapter 15's effect case: ${label}: judged as bwrap runs it (${outcome})`, async () => {
    const argv = line(...options);
    assert.equal(mark(predictedEffect(argv)), outcome, "predicted");
    if (bwrapRuns) assert.equal(mark(await effectOf(argv)), outcome, "run in the grader's root");
  });
}

/** How the judge's refusal says that bwrap itself stops (as the differential test reads it). */
const SAYS_STOPS =
  /bwrap stops there|bwrap cannot make it|bwrap refuses it|the sandbox has .* already|the sandbox has no such folder/;

/** The judge's refusal of `options` after a small runtime on this machine, or "judged". */
function refusal(options: string[]): string {
  try {
    commandGrants(["bwrap", ...SMALL, ...options, "--", "/bin/true"], THIS_MACHINE);
    return "judged";
  } catch (error) {
    if (!(error instanceof CannotJudgeError)) throw error;
    return error.message;
  }
}

Deno.test("Chapter 15's judge: a mount at a link of the machine's in a bound folder is refused, as bwrap follows the link (the differential test's draw)", () => {
  // The machine's /dev/stdin, shown by the root bound whole, leads to /proc/self/fd/0: the judge
  // read the bind as one at /dev/stdin, a file there (the grants said the shell would find the
  // machine's /dev/null there); bwrap stops ("Can't create file at /dev/stdin").
  const options = ["--ro-bind", "/", "/", "--bind", "/dev/null", "/dev/stdin"];
  if (!Deno.lstatSync("/dev/stdin").isSymlink) return;
  // Where that link leads depends on the process that follows it (see the stdin cases below).
  assert.match(refusal(options), /through a link of the machine's|which processes run/);
  if (bwrapHere) assert.ok(!bwrapStarts(options), "bwrap stops");
});

/**
 * Lines the judge refuses that bwrap runs, drawn by the differential test
 * with --dev's devices: the refusal stays (what bwrap does depends on where
 * a link leads at that moment, or on the machine's mounts a bind brought),
 * but it may not say that bwrap stops.
 */
const RUN_THOUGH_REFUSED: string[][] = [
  ["--dev", "/dev", "--dir", "/dev/stdin"],
  ["--ro-bind", "/", "/", "--dev", "/dev", "--remount-ro", "/dev/shm"],
  ["--ro-bind", "/", "/", "--remount-ro", "/dev/shm"],
];

for (const options of RUN_THOUGH_REFUSED) {
  Deno.test(`Chapter 15's judge: ${options.join(" ")}: refused, not as a line bwrap stops at (bwrap runs it)`, () => {
    const said = refusal(options);
    assert.notEqual(said, "judged");
    assert.doesNotMatch(said, SAYS_STOPS);
    // The last two run where the machine has a mount at /dev/shm (remounted, hidden or not).
    const shmMount = Deno.readTextFileSync("/proc/self/mountinfo").includes(" /dev/shm ");
    if (bwrapHere && (shmMount || !options.includes("/dev/shm"))) {
      assert.ok(bwrapStarts(options), "bwrap runs it");
    }
  });
}

/**
 * Binds at `--dev`'s `/dev/ptmx`, a link to `pts/ptmx`: bwrap 0.8.0 follows
 * it and binds the file on the device node there, so the shell finds the
 * link as it was and, at `/dev/pts/ptmx`, what the bind brought (`test`
 * says which: a character device, here a closed one, or a plain file).
 * Refused before, as a link whose target is not judged.
 */
const AT_PTMX: [string[], string, string, boolean?][] = [
  [
    ["--dev", "/dev", "--bind", "/dev/null", "/dev/ptmx"],
    "/dev/pts/ptmx read-write from /dev/null",
    "-c",
  ],
  [
    ["--dev", "/dev", "--ro-bind", "/etc/hostname", "/dev/ptmx"],
    "/dev/pts/ptmx read-only from /etc/hostname",
    "-f",
  ],
  [
    ["--dev", "/dev", "--dev-bind", "/dev/null", "/dev/ptmx"],
    "/dev/pts/ptmx read-write, devices too from /dev/null",
    "-c",
  ],
  // Bound twice: the second bind covers the first on the same node.
  [
    [
      "--dev",
      "/dev",
      "--bind",
      "/etc/hostname",
      "/dev/ptmx",
      "--ro-bind",
      "/dev/null",
      "/dev/ptmx",
    ],
    "/dev/pts/ptmx read-only from /dev/null",
    "-c",
    // The cases' made-up machine refuses it: the first bind's source, hidden, it does not place.
    true,
  ],
  // Its pts hidden by a tmpfs: bwrap makes the file the link names there, and binds on it.
  [
    ["--dev", "/dev", "--tmpfs", "/dev/pts", "--bind", "/dev/null", "/dev/ptmx"],
    "/dev/pts/ptmx read-write from /dev/null",
    "-c",
  ],
];

for (const [options, entry, test, hidden] of AT_PTMX) {
  Deno.test(`Chapter 15's judge: ${options.join(" ")}: a bind at --dev's /dev/ptmx is made where the link leads, as bwrap makes it`, () => {
    for (const machine of hidden ? [THIS_MACHINE] : [THIS_MACHINE, EVERY_PATH_EXISTS]) {
      const shown = paths(options, machine);
      assert.notEqual(shown, "refused");
      assert.ok((shown as string[]).includes(entry), `${entry} in ${shown}`);
    }
    if (bwrapHere) {
      const said = bwrapSays(
        options,
        `[ -L /dev/ptmx ] && [ ${test} /dev/pts/ptmx ] && echo as-said`,
      );
      assert.equal(said, "as-said", "bwrap runs it, the link kept and the bind at /dev/pts/ptmx");
    }
  });
}

/**
 * What else bwrap 0.8.0 does at `--dev`'s `/dev/ptmx`, following the link to
 * the device node: it stops at a folder made, or bound, there ("Can't mkdir
 * /dev/ptmx: Not a directory"), and at a remount of what is no mount
 * ('Unable to find "/newroot/dev/pts/ptmx" in mount table'). Refused before,
 * but not as lines bwrap stops at.
 */
const STOPS_AT_PTMX: string[][] = [
  ["--dev", "/dev", "--dir", "/dev/ptmx"],
  ["--dev", "/dev", "--tmpfs", "/dev/ptmx"],
  ["--dev", "/dev", "--bind", "/tmp", "/dev/ptmx"],
];

for (const options of STOPS_AT_PTMX) {
  Deno.test(`Chapter 15's judge: ${options.join(" ")}: refused as a line bwrap stops at, following --dev's link`, () => {
    assert.match(refusal(options), SAYS_STOPS);
    if (bwrapHere) assert.ok(!bwrapStarts(options), "bwrap stops");
  });
}

Deno.test("Chapter 15's judge: a remount at --dev's /dev/ptmx remounts the bind the link leads to, as bwrap does", () => {
  const options = [
    "--dev",
    "/dev",
    "--bind",
    "/etc/hostname",
    "/dev/ptmx",
    "--remount-ro",
    "/dev/ptmx",
  ];
  const shown = paths(options, THIS_MACHINE);
  assert.notEqual(shown, "refused");
  assert.ok((shown as string[]).includes("/dev/pts/ptmx read-only from /etc/hostname"));
  assert.match(refusal(["--dev", "/dev", "--remount-ro", "/dev/ptmx"]), SAYS_STOPS);
  if (bwrapHere) {
    const said = bwrapSays(
      options,
      "( : >> /dev/pts/ptmx ) 2>/dev/null && echo writable || echo read-only",
    );
    assert.equal(said, "read-only");
    assert.ok(!bwrapStarts(["--dev", "/dev", "--remount-ro", "/dev/ptmx"]), "bwrap stops");
  }
});

/**
 * Mounts through a link of the machine's in a bound folder, in the effect
 * case's lines: the grants on this machine refuse each (bwrap follows the
 * link), but the effect case's prediction, on a machine that could not say
 * where a path's links lead, judged each as a mount at the link's own path.
 * bwrap 0.8.0 stops at each: an absolute link it resolves from its own
 * root, where the target is not ("Can't create file at /dev/stdin: No such
 * file or directory", "Can't mount tmpfs on /newroot/x/abs: No such file or
 * directory", "Can't mkdir /x/abs/y: No such file or directory").
 */
const THROUGH_LINKS: [string, (folder: string) => string[]][] = [
  ["at the link", (folder) => ["--ro-bind", folder, "/x", "--tmpfs", "/x/abs"]],
  ["below the link", (folder) => ["--ro-bind", folder, "/x", "--tmpfs", "/x/abs/y"]],
  [
    "at the machine's /dev/stdin",
    () => ["--ro-bind", "/", "/", "--bind", "/dev/null", "/dev/stdin"],
  ],
];

for (const [label, options] of THROUGH_LINKS) {
  Deno.test(`Chapter 15's effect case: a mount through a link of the machine's (${label}) is refused, predicted or run, as bwrap stops there`, async () => {
    const folder = await Deno.makeTempDir({ prefix: "ch15-r12-links-" });
    try {
      await Deno.mkdir(`${folder}/sub/y`, { recursive: true });
      await Deno.symlink(`${folder}/sub`, `${folder}/abs`);
      if (!Deno.lstatSync("/dev/stdin").isSymlink && label.includes("stdin")) return;
      const argv = line(...honest, ...options(folder));
      assert.throws(() => predictedEffect(argv), CannotJudgeError);
      if (bwrapRuns) await assert.rejects(effectOf(argv), CannotJudgeError);
      if (bwrapHere) assert.ok(!bwrapStarts(options(folder)), "bwrap stops");
    } finally {
      await Deno.remove(folder, { recursive: true });
    }
  });
}

/**
 * A path the judge takes as a file, and a path below it that the line names
 * after: on the cases' made-up machine, a path it cannot place bound over a
 * device is a file, yet a bind of a path in it was judged as there (and a
 * `-try` one as bound); the effect case's machine has the playground's
 * `note.txt` as a file, yet took a path in it as there. bwrap 0.8.0 stops at
 * such a bind whatever the path is ("Can't find source path: Not a
 * directory": nothing is in a file; a folder over /dev/null: "Can't create
 * file at /dev/null: Is a directory"), a `-try` one too: it skips only a
 * source it does not find. On this machine, a `-try` bind of a path in
 * `/etc/hostname` was judged as skipped.
 */
Deno.test("Chapter 15's judge: a path below one taken as a file is not there (the cases' machine)", async () => {
  const below = (source: string, bind = "--ro-bind") => [
    "--dev",
    "/dev",
    "--ro-bind",
    source,
    "/dev/null",
    bind,
    `${source}/b`,
    "/y",
  ];
  assert.equal(paths(below(UNPLACED)), "refused");
  assert.match(refusal(below("/etc/hostname")), SAYS_STOPS);
  assert.equal(paths(below(UNPLACED, "--ro-bind-try")), "refused");
  assert.match(refusal(["--ro-bind-try", "/etc/hostname/b", "/y"]), SAYS_STOPS);
  if (bwrapHere) {
    const folder = await Deno.makeTempDir({ prefix: "ch15-r12-below-" });
    const file = `${folder}.file`;
    await Deno.writeTextFile(file, "x\n");
    await Deno.mkdir(`${folder}/b`);
    try {
      assert.ok(!bwrapStarts(below(file)) && !bwrapStarts(below(folder)), "bwrap stops");
      assert.ok(!bwrapStarts(below(file, "--ro-bind-try")), "bwrap stops at the -try one");
      assert.ok(!bwrapStarts(["--ro-bind-try", `${file}/b`, "/y"]), "bwrap stops");
    } finally {
      await Deno.remove(folder, { recursive: true });
      await Deno.remove(file);
    }
  }
});

/**
 * Binds of paths in the playground that the grader does not make: one in
 * its note.txt, a file (gap 3), and one beside it, which the effect case's
 * machine took as there ("any other path in it"), though the grader makes
 * the playground with its folders and files only. Both were predicted to
 * earn the case; bwrap 0.8.0 stops at each ("Can't find source path").
 */
const NOT_IN_PLAYGROUND = ["data/note.txt/x", "data/other.txt"];

for (const path of NOT_IN_PLAYGROUND) {
  Deno.test(`Chapter 15's effect case: a bind of the playground's ${path}, which it does not have, is refused, predicted or run, as bwrap stops there`, async () => {
    const argv = line(...honest, "--ro-bind", `${root}/${path}`, "/x");
    assert.throws(() => predictedEffect(argv), CannotJudgeError);
    if (bwrapRuns) await assert.rejects(effectOf(argv), CannotJudgeError);
    if (bwrapHere) {
      await using playground = await Playground.create();
      assert.ok(!bwrapStarts(["--ro-bind", `${playground.root}/${path}`, "/x"]), "bwrap stops");
    }
  });
}

Deno.test("Chapter 15's judge: a tmpfs in a bound file is refused, on every machine, as bwrap stops there", () => {
  // The brief's line: refused before too, checked here against the real bwrap.
  const options = ["--ro-bind", "/etc/hostname", "/x", "--tmpfs", "/x/y"];
  assert.match(refusal(options), SAYS_STOPS);
  assert.equal(paths(options), "refused");
  if (bwrapHere) assert.ok(!bwrapStarts(options), "bwrap stops ('Can't mkdir parents for /x/y')");
});

/**
 * The effect case's prediction of the honest line with `extra`, or its
 * refusal, by a judge of its own whose `stdin` is `stdin` and whose
 * `stdout` is a pipe: on a path that leads to a descriptor of whichever
 * process follows it (`/dev/stdin`, `/dev/stdout`), the judge's own.
 */
async function judgedWithStdin(extra: string[], stdin: "null" | "piped"): Promise<string> {
  const module = (path: string) => JSON.stringify(import.meta.resolve(path));
  const code = `
    import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
    import { EFFECT_EXPECTED, predictedEffect } from ${module("../../lib/containment/effect.ts")};
    import { effectLines } from ${module("../_chapter15.ts")};
    const { honest, line } = effectLines();
    const argv = line(...honest, ...${JSON.stringify(extra)});
    try {
      console.error(isDeepStrictEqual(predictedEffect(argv), EFFECT_EXPECTED) ? "earns" : "no mark");
    } catch (error) {
      console.error(error.name === "CannotJudgeError" ? "refused: " + error.message : String(error));
    }`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", code],
    cwd: fileURLToPath(new URL("../..", import.meta.url)),
    stdin,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin === "piped") await child.stdin.close();
  const { stderr } = await child.output();
  return new TextDecoder().decode(stderr).trim();
}

/**
 * Lines whose prediction hung on the judge's own descriptors: with its
 * `stdin` a pipe (as a CI runner's may be), `--ro-bind /dev/stdin /x` showed
 * nothing of the machine's and earned the case, where the run, whose bwrap
 * has a pipe for `stdin` too (the intruder's MCP), stops ("Can't find
 * source path /dev/stdin"); with its `stdout` a pipe, `--dir /dev/stdout`
 * in the machine's root was said to stop bwrap, which runs it. Each is
 * refused now whatever the judge's descriptors are, and not as a line bwrap
 * stops at: bwrap 0.8.0 runs the first with `/dev/null` for `stdin`, and not
 * with a pipe.
 */
const BY_PROCESS_LINES: string[][] = [
  ["--ro-bind", "/dev/stdin", "/x"],
  ["--ro-bind", "/", "/", "--dir", "/dev/stdout"],
];

for (const extra of BY_PROCESS_LINES) {
  Deno.test(`Chapter 15's effect case: ${extra.join(" ")} is refused whatever the judge's stdin and stdout`, async () => {
    for (const stdin of ["null", "piped"] as const) {
      const said = await judgedWithStdin(extra, stdin);
      assert.match(said, /^refused: /, `with stdin ${stdin}: ${said}`);
      assert.doesNotMatch(said, SAYS_STOPS, `with stdin ${stdin}`);
    }
  });
}

Deno.test({
  name:
    "Chapter 15's judge: premise: bwrap binds /dev/stdin as its own stdin leads, and runs --dir /dev/stdout",
  ignore: !bwrapHere,
  fn: async () => {
    const run = async (options: string[], stdin: "null" | "piped") => {
      const child = new Deno.Command("bwrap", {
        args: [...SMALL, ...options, "--", "/bin/true"],
        stdin,
        stdout: "piped",
        stderr: "null",
      }).spawn();
      if (stdin === "piped") await child.stdin.close();
      return (await child.output()).success;
    };
    assert.ok(await run(BY_PROCESS_LINES[0], "null"), "runs with /dev/null for stdin");
    assert.ok(!(await run(BY_PROCESS_LINES[0], "piped")), "stops with a pipe for stdin");
    assert.ok(await run(BY_PROCESS_LINES[1], "piped"), "runs --dir /dev/stdout");
  },
});

Deno.test("Chapter 15's judge: a bind at --dev's /dev/ptmx, with another --dev in its pts, is made where both links lead, as bwrap makes it", () => {
  // bwrap 0.8.0 follows /dev/ptmx to pts/ptmx, the second --dev's link there to its pts/ptmx,
  // and binds the machine's /dev/null on that device node (refused before, as a link not judged).
  const options = ["--dev", "/dev", "--dev", "/dev/pts", "--bind", "/dev/null", "/dev/ptmx"];
  for (const machine of [THIS_MACHINE, EVERY_PATH_EXISTS]) {
    const shown = paths(options, machine);
    assert.notEqual(shown, "refused");
    assert.ok((shown as string[]).includes("/dev/pts/pts/ptmx read-write from /dev/null"));
  }
  if (bwrapHere) {
    const script =
      "[ -L /dev/ptmx ] && [ -L /dev/pts/ptmx ] && [ -c /dev/pts/pts/ptmx ] && echo as-said";
    assert.equal(bwrapSays(options, script), "as-said");
  }
});

Deno.test("Chapter 15's judge: a --chdir through a link of the machine's in a bound folder is refused, as bwrap follows it in the sandbox", async () => {
  // bwrap 0.8.0 follows the link inside the sandbox, where its absolute target is not: it stops
  // ("Can't chdir to /x/abs: No such file or directory"). The judge followed it on the machine,
  // where it is, and judged the line (so too --ro-bind /var /var --chdir /var/run here).
  const folder = await Deno.makeTempDir({ prefix: "ch15-r12-chdir-" });
  try {
    await Deno.mkdir(`${folder}/sub`);
    await Deno.symlink(`${folder}/sub`, `${folder}/abs`);
    const options = ["--ro-bind", folder, "/x", "--chdir", "/x/abs"];
    assert.match(refusal(options), /through a link of the machine's/);
    assert.equal(refusal(["--ro-bind", folder, "/x", "--chdir", "/x/sub"]), "judged");
    if (bwrapHere) assert.ok(!bwrapStarts(options), "bwrap stops");
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

/**
 * A --chdir into a file: one bound there, or --dev's device remounted
 * read-only (which the grants keep as a file of the sandbox's own). bwrap
 * 0.8.0 stops at each ("Can't chdir to /x: Not a directory"); the judge took
 * each for a folder. The differential test's --chdir into what a link leads
 * to found the first.
 */
const CHDIR_INTO_FILES: string[][] = [
  ["--ro-bind", "/etc/hostname", "/x", "--chdir", "/x"],
  ["--ro-bind", "/", "/", "--chdir", "/etc/hostname"],
  ["--dev", "/dev", "--remount-ro", "/dev/null", "--chdir", "/dev/null"],
];

for (const options of CHDIR_INTO_FILES) {
  Deno.test(`Chapter 15's judge: ${options.join(" ")}: a --chdir into a file is refused, as bwrap stops there`, () => {
    assert.match(refusal(options), SAYS_STOPS);
    if (bwrapHere) assert.ok(!bwrapStarts(options), "bwrap stops");
  });
}

/**
 * A --remount-ro through a link of the sandbox's own, relative: bwrap 0.8.0
 * follows it and remounts the mount it leads to (the shell finds /a
 * read-only), at the link or below it; where the link leads to no mount, it
 * stops ('Unable to find "/newroot/a" in mount table'). The judge said each
 * stops bwrap ("it is not a mount of the sandbox"). The differential test
 * found the first (seed 7). An absolute link bwrap follows from a root of
 * its own ("realpath(destination): No such file or directory"): refused.
 */
const REMOUNT_THROUGH_LINKS: [string[], string][] = [
  [["--tmpfs", "/a", "--symlink", "a", "/l", "--remount-ro", "/l"], "/a private, empty, read-only"],
  [
    ["--tmpfs", "/a", "--tmpfs", "/a/x", "--symlink", "a", "/l", "--remount-ro", "/l/x"],
    "/a/x private, empty, read-only",
  ],
];

for (const [options, entry] of REMOUNT_THROUGH_LINKS) {
  Deno.test(`Chapter 15's judge: ${options.join(" ")}: a remount through a link of the sandbox's own remounts where it leads, as bwrap does`, () => {
    const shown = paths(options, THIS_MACHINE);
    assert.notEqual(shown, "refused");
    assert.ok((shown as string[]).includes(entry), `${entry} in ${shown}`);
    if (bwrapHere) {
      const at = entry.slice(0, entry.indexOf(" "));
      const script = `( : > ${at}/probe ) 2>/dev/null && echo writable || echo read-only`;
      assert.equal(bwrapSays(options, script), "read-only");
    }
  });
}

Deno.test("Chapter 15's judge: a remount through a link to no mount stops bwrap, and through an absolute link is refused", () => {
  const toNoMount = ["--dir", "/a", "--symlink", "a", "/l", "--remount-ro", "/l"];
  assert.match(refusal(toNoMount), SAYS_STOPS);
  const absolute = ["--tmpfs", "/a", "--symlink", "/a", "/l", "--remount-ro", "/l"];
  assert.notEqual(refusal(absolute), "judged");
  if (bwrapHere) assert.ok(!bwrapStarts(toNoMount) && !bwrapStarts(absolute), "bwrap stops");
});

Deno.test("Chapter 15's judge: a mount at a relative link of the machine's in a bound folder is made where bwrap follows it", async () => {
  // bwrap 0.8.0 follows the link in the sandbox: the tmpfs is at /x/sub, the link kept at /x/rel.
  // Refused before ("reached through a link of the machine's").
  const folder = await Deno.makeTempDir({ prefix: "ch15-r12-rel-" });
  try {
    await Deno.mkdir(`${folder}/sub`);
    await Deno.symlink("sub", `${folder}/rel`);
    const options = ["--ro-bind", folder, "/x", "--tmpfs", "/x/rel"];
    const shown = paths(options, THIS_MACHINE);
    assert.notEqual(shown, "refused");
    assert.ok((shown as string[]).includes("/x/sub private, empty"), `${shown}`);
    if (bwrapHere) {
      const script = "[ -L /x/rel ] && ( : > /x/sub/probe ) && echo as-said";
      assert.equal(bwrapSays(options, script), "as-said");
    }
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("Chapter 15's effect case: the machine's root bound, then the runtime's paths at its links (/bin, /lib), is judged, not refused", () => {
  // The machine's /bin leads to usr/bin: bwrap binds it at /usr/bin, the machine's own file
  // there. Judged (no mark: the whole machine is in sight); refused before, the effect case's
  // machine following this machine's links, as a mount reached through one.
  if (!Deno.lstatSync("/bin").isSymlink || Deno.readLinkSync("/bin") !== "usr/bin") return;
  const all = ["--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", ...honest.slice(6)];
  const effect = predictedEffect(line(...all));
  assert.match(effect["read a machine file the policy does not grant"], /^succeeded/);
  assert.equal(effect.word_count, "4");
});

Deno.test("Chapter 15's judge: a file bound in a file system of message queues is made on a queue, as bwrap makes it", () => {
  // bwrap 0.8.0 makes a file there to bind on (a queue), though no folder
  // ("Can't mkdir /q/d: Operation not permitted"); refused before, as if it made nothing there.
  const options = ["--unshare-ipc", "--mqueue", "/q", "--ro-bind", "/etc/hostname", "/q/f"];
  const shown = paths(options, THIS_MACHINE);
  assert.notEqual(shown, "refused");
  assert.ok((shown as string[]).includes("/q/f read-only from /etc/hostname"), `${shown}`);
  assert.match(refusal(["--unshare-ipc", "--mqueue", "/q", "--dir", "/q/d"]), SAYS_STOPS);
  if (bwrapHere) {
    assert.equal(bwrapSays(options, "[ -f /q/f ] && echo as-said"), "as-said");
    assert.ok(!bwrapStarts(["--unshare-ipc", "--mqueue", "/q", "--dir", "/q/d"]), "bwrap stops");
  }
});

Deno.test("Chapter 15's judge: through a relative link of the machine's to what the sandbox has not, bwrap makes only a file", async () => {
  // T/e/rel leads to ../c, which the sandbox has not (only T/e is bound). bwrap 0.8.0 stops at a
  // tmpfs there ("Can't mount tmpfs on ...: No such file or directory") and a folder below it
  // ("Can't mkdir .../rel/f"), and binds a file, making T/c to bind it on (open follows the
  // link). The differential test found the first two judged (seeds 11, 12).
  const root = await Deno.makeTempDir({ prefix: "ch15-r12-dangling-" });
  try {
    await Deno.mkdir(`${root}/e`);
    await Deno.mkdir(`${root}/c`);
    await Deno.symlink("../c", `${root}/e/rel`);
    const bound = ["--bind", `${root}/e`, `${root}/e`];
    for (const stops of [["--tmpfs", `${root}/e/rel`], ["--dir", `${root}/e/rel/f`]]) {
      assert.match(refusal([...bound, ...stops]), SAYS_STOPS);
      if (bwrapHere) assert.ok(!bwrapStarts([...bound, ...stops]), `bwrap stops at ${stops}`);
    }
    // A --dir at the link itself bwrap takes as there already, and runs (found with seed 24).
    const dir = [...bound, "--dir", `${root}/e/rel`];
    assert.doesNotMatch(refusal(dir), SAYS_STOPS);
    if (bwrapHere) assert.ok(bwrapStarts(dir), "bwrap runs a --dir at the link");
    const file = [...bound, "--ro-bind", "/etc/hostname", `${root}/e/rel`];
    const shown = paths(file, THIS_MACHINE);
    assert.notEqual(shown, "refused");
    assert.ok((shown as string[]).includes(`${root}/c read-only from /etc/hostname`), `${shown}`);
    if (bwrapHere) assert.equal(bwrapSays(file, `[ -f ${root}/c ] && echo as-said`), "as-said");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
