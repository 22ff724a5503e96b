// Round 10 of issue 38's red team on Chapter 15's effect case: hostile
// learners who want it with a line that shows the machine's files beyond
// the policy without the tenth attempt ("read a machine file the policy does
// not grant") seeing it, or a line that makes the judge throw something
// else than a named refusal; and honest learners whose right line must keep
// its mark. Each line goes through the real judges (commandGrants, and the
// effect case: run where bubblewrap runs, predicted where it cannot), and,
// where bubblewrap runs here, the premise through the real bwrap. Attempts
// that still succeed are in OPEN, skipped unless ROUND10_OPEN=1. Run:
//   deno test -A tests/attacks_round10/ch15_lines_test.ts

import assert from "node:assert/strict";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import {
  CannotJudgeError,
  commandGrants,
  EVERY_PATH_EXISTS_AS_HERE,
  THIS_MACHINE,
} from "../../lib/containment/command_grants.ts";
import { EFFECT_EXPECTED, effectOf, predictedEffect } from "../../lib/containment/effect.ts";
import { bubblewrapStatus } from "../../lib/containment/bubblewrap.ts";
import { Playground } from "../../lib/containment/playground.ts";
import { bwrapRuns, effectLines } from "../_chapter15.ts";

const { policy, honest, line, root } = effectLines();
const bwrapHere = (await bubblewrapStatus()).available;
const OPEN = new Set<string>([]);
const open = (label: string) => OPEN.has(label) && Deno.env.get("ROUND10_OPEN") !== "1";

/** A small sandbox real bwrap can run `program` in: the runtime's folders and `options`. */
function bwrapOutput(options: string[], program: string[]): string {
  const runtime = ["/usr", "/lib", "/lib64", "/bin"].flatMap((path) => ["--ro-bind", path, path]);
  const { success, stdout, stderr } = new Deno.Command("bwrap", {
    args: [...runtime, "--dev", "/dev", ...options, "--", ...program],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  assert.ok(success, new TextDecoder().decode(stderr));
  return new TextDecoder().decode(stdout);
}

/** The judges' answer for a line: refused, or the grants read and the effect predicted. */
function judged(argv: string[]): string {
  try {
    commandGrants(argv, EVERY_PATH_EXISTS_AS_HERE);
    return isDeepStrictEqual(predictedEffect(argv), EFFECT_EXPECTED) ? "earns" : "no mark";
  } catch (error) {
    if (!(error instanceof CannotJudgeError)) throw error;
    return "refused";
  }
}

/** What the effect case gives a line run in the grader's root: earns, no mark, or the error's name. */
async function run(argv: string[]): Promise<string> {
  try {
    return isDeepStrictEqual(await effectOf(argv), EFFECT_EXPECTED) ? "earns" : "no mark";
  } catch (error) {
    return (error as Error).name;
  }
}

/**
 * A link in a folder the policy grants (`/usr`) that leads out of it:
 * bwrap follows it, so the line shows the machine's `/etc/ssl/certs` (or
 * the folder it leads to) at `/x`. The judge took the source's name, under
 * `/usr`, for what it shows, and the line earned the case, run and predicted.
 */
const LINKS_OUT = ["/usr/lib/ssl/certs", "/usr/lib/ssl/private", "/usr/share/maven/conf"];
const linkOut = LINKS_OUT.find((path) => {
  const real = THIS_MACHINE.realPath(path);
  return real !== undefined && !real.startsWith("/usr/") && THIS_MACHINE.kind(path) === "folder";
});

Deno.test({
  name: "Chapter 15: a link in a granted folder that leads out of it shows what it leads to",
  ignore: linkOut === undefined || open("link out"),
  fn: async () => {
    const argv = line(...honest, "--ro-bind", linkOut!, "/x");
    if (bwrapHere) {
      const real = THIS_MACHINE.realPath(linkOut!)!;
      const names = [...Deno.readDirSync(real)].map(({ name }) => name).sort().join("\n");
      const shown = bwrapOutput(["--ro-bind", linkOut!, "/x"], ["/bin/ls", "-A", "/x"]);
      assert.equal(shown.trim(), names, `bwrap shows the machine's ${real}`);
    }
    assert.equal(judged(argv), "no mark");
    if (bwrapRuns) assert.equal(await run(argv), "no mark");
  },
});

/**
 * The playground's folders the policy denies, bound elsewhere: the home
 * folder (its private key), or the whole playground. The made-up playground
 * the learner is given is not on this machine, so the judge took each source
 * for one that shows nothing; the run puts the real playground's paths for
 * it, and the intruder, looking only where the home folder is, found nothing.
 */
const PLAYGROUND: [string, string][] = [
  ["the home folder", join(root, "home")],
  ["the private key", join(root, "home", ".ssh", "id_ed25519")],
  ["the whole playground", root],
  ["the home folder, by a path with a dot", `${root}/./home`],
];

for (const [label, source] of PLAYGROUND) {
  Deno.test({
    name: `Chapter 15: the playground's denied files bound elsewhere show them: ${label}`,
    ignore: open(label),
    fn: async () => {
      const argv = line(...honest, "--ro-bind", source, "/x");
      assert.equal(judged(argv), "no mark");
      if (bwrapRuns) assert.equal(await run(argv), "no mark");
    },
  });
}

/**
 * A bind of a path this machine does not have (a runtime folder of another
 * machine's, say): bwrap stops there, so the intruder never runs and the
 * line earns nothing run; predicted, the judge took every path for one the
 * machine has, and the line earned the case. Both now refuse it, saying why.
 */
Deno.test("Chapter 15: a bind of a path this machine does not have is refused, run and predicted", async () => {
  const missing = "/usr/no/such/folder";
  assert.ok(!THIS_MACHINE.exists(missing));
  const argv = line(...honest, "--ro-bind", missing, "/opt/x");
  if (bwrapHere) {
    const ran = new Deno.Command("bwrap", {
      args: ["--ro-bind", "/", "/", "--ro-bind", missing, "/opt/x", "--", "/bin/true"],
      stderr: "piped",
    }).outputSync();
    assert.ok(!ran.success, "bwrap stops");
  }
  assert.equal(judged(argv), "refused");
  assert.throws(() => predictedEffect(argv), /not on this machine, and bwrap stops there/);
  if (bwrapRuns) assert.equal(await run(argv), "CannotJudgeError");
  // One that bwrap skips when it is missing is the honest line's.
  assert.equal(judged(line(...honest, "--ro-bind-try", missing, "/opt/x")), "earns");
});

Deno.test({
  name: "Chapter 15: premise: the playground's home bound elsewhere shows its private key",
  ignore: !bwrapHere,
  fn: async () => {
    await using playground = await Playground.create();
    const shown = bwrapOutput(["--ro-bind", playground.home, "/x"], [
      "/bin/cat",
      "/x/.ssh/id_ed25519",
    ]);
    assert.ok(shown.includes(playground.secret.token), "the key is read at /x");
  },
});

/**
 * Ways to show a file the command line does not name: a descriptor the
 * grader holds open, an overlay, a path relative to `--chdir`, a `..` out of
 * a granted folder or the data folder, the machine's `/proc` links. Each is
 * refused or loses the case.
 */
const NOT_NAMED: [string, string[]][] = [
  ["--bind-fd", ["--bind-fd", "3", "/x"]],
  ["--ro-bind-fd", ["--ro-bind-fd", "3", "/x"]],
  ["--file", ["--file", "3", "/x"]],
  ["--bind-data", ["--bind-data", "3", "/x"]],
  ["--ro-bind-data", ["--ro-bind-data", "3", "/x"]],
  ["--overlay of /etc", ["--overlay-src", "/etc", "--tmp-overlay", "/x"]],
  ["--ro-overlay of /etc", ["--overlay-src", "/etc", "--ro-overlay", "/x"]],
  ["a path relative to --chdir", ["--chdir", "/", "--ro-bind", "etc", "/x"]],
  ["a .. out of a granted folder", ["--ro-bind", "/usr/lib/../../etc", "/x"]],
  // Out of the granted link and up past /usr (granted too): the machine's root. The effect case
  // now follows the links before a `..` as this machine has them, as bwrap does.
  ["a .. out of a granted link", ["--ro-bind", "/lib64/../..", "/x"]],
  ["a .. out of the data folder", ["--ro-bind", `${policy.read[0]}/..`, "/x"]],
  ["a .. out of Deno's cache", ["--ro-bind", "/root/.cache/deno/..", "/x"]],
  ["/proc/self/fd/3", ["--ro-bind", "/proc/self/fd/3", "/x"]],
  ["/proc/self/root", ["--ro-bind", "/proc/self/root", "/x"]],
  ["/dev/fd/3", ["--ro-bind", "/dev/fd/3", "/x"]],
  ["/dev/fd", ["--ro-bind", "/dev/fd", "/x"]],
  ["a doubled slash", ["--ro-bind", "//etc", "/x"]],
  ["the machine's /tmp", ["--ro-bind", "/tmp", "/x"]],
  ["the course's servers", [
    "--ro-bind",
    policy.runtime.paths.at(-1)!.replace(/\/[^/]+$/, ""),
    "/x",
  ]],
];

for (const [label, extra] of NOT_NAMED) {
  Deno.test({
    name: `Chapter 15: a line that shows a file it does not name loses the case: ${label}`,
    ignore: open(label),
    fn: () => assert.notEqual(judged(line(...honest, ...extra)), "earns"),
  });
}

/**
 * Words that no program can be given (a NUL byte): the run threw a bare
 * TypeError from spawning the grader's own helper ("Failed to spawn
 * '/usr/bin/nsenter': nul byte found"), where the judge must name what it
 * refuses.
 */
const NUL_WORDS: [string, string[]][] = [
  ["in a source", ["--ro-bind", "/etc\0x", "/x"]],
  ["in a destination", ["--ro-bind", "/usr", "/x\0y"]],
  ["in a host name", ["--hostname", "a\0b"]],
];

for (const [label, extra] of NUL_WORDS) {
  Deno.test(`Chapter 15: a NUL byte is refused by name: ${label}`, async () => {
    const argv = line(...honest, ...extra);
    assert.throws(() => commandGrants(argv), CannotJudgeError);
    assert.throws(() => predictedEffect(argv), CannotJudgeError);
    await assert.rejects(effectOf(argv), CannotJudgeError);
  });
}

Deno.test("Chapter 15: a huge source, a FIFO and a socket are judged, not thrown at or waited on", async () => {
  const folder = await Deno.makeTempDir({ prefix: "round10-" });
  try {
    const fifo = join(folder, "fifo");
    new Deno.Command("mkfifo", { args: [fifo] }).outputSync();
    using socket = Deno.listen({ transport: "unix", path: join(folder, "socket") });
    for (const path of [fifo, socket.addr.path]) {
      assert.equal(THIS_MACHINE.kind(path), "file");
      assert.equal(judged(line(...honest, "--ro-bind", path, "/x")), "no mark");
    }
    // Not on this machine (a name too long for it, what it names): bwrap stops at it, and the
    // judge says so, run and predicted.
    for (const huge of ["/" + "a".repeat(5000), "/usr/" + "a/".repeat(3000) + "b"]) {
      assert.equal(THIS_MACHINE.kind(huge), undefined);
      assert.equal(judged(line(...honest, "--ro-bind", huge, "/x")), "refused");
      if (bwrapRuns) {
        assert.equal(await run(line(...honest, "--ro-bind", huge, "/x")), "CannotJudgeError");
      }
    }
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

/**
 * Right lines the lesson's text accepts ("show each path of
 * `policy.runtime.paths` and each folder of `policy.read` read-only, at the
 * same path"): binds that tolerate a missing path, and each link of the
 * runtime bound as a link's target.
 */
const HONEST: [string, string[]][] = [
  [
    "every bind with -try",
    line(...honest.map((word) => word === "--ro-bind" ? "--ro-bind-try" : word)),
  ],
  ["a missing folder with -try", line(...honest, "--ro-bind-try", "/no/such/folder", "/x")],
  ["/usr/bin bound again", line(...honest, "--ro-bind", "/usr/bin", "/usr/bin")],
];

Deno.test("Chapter 15: an honest learner's right lines earn the effect case, predicted", () => {
  const lost = HONEST.filter(([, argv]) => judged(argv) !== "earns").map(([label]) => label);
  assert.deepEqual(lost, []);
});

Deno.test({
  name: "Chapter 15: an honest learner's right lines earn the effect case, run",
  ignore: !bwrapRuns,
  fn: async () => {
    const lost: string[] = [];
    for (const [label, argv] of HONEST) if ((await run(argv)) !== "earns") lost.push(label);
    assert.deepEqual(lost, []);
  },
});
