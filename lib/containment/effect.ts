/**
 * A bubblewrap command line judged by what it does: the intruder is run
 * under it on a fresh playground, and each escape attempt is decided by its
 * witness (a canary's token on the wire, the listener's count, a file's
 * content, the process table). The autograder gives a learner's
 * `bwrapCommand` the intruder's policy and command as the lesson does
 * ({@linkcode effectInputs}), for a playground not made yet; the command line
 * it returns is checked with `commandGrants`, and must show the machine's
 * own files where the intruder starts from (`other_file_at.ts`), so that
 * what runs is the grader's intruder. It is then run (the made-up
 * playground's paths put for a fresh one's) inside a throw-away root
 * (`throwaway_root.ts`), as a user of its own with no privilege, where the
 * line reaches nothing of the machine's but what the intruder's runtime
 * needs, read-only, and the playground, which goes with the run. The lesson
 * runs a line as root: the two attempts that run gives what this root
 * cannot show (a capability kept, bubblewrap's outer environment in sight)
 * are taken from the grants as root's run gives them. Where
 * bubblewrap cannot run so, the outcome of each attempt is predicted from
 * the grants instead.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { type Attempt, attemptsOn, observe } from "./attempts.ts";
import { type BubblewrapStatus, bubblewrapStatus } from "./bubblewrap.ts";
import {
  CannotJudgeError,
  type CommandGrants,
  commandGrants,
  EVERY_PATH_EXISTS_AS_HERE,
  type Machine,
  type SandboxGrants,
  THIS_MACHINE,
} from "./command_grants.ts";
import { PLAYGROUND_PREFIX } from "./_playground_owner.ts";
import { Playground, playgroundKinds } from "./playground.ts";
import { within } from "./_sandbox_view.ts";
import { plainTemp } from "../course/plain_temp.ts";
import { TimeoutError } from "../mcp/shared/errors.ts";
import type { ClientOptions } from "../mcp/client/client_options.ts";
import { otherFileAt } from "./other_file_at.ts";
import { INTRUDER, intruderPolicyOf, type Policy } from "./policy.ts";
import { ThrowawayRoot, throwAwayRootWorks } from "./throwaway_root.ts";

/**
 * What the grader gives a learner's `bwrapCommand`: the intruder's policy
 * (`intruderPolicy`'s, for a fresh playground) and its command,
 * exactly as the lesson gives them, at a playground not made yet. Nothing in
 * them tells a grading run from the lesson's: the playground's folder is
 * named as a fresh one is, by a name this machine keeps until it restarts
 * (the run makes a playground of its own and puts its paths for these).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const { policy, command } = effectInputs();
 * assert.match(policy.read[0], /\/ch15-playground-[0-9a-f]{1,16}\/data$/);
 * assert.ok(command.at(-1)!.endsWith("servers/intruder.ts"));
 * ```
 */
export function effectInputs(): EffectInputs {
  if (inputs === undefined) {
    const root = join(plainTemp(), `${PLAYGROUND_PREFIX}${machineName()}`);
    const policy = intruderPolicyOf({ data: join(root, "data"), home: join(root, "home") }, []);
    const command = [Deno.execPath(), "run", "--no-config", "--quiet", "--allow-all", INTRUDER];
    inputs = { policy, command, root };
  }
  return inputs;
}

/** The grader's policy and command, and the made-up playground folder they name. */
export interface EffectInputs {
  policy: Policy;
  command: string[];
  root: string;
}

let inputs: EffectInputs | undefined;

/**
 * A name as `Deno.makeTempDir` gives a folder (a random 64-bit number in hex,
 * so most often sixteen digits), this machine's until it restarts, which no
 * learner's code can read.
 */
function machineName(): string {
  let boot: string;
  try {
    boot = Deno.readTextFileSync("/proc/sys/kernel/random/boot_id");
  } catch {
    boot = crypto.randomUUID();
  }
  const digest = createHash("sha256").update(`ch15 effect ${boot}`).digest("hex");
  return BigInt(`0x${digest.slice(0, 16)}`).toString(16);
}

/**
 * What a program's start depends on besides its runtime's paths: the
 * machine's configuration, where the loader reads which libraries to load
 * (`/etc/ld.so.preload`, `/etc/ld.so.cache`).
 */
const STARTS_FROM = ["/etc"];

/** What the grader expects: every attempt refused, and `word_count` still answering 4. */
export type Effect = Record<string, string>;

/**
 * The attempts a sandbox must refuse: the lesson's, but the two that limits
 * (not the sandbox) stop; a write into the data folder the tool may only
 * read; that folder remounted writable first, which any capability kept
 * makes succeed (in the grader's root a kept capability reaches nothing,
 * but the same line run by root lets `mount(2)` do it); and a look at each
 * `/proc` in sight, which must show only the sandbox's own processes.
 */
function sandboxAttempts(playground: Playground): Attempt[] {
  return [
    ...attemptsOn(playground).filter((attempt) => !attempt.resource),
    {
      name: "write into its own data folder",
      mode: "write",
      target: `${playground.data}/planted.txt`,
      witness: "file system",
    },
    {
      name: "remount its data folder writable",
      mode: "remount",
      target: `${playground.data}/remounted.txt`,
      witness: "file system",
    },
    {
      name: "see processes outside the sandbox (/proc)",
      mode: "proc",
      target: "",
      witness: "PID namespace",
    },
  ];
}

/** The attempts' names, in order. */
const ATTEMPTS = [
  "read a private key in the home folder",
  "read a secret variable",
  "plant a line in ~/.bashrc",
  "connect to a port on this machine",
  "start a shell that reads the key",
  "outlive the server (setsid)",
  "write into its own data folder",
  "remount its data folder writable",
  "see processes outside the sandbox (/proc)",
  "read a machine file the policy does not grant",
];

/**
 * The attempt decided from the grants alone, wherever the line runs: the
 * lesson runs a line as root on the machine, where whatever it shows of the
 * machine's files beyond the policy (the machine's root, the course's folder,
 * its hidden cases) the intruder reads, while the grader's throw-away root
 * holds nothing of the machine's but what the policy grants, for no attempt
 * there to find.
 */
const MACHINE_FILES = ATTEMPTS[9];

/** Every attempt refused, and the tool answering `4` each time: what a sandbox must give. */
export const EFFECT_EXPECTED: Effect = {
  ...Object.fromEntries(ATTEMPTS.map((name) => [name, "refused"])),
  word_count: "4",
};

/**
 * What `argv` (a learner's `bwrapCommand` of {@linkcode effectInputs}'
 * policy and command) does to the intruder's attempts: run, where
 * bubblewrap runs; predicted from its grants, where it cannot. Throws
 * {@linkcode CannotJudgeError} for a command line `commandGrants` cannot
 * judge, one that runs something else than the command it was given, one
 * that gives it a variable the policy does not set, or one that shows
 * something else than the machine's own files where that command starts
 * from (its code, Deno, the libraries, `/etc`, and the cache of its own that
 * `DENO_DIR` names in the sandbox's private `/tmp`): none of them
 * is run.
 * Throws `TimeoutError` when the intruder's server did not answer in time,
 * which on a busy machine says nothing of the sandbox (the grader runs such a
 * case again, alone).
 *
 * @example A command line that runs another program is not run
 * ```ts
 * import assert from "node:assert/strict";
 * import { CannotJudgeError } from "./command_grants.ts";
 *
 * await assert.rejects(effectOf(["bwrap", "--", "/bin/sh"]), CannotJudgeError);
 * ```
 */
export async function effectOf(argv: unknown): Promise<Effect> {
  const { grants, given } = judgeable(argv);
  if (!(await effectRunsHere()).available) return predicted(grants, given.policy);
  const shows = [...STARTS_FROM, ...given.policy.runtime.paths];
  await using playground = await Playground.create();
  await using root = await ThrowawayRoot.open({ shows, writable: playground.root });
  const effect = await observedEffect(
    placedOn(argv as string[], playground),
    playground,
    (line) => root.command(line),
  );
  // The attempts taken from the grants start no program, so need no /dev/null judged.
  return asRootRunsIt(effect, predicted(grants, given.policy, false));
}

/**
 * What `argv` does to the intruder's attempts as predicted from its grants,
 * which {@linkcode effectOf} answers where bubblewrap cannot run: throws
 * `CannotJudgeError` for every line `effectOf` refuses, and for one whose
 * effect only running it shows.
 *
 * @example A line that shares the network is predicted to let the intruder connect
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const { policy, command } = effectInputs();
 * const binds = [...policy.runtime.paths, policy.read[0]].flatMap((path) => ["--ro-bind", path, path]);
 * const effect = predictedEffect(["bwrap", "--unshare-pid", "--proc", "/proc", ...binds, "--", ...command]);
 * assert.match(effect["connect to a port on this machine"], /^succeeded/);
 * assert.equal(effect.word_count, "4");
 * ```
 */
export function predictedEffect(argv: unknown): Effect {
  const { grants, given } = judgeable(argv);
  return predicted(grants, given.policy);
}

/**
 * The machine a line of the effect case runs on: this one, as it is, with
 * the made-up playground of {@linkcode effectInputs} (which the grader makes
 * before it runs the line) there: the folders and files a playground is
 * made with, of their kinds, and nothing else in it (bwrap stops at a bind
 * of any other path there, which the run's playground does not have).
 */
function withPlayground(): Machine {
  const { root } = effectInputs();
  const made = (path: string) => path === root || path.startsWith(`${root}/`);
  const kinds = playgroundKinds(root);
  return {
    ...EVERY_PATH_EXISTS_AS_HERE,
    exists: (path) => made(path) ? kinds.has(path) : THIS_MACHINE.exists(path),
    // The playground holds no links: what the line names there is where bwrap finds it.
    realPath: (path) => made(path) ? undefined : EVERY_PATH_EXISTS_AS_HERE.realPath(path),
    linkTarget: (path) => made(path) ? undefined : EVERY_PATH_EXISTS_AS_HERE.linkTarget(path),
    kind: (path) => made(path) ? kinds.get(path) : EVERY_PATH_EXISTS_AS_HERE.kind(path),
  };
}

/** `argv`'s grants and the grader's inputs, where {@linkcode effectOf} may judge it; throws `CannotJudgeError` where not. */
function judgeable(
  argv: unknown,
): { grants: CommandGrants & { sandbox: SandboxGrants }; given: EffectInputs } {
  // The line would run on this machine, with the playground the grader makes for it: where it
  // binds a path this machine does not have, or a file over a folder of this machine's, or a
  // folder over a file, bwrap stops.
  const machine = withPlayground();
  const grants = commandGrants(argv, machine);
  const command = grants.command;
  const given = effectInputs();
  if (grants.sandbox === null || !isDeepStrictEqual(command, given.command)) {
    const ran = JSON.stringify(command.slice(0, 3));
    throw new CannotJudgeError(`${ran}: it does not run, sandboxed, the command it was given`);
  }
  // The program must start with the policy's variables only: one of the learner's own
  // (LD_PRELOAD, another DENO_DIR) could make it run code that is not its own.
  const allowed = Object.entries(given.policy.runtime.env).map(([name, value]) =>
    `${name}=${value}`
  );
  const own = grants.sandbox.environment.slice(1).filter((entry) =>
    !entry.startsWith("without ") && !allowed.includes(entry)
  );
  if (own.length > 0) {
    throw new CannotJudgeError(`${own[0]}: a variable the policy does not set, so it is not run`);
  }
  // Nor may its mounts put something else where the program starts from: its own code, or
  // the machine's loader's lists, at the paths of the program it was given, or compiled code
  // where its cache of its own (empty, in the private /tmp) is.
  const starts = [...STARTS_FROM, ...given.policy.runtime.paths, given.policy.runtime.env.DENO_DIR];
  const other = otherFileAt(argv, starts, machine);
  if (other !== undefined) {
    throw new CannotJudgeError(
      `${other.path} ${other.shown}: not the machine's own file where the program it was ` +
        "given starts from, so what runs may not be that program; it is not run",
    );
  }
  // The intruder finds every /proc in sight through the one at /proc: where there is none, it
  // could not find another,
  // the machine's, or the sandbox's own (with bubblewrap's PID 1 in it) put elsewhere.
  const elsewhere = [...machineProcIn(grants.sandbox), ...ownProcsIn(grants.sandbox)];
  if (elsewhere.length > 0 && !procAtProc(grants.sandbox)) {
    throw new CannotJudgeError(
      `${elsewhere[0]}: a /proc in sight where the sandbox has no /proc of its own at /proc ` +
        "(through which the intruder would find it), so it is not run",
    );
  }
  return { grants: grants as CommandGrants & { sandbox: SandboxGrants }, given };
}

/**
 * The attempts that run by root (as the lesson runs a line) can succeed where
 * they cannot in the grader's root, whose bubblewrap, run by a user with no
 * privilege, keeps no capability and always makes a user namespace: root's
 * keeps every capability a line does not drop, and in the machine's user
 * namespace a root program reads the environment of bubblewrap's outer process.
 */
const ROOT_ONLY = ["read a secret variable", "remount its data folder writable"];

/**
 * `effect`, observed in the grader's root, as root would see it run: where
 * the intruder ran (its tool answered), each attempt of
 * {@linkcode ROOT_ONLY} that the grants (`model`) say succeeds succeeds;
 * and {@linkcode MACHINE_FILES} as the grants say.
 */
function asRootRunsIt(effect: Effect, model: Effect): Effect {
  const { word_count, ...judged } = effect;
  if (word_count === "4") {
    for (const name of ROOT_ONLY) {
      if (judged[name] === "refused" && model[name] !== "refused") {
        judged[name] = "succeeded: so its grants say, run by root as the lesson runs it";
      }
    }
  }
  return { ...judged, [MACHINE_FILES]: model[MACHINE_FILES], word_count };
}

/**
 * What to tell whoever reads the results where {@linkcode effectOf}
 * predicts a line's effect from its grants instead of running it, and why,
 * in a sentence an instructor can act on; `undefined` where it runs them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const note = await predictionNote();
 * assert.ok(note === undefined || note.includes("predicted from the grants"));
 * ```
 */
export async function predictionNote(): Promise<string | undefined> {
  const here = await effectRunsHere();
  return here.available
    ? undefined
    : `Chapter 15's case judged by effect was predicted from the grants, not run: ${here.reason}`;
}

/** Whether lines run here: where bubblewrap runs and a throw-away root can be made. */
async function effectRunsHere(): Promise<BubblewrapStatus> {
  const status = await bubblewrapStatus();
  if (!status.available) return status;
  if (!(await throwAwayRootWorks())) {
    return {
      available: false,
      reason: "a throw-away root cannot be made here: the grader is not root, or the kernel " +
        "forbids user namespaces",
    };
  }
  return { available: true, reason: "lines run in a throw-away root of the grader's" };
}

/**
 * `argv` (a line of {@linkcode effectInputs}' policy and command) with the
 * made-up playground's paths moved to `playground`'s.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Playground } from "./playground.ts";
 *
 * await using playground = await Playground.create();
 * const { policy } = effectInputs();
 * const [, , data] = placedOn(["bwrap", "--ro-bind", policy.read[0], policy.read[0], "true"], playground);
 * assert.equal(data, playground.data);
 * ```
 */
export function placedOn(argv: readonly string[], playground: Playground): string[] {
  const { root } = effectInputs();
  return argv.map((word) =>
    word === root || word.startsWith(`${root}/`) ? playground.root + word.slice(root.length) : word
  );
}

/**
 * The judge's own checks on the course's intruder, for its `Client`: it takes
 * a reply's `result` as it comes (Unit B's careless answer, already public),
 * and allows the one call it makes itself (`word_count`). The witnesses, not
 * the replies, decide an attempt (a fake server could answer with the right
 * ids as well), and the judge runs no learner's code, nor Unit A's
 * `answerFor` and `authorize`, which the learners' release withholds.
 */
const JUDGE_CHECKS: Pick<ClientOptions, "answer" | "authorize"> = {
  answer: (_requestId, message) => (message as { result?: unknown }).result,
  authorize: () => true,
};

/**
 * What the intruder, started by `line` (a learner's line, placed on
 * `playground`), did to each attempt, its witness the judge; `around`
 * gives the command line that runs `line` with the intruder's arguments.
 * {@linkcode effectOf} runs it in a throw-away root; the differential test
 * straight on the machine, to prove the root changes nothing.
 *
 * @example The intruder with no sandbox around it
 * ```ts
 * import assert from "node:assert/strict";
 * import { Playground } from "./playground.ts";
 *
 * await using playground = await Playground.create();
 * const { command } = effectInputs();
 * const effect = await observedEffect(command, playground, (line) => line);
 * assert.match(effect["read a private key in the home folder"], /^succeeded/);
 * assert.equal(effect.word_count, "4");
 * ```
 */
export async function observedEffect(
  line: readonly string[],
  playground: Playground,
  around: (line: string[]) => string[],
): Promise<Effect> {
  const effect: Effect = {};
  let answers = "4";
  for (const attempt of sandboxAttempts(playground)) {
    const seen = await observe(
      attempt,
      "bubblewrap",
      (args) => around([...line, ...args]),
      playground,
      { timeoutMs: 10_000, ...JUDGE_CHECKS },
    );
    // A server that did not answer in time on a busy machine tells nothing of the sandbox:
    // the grader runs the case again, alone.
    if (seen.answer.startsWith("TimeoutError")) {
      throw new TimeoutError(`the intruder's server did not answer in time (${attempt.name})`);
    }
    effect[attempt.name] = seen.outcome === "succeeded" ? `succeeded: ${seen.saw}` : "refused";
    if (seen.answer !== "4") answers = seen.answer.slice(0, 200);
  }
  return { ...effect, word_count: answers };
}

/**
 * Each attempt's outcome as the grants predict it, for where bubblewrap
 * cannot run. The intruder's Deno stops at its start (a panic) where no
 * `/proc` is at `/proc`, so no attempt is made and the tool never answers;
 * it starts a program (the shell, `setsid`) with its input from `/dev/null`,
 * so one starts only where that is a device it may open (`spawns`).
 */
function predicted(
  grants: CommandGrants,
  policy: Policy,
  spawns = nullDeviceIn(grants.sandbox!),
): Effect {
  const sandbox = grants.sandbox!;
  const bound = deepestMount(sandbox);
  const reaches = (path: string) => /^read-(only|write)/.test(bound(path)?.what ?? "");
  const writes = (path: string) => /^read-write/.test(bound(path)?.what ?? "");
  const home = policy.deny[0];
  const data = policy.read[0];
  const environment = sandbox.environment;
  const starts = procAtProc(sandbox);
  // Its own environment, or another's read through a /proc: bubblewrap's own PID 1 keeps the
  // caller's, and a /proc of the machine's PID namespace shows bubblewrap's outer process,
  // which a program of the machine's user namespace (run by root) may read.
  const secretKept = environment[0] === "inherited" &&
    !environment.includes("without COURSE_CANARY_TOKEN");
  const outer = sandbox.processes === "shared" || machineProcIn(sandbox).length > 0;
  const secretSeen = procAtProc(sandbox) &&
    (sandbox.reaper || (outer && sandbox.sharedNamespaces.includes("user")));
  const outcome = (succeeds: boolean) =>
    starts && succeeds ? "succeeded: so its grants say" : "refused";
  return {
    [ATTEMPTS[0]]: outcome(reaches(`${home}/.ssh/id_ed25519`)),
    [ATTEMPTS[1]]: outcome(secretKept || secretSeen),
    [ATTEMPTS[2]]: outcome(writes(`${home}/.bashrc`)),
    [ATTEMPTS[3]]: outcome(sandbox.network === "shared"),
    [ATTEMPTS[4]]: outcome(spawns && reaches(`${home}/.ssh/id_ed25519`)),
    [ATTEMPTS[5]]: outcome(spawns && outlives(sandbox)),
    [ATTEMPTS[6]]: outcome(writes(`${data}/planted.txt`)),
    [ATTEMPTS[7]]: outcome(sandbox.capabilities.length > 0),
    [ATTEMPTS[8]]: outcome(sandbox.processes === "own" && machineProcIn(sandbox).length > 0),
    [MACHINE_FILES]: outcome(machineFilesBeyond(sandbox, policy).length > 0),
    word_count: !starts
      ? "the intruder's Deno cannot start without a /proc at /proc"
      : reaches(`${data}/note.txt`)
      ? "4"
      : "the data folder is not in sight",
  };
}

/**
 * Whether `sandbox` shows a `/dev/null` a program may open: one of its own
 * devices (`--dev`), or the machine's bound with its devices (`--dev-bind`).
 * Any other mount there (a plain bind is `nodev`) has none, or one the
 * program may not open. Throws `CannotJudgeError` for a bind of another
 * file there: only running it shows what that file is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CannotJudgeError, commandGrants } from "./command_grants.ts";
 *
 * const sandbox = (...options: string[]) => commandGrants(["bwrap", ...options, "true"]).sandbox!;
 * assert.ok(nullDeviceIn(sandbox("--ro-bind", "/", "/", "--dev", "/dev")));
 * assert.ok(nullDeviceIn(sandbox("--dev-bind", "/", "/")));
 * assert.ok(!nullDeviceIn(sandbox("--bind", "/", "/")));
 * assert.throws(() => nullDeviceIn(sandbox("--dev-bind", "/tmp", "/dev")), CannotJudgeError);
 * assert.throws(() => nullDeviceIn(sandbox("--dev", "/dev", "--ro-bind", "/etc/hostname", "/dev/null")), CannotJudgeError);
 * ```
 */
export function nullDeviceIn(sandbox: SandboxGrants): boolean {
  const at = deepestMount(sandbox)("/dev/null");
  if (at === undefined) return false;
  if (at.what.startsWith("a few devices of its own")) return true;
  const source = at.source;
  if (source === undefined) return false;
  const below = "/dev/null".slice(at.dest === "/" ? 0 : at.dest.length);
  // The machine's own /dev/null: a plain bind is nodev.
  if ((source === "/" ? below : `${source}${below}`) === "/dev/null") {
    return at.what.startsWith("read-write, devices too");
  }
  throw new CannotJudgeError(
    `${at.dest} ${at.what}: what the intruder finds at /dev/null (which each program it ` +
      "starts reads) only running it shows, so it is not predicted",
  );
}

/**
 * Whether a program started in a session of its own outlives the server in
 * `sandbox`. In a PID namespace of its own, its processes end with its PID
 * 1: the server itself (`--as-pid-1`), or bubblewrap's, which waits for every
 * one and so ends with its parent (`--die-with-parent`) or with the server's
 * process group, which the grader ends, unless `--new-session` took it out:
 * a choice the grants do not keep, so that case is refused (`CannotJudgeError`).
 */
function outlives(sandbox: SandboxGrants): boolean {
  if (sandbox.processes === "shared") return true;
  if (!sandbox.reaper || sandbox.endsWithParent) return false;
  throw new CannotJudgeError(
    "bubblewrap's own PID 1 without --die-with-parent: whether a process in a session of its " +
      "own outlives the server (it does where --new-session took that PID 1 out of the " +
      "server's process group) only running it shows, so it is not predicted",
  );
}

/**
 * The machine's folders and files `sandbox` shows that `policy` does not
 * grant (each bind's source, its links followed as bubblewrap follows them,
 * outside the runtime's paths and the folders the policy lets the program
 * read or write: a link in a granted folder that leads out of them shows
 * where it leads). A source in or around a folder the policy denies shows
 * it, though the playground that holds it is made only for the run; any
 * other source that is not there shows nothing, and the machine's `/proc`
 * bound whole is the attempt to see processes outside the sandbox.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commandGrants } from "./command_grants.ts";
 *
 * const { policy } = effectInputs();
 * const sandbox = (...options: string[]) => commandGrants(["bwrap", ...options, "true"]).sandbox!;
 * assert.deepEqual(machineFilesBeyond(sandbox("--ro-bind", "/usr", "/usr"), policy), []);
 * assert.deepEqual(machineFilesBeyond(sandbox("--ro-bind", "/", "/", "--tmpfs", "/tmp"), policy), ["/"]);
 * assert.deepEqual(machineFilesBeyond(sandbox("--ro-bind", policy.deny[0], "/x"), policy), [policy.deny[0]]);
 * ```
 */
export function machineFilesBeyond(sandbox: SandboxGrants, policy: Policy): string[] {
  // A path not there is undefined; one whose links cannot be followed (`/proc/1/root`), itself.
  const real = (path: string) => {
    try {
      return Deno.realPathSync(path);
    } catch (error) {
      return error instanceof Deno.errors.NotFound ? undefined : path;
    }
  };
  const granted = [...policy.runtime.paths, ...policy.read, ...policy.write].flatMap((path) =>
    [path, real(path)].filter((it) => it !== undefined)
  );
  // The playground is made for the run: a source in or around its denied folders shows them.
  const denied = (source: string) =>
    policy.deny.some((path) => within(source, path) || within(path, source));
  return shownIn(sandbox).flatMap(({ source }) => {
    if (source === undefined) return [];
    if (denied(source)) return [source];
    const shown = real(source);
    if (shown === undefined || shown === "/proc") return [];
    // Where its links lead, not its name: /usr/lib/ssl/certs is the machine's /etc/ssl/certs.
    return granted.some((path) => within(shown, path)) ? [] : [source];
  });
}

/** Where `sandbox` shows a `/proc` of its own processes (`--proc`), each in sight. */
function ownProcsIn(sandbox: SandboxGrants): string[] {
  const bound = deepestMount(sandbox);
  return shownIn(sandbox).flatMap(({ dest, what }) => {
    const own = what.startsWith("the sandbox's own processes");
    return own && bound(`${dest}/self`)?.dest === dest ? [dest] : [];
  });
}

/** Whether `sandbox` has a `/proc` at `/proc`, through which the intruder finds every `/proc` in sight. */
function procAtProc(sandbox: SandboxGrants): boolean {
  return [...machineProcIn(sandbox), ...ownProcsIn(sandbox)].includes("/proc");
}

/**
 * Each path `sandbox` shows, as `commandGrants` reports it (`"/x read-only
 * from /usr"`): where, what, and for a bind of the machine's, its source.
 */
function shownIn(sandbox: SandboxGrants): { dest: string; what: string; source?: string }[] {
  return sandbox.paths.map((entry) => {
    const dest = entry.slice(0, entry.indexOf(" "));
    const what = entry.slice(dest.length + 1);
    const bind = /^read-(only|write)/.test(what);
    return { dest, what, source: bind ? what.match(/ from (\/.*)$/)?.[1] ?? dest : undefined };
  });
}

/** What a sandbox shows at a path: the deepest mount over it, as `commandGrants` reports it. */
function deepestMount(
  sandbox: SandboxGrants,
): (path: string) => { dest: string; what: string; source?: string } | undefined {
  const shown = shownIn(sandbox).sort((a, b) => b.dest.length - a.dest.length);
  return (path) => shown.find(({ dest }) => within(path, dest));
}

/**
 * Where `sandbox` shows the machine's `/proc` (bound from it, or from `/`
 * with nothing over its `/proc`), in which a process sees processes outside
 * its sandbox.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commandGrants } from "./command_grants.ts";
 *
 * const sandbox = (...options: string[]) => commandGrants(["bwrap", ...options, "true"]).sandbox!;
 * assert.deepEqual(machineProcIn(sandbox("--ro-bind", "/", "/", "--proc", "/proc")), []);
 * assert.deepEqual(machineProcIn(sandbox("--ro-bind", "/", "/x", "--proc", "/proc")), ["/x/proc"]);
 * assert.deepEqual(machineProcIn(sandbox("--bind", "/proc", "/proc")), ["/proc"]);
 * ```
 */
export function machineProcIn(sandbox: SandboxGrants): string[] {
  const bound = deepestMount(sandbox);
  return shownIn(sandbox).flatMap(({ dest, source }) => {
    if (source === undefined) return [];
    const at = source === "/proc" ? dest : source === "/" ? `${dest === "/" ? "" : dest}/proc` : "";
    return at !== "" && bound(`${at}/self`)?.dest === dest ? [at] : [];
  });
}
