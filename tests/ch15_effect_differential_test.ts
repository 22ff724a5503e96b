// The throw-away root against the real thing: the effect case runs a
// learner's bwrap line in a root of the grader's (as a fresh unprivileged
// user, with a /proc of its own and only the intruder's runtime in sight),
// and must judge it exactly as the same line, run by root straight on this
// machine as the lesson runs it, would be judged.
// Lines are generated (seeded) from the lesson's sandbox by changing what
// matters to the attempts: which namespaces, bubblewrap's own PID 1,
// capabilities dropped or kept, --die-with-parent, a new
// session, the environment, /tmp, /proc and /dev, the data and home folders
// read-only or writable, the whole machine shown, prlimit around. Each line
// the effect case would run is run both ways, and every attempt's outcome,
// and the tool's answer, must agree. Two attempts the root (run as nobody,
// always in a user namespace of bubblewrap's) cannot show as root's run
// gives them, and the effect case takes them from the grants: root's
// bubblewrap keeps every capability a line does not drop, and a root program
// in the machine's user namespace reads bubblewrap's outer environment; so
// "remount its data folder writable" must also succeed in the root exactly
// where the grants keep a capability and the intruder ran.

import assert from "node:assert/strict";
import fc from "fast-check";
import { CannotJudgeError, commandGrants } from "../lib/containment/command_grants.ts";
import {
  type Effect,
  effectInputs,
  effectOf,
  observedEffect,
  placedOn,
  predictedEffect,
} from "../lib/containment/effect.ts";
import { Playground } from "../lib/containment/playground.ts";
import { SANDBOX_DENO_DIR } from "../lib/containment/policy.ts";
import { throwAwayRootWorks } from "../lib/containment/throwaway_root.ts";

const LINES = 30;
const SEED = 20261205;
const ignore = !(await throwAwayRootWorks());

const { policy, command, root } = effectInputs();
const data = policy.read[0];
const home = policy.deny[0];
const env = Object.entries(policy.runtime.env).flatMap((
  [name, value],
) => ["--setenv", name, value]);

/** A line the lesson's sandbox could have been, before it was right. */
const line: fc.Arbitrary<string[]> = fc.record({
  namespaces: fc.oneof(
    fc.constant(["--unshare-all"]),
    fc.constant(["--unshare-all", "--share-net"]),
    fc.subarray([
      "--unshare-net",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-uts",
      "--unshare-user",
      "--unshare-cgroup",
    ]),
  ),
  asPid1: fc.boolean(),
  capDrop: fc.boolean(),
  dieWithParent: fc.boolean(),
  newSession: fc.boolean(),
  clearenv: fc.boolean(),
  system: fc.constantFrom("none", "read-only", "writable"),
  tmp: fc.boolean(),
  proc: fc.constantFrom("own", "none"),
  dev: fc.boolean(),
  data: fc.constantFrom("--ro-bind", "--bind"),
  home: fc.constantFrom("none", "--ro-bind", "--bind"),
  prlimit: fc.boolean(),
}).map((choice) => {
  const options = [...choice.namespaces];
  const ownPid = options.includes("--unshare-all") || options.includes("--unshare-pid");
  if (choice.asPid1 && ownPid) options.push("--as-pid-1");
  if (choice.capDrop) options.push("--cap-drop", "ALL");
  if (choice.dieWithParent) options.push("--die-with-parent");
  if (choice.newSession) options.push("--new-session");
  if (choice.clearenv) options.push("--clearenv", ...env);
  if (choice.system !== "none") {
    options.push(choice.system === "read-only" ? "--ro-bind" : "--bind", "/", "/");
  }
  if (choice.tmp) options.push("--tmpfs", "/tmp");
  if (choice.proc === "own") options.push("--proc", "/proc");
  if (choice.dev) options.push("--dev", "/dev");
  for (const path of policy.runtime.paths) options.push("--ro-bind", path, path);
  options.push(choice.data, data, data);
  if (choice.home !== "none") options.push(choice.home, home, home);
  const limits = [
    "prlimit",
    `--data=${policy.limits.memoryBytes}`,
    `--cpu=${policy.limits.cpuSeconds}`,
  ];
  return ["bwrap", ...options, "--", ...(choice.prlimit ? [...limits, "--"] : []), ...command];
});

/**
 * Lines where running unprivileged could tell from running as root: /proc
 * mounted with no PID namespace of its own, the machine's root shown whole,
 * no devices, every capability asked for.
 */
const CHOSEN = [
  ["--unshare-net", "--unshare-ipc", "--die-with-parent", "--proc", "/proc", "--dev", "/dev"],
  ["--unshare-all", "--die-with-parent", "--bind", "/", "/", "--proc", "/proc", "--dev", "/dev"],
  ["--unshare-all", "--die-with-parent", "--clearenv", ...env, "--proc", "/proc"],
  ["--unshare-all", "--die-with-parent", "--cap-add", "ALL", "--proc", "/proc", "--dev", "/dev"],
].map((options) => {
  const binds = [...policy.runtime.paths, data].flatMap((path) => ["--ro-bind", path, path]);
  return ["bwrap", ...options, ...binds, "--", ...command];
});

/** The attempt a capability decides, which root's bubblewrap keeps unless a line drops it. */
const REMOUNT = "remount its data folder writable";

/**
 * The attempt the effect case decides from the grants wherever a line runs
 * (what the line shows of the machine's files beyond the policy), which
 * root's run here does not try: its outcome is the effect case's.
 */
const MACHINE_FILES = "read a machine file the policy does not grant";

/** An effect as its outcomes: each attempt refused or succeeded, and the tool's answer. */
function outcomes(effect: Effect): Record<string, string> {
  return Object.fromEntries(
    Object.entries(effect).map(([name, seen]) => [
      name,
      name === "word_count" ? (seen === "4" ? "4" : "no answer") : seen.split(":")[0],
    ]),
  );
}

/**
 * Whether this machine held the sandbox's Deno cache folder before root's
 * runs here: a line that shows the machine's `/tmp` writable, and gives the
 * intruder the policy's environment, has it write its cache there.
 */
const hadSandboxCache = await exists(SANDBOX_DENO_DIR);

/**
 * What `argv` does run by root straight on this machine, as the lesson runs
 * it; what its intruder cached in the machine's `/tmp` removed after it.
 */
async function onThisMachine(argv: string[]): Promise<Effect> {
  await using playground = await Playground.create();
  try {
    return await observedEffect(placedOn(argv, playground), playground, (line) => line);
  } finally {
    if (!hadSandboxCache) await Deno.remove(SANDBOX_DENO_DIR, { recursive: true }).catch(gone);
  }
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, gone);
}

/** `false` for a path not there; any other error thrown on. */
function gone(error: unknown): false {
  if (error instanceof Deno.errors.NotFound) return false;
  throw error;
}

/** A line, what the effect case judged of it (or its refusal), and, if it ran, root's run. */
interface Judged {
  argv: string[];
  inRoot: Effect | CannotJudgeError;
  real?: Effect;
}

let judged: Promise<Judged[]> | undefined;

/**
 * Every line (the chosen, then the generated) judged by the effect case and,
 * where that runs it, run by root on this machine: once, for the tests below.
 */
function judgedLines(): Promise<Judged[]> {
  judged ??= (async () => {
    const lines: Judged[] = [];
    for (const argv of [...CHOSEN, ...fc.sample(line, { seed: SEED, numRuns: LINES })]) {
      let inRoot: Effect;
      try {
        inRoot = await effectOf(argv);
      } catch (error) {
        if (!(error instanceof CannotJudgeError)) throw error;
        lines.push({ argv, inRoot: error });
        continue;
      }
      // Only a line the effect case runs is run on the machine itself.
      const { word_count, ...real } = await onThisMachine(argv);
      assert.equal(real[MACHINE_FILES], undefined, "root's run here does not try it");
      lines.push({
        argv,
        inRoot,
        real: { ...real, [MACHINE_FILES]: inRoot[MACHINE_FILES], word_count },
      });
    }
    return lines;
  })();
  return judged;
}

/** A line as the disagreements show it. */
const shown = (argv: string[]) => argv.join(" ").replaceAll(root, "P");

Deno.test({
  name: `the effect case judges a line in its throw-away root as root runs it on this machine, on ${
    CHOSEN.length + LINES
  } lines`,
  ignore,
  fn: async () => {
    const started = performance.now();
    const lines = await judgedLines();
    const disagreements: string[] = [];
    const ran = lines.filter(({ real }) => real !== undefined);
    for (const { argv, inRoot, real } of ran) {
      const effect = inRoot as Effect;
      // Where the intruder ran (its tool answered), that is.
      const capabilities = commandGrants(argv).sandbox!.capabilities.length > 0 &&
        effect.word_count === "4";
      if (effect[REMOUNT].startsWith("succeeded") !== capabilities) {
        disagreements.push(`${shown(argv)}\n  in the root: ${REMOUNT} ${effect[REMOUNT]}`);
      }
      if (JSON.stringify(outcomes(effect)) !== JSON.stringify(outcomes(real!))) {
        disagreements.push(
          `${shown(argv)}\n  in the root:  ${JSON.stringify(effect)}\n  on the machine: ${
            JSON.stringify(real)
          }`,
        );
      }
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `${CHOSEN.length} chosen and ${LINES} generated lines: ${ran.length} run both ways, ${
        ran.length - disagreements.length
      } agreed, ${lines.length - ran.length} refused unrun, in ${seconds} s`,
    );
    assert.deepEqual(disagreements, []);
    assert.ok(ran.length >= LINES / 2, `only ${ran.length} lines ran`);
  },
});

Deno.test({
  name: `where bubblewrap cannot run, each attempt is predicted as root's run on this machine ` +
    `gives it, on the same ${CHOSEN.length + LINES} lines`,
  ignore,
  fn: async () => {
    const disagreements: string[] = [];
    let unpredicted = 0;
    for (const { argv, inRoot, real } of await judgedLines()) {
      let prediction: Effect;
      try {
        prediction = predictedEffect(argv);
      } catch (error) {
        if (!(error instanceof CannotJudgeError)) throw error;
        // A line the effect case refuses is refused alike; one it runs only where the
        // prediction cannot know, which the message says.
        if (inRoot instanceof CannotJudgeError) {
          assert.equal(error.message, inRoot.message);
        } else {
          assert.match(error.message, /only running it shows/);
          unpredicted++;
        }
        continue;
      }
      if (inRoot instanceof CannotJudgeError) {
        disagreements.push(`${shown(argv)}\n  predicted, where running it is refused`);
      } else if (JSON.stringify(outcomes(prediction)) !== JSON.stringify(outcomes(real!))) {
        disagreements.push(
          `${shown(argv)}\n  predicted:  ${JSON.stringify(outcomes(prediction))}\n  ` +
            `on the machine: ${JSON.stringify(outcomes(real!))}`,
        );
      }
    }
    console.log(`${unpredicted} lines not predicted (only running them shows their effect)`);
    assert.deepEqual(disagreements, []);
  },
});

Deno.test({
  name:
    "run by root with the machine's /proc in sight, the intruder finds the secret variable though another process holds one of that name first",
  ignore,
  fn: async () => {
    // Tests beside this one run effect cases too, each with a variable of the same name and a
    // token of its own; one that started first has the lower PID. The intruder read only the
    // first it found, and the line was judged to keep the variable hidden (CI failed once so).
    const name = await (async () => {
      await using other = await Playground.create();
      return other.variable.where;
    })();
    const decoy = new Deno.Command("/bin/sleep", {
      args: ["60"],
      clearEnv: true,
      env: { [name]: "a-token-of-another-sandbox" },
    }).spawn();
    try {
      const argv = [
        "bwrap",
        "--unshare-ipc",
        "--die-with-parent",
        "--clearenv",
        ...env,
        "--proc",
        "/proc",
        ...[...policy.runtime.paths, data].flatMap((path) => ["--ro-bind", path, path]),
        "--",
        ...command,
      ];
      const real = await onThisMachine(argv);
      assert.match(real["read a secret variable"], /^succeeded/, JSON.stringify(real));
    } finally {
      decoy.kill("SIGKILL");
      await decoy.status;
    }
  },
});

Deno.test({
  name: "root's runs on this machine leave the machine's /tmp as it was",
  ignore,
  fn: async () => {
    const lines = await judgedLines();
    // The generated lines hold some that show the machine's /tmp writable, with the policy's environment.
    const cacheWriters = lines.filter(({ argv, real }) =>
      real !== undefined && argv.includes("--clearenv") && !argv.includes("--tmpfs") &&
      argv.join(" ").includes("--bind / /")
    );
    assert.ok(cacheWriters.length > 0, "no line ran that would write the sandbox's cache here");
    assert.equal(await exists(SANDBOX_DENO_DIR), hadSandboxCache);
  },
});
