/**
 * A bubblewrap command line judged by what it does: the intruder is run
 * under it on a fresh playground, and each escape attempt is decided by its
 * witness (a canary's token on the wire, the listener's count, a file's
 * content, the process table). The autograder gives a learner's
 * `bwrapCommand` a policy whose paths are placeholders ({@linkcode EFFECT_POLICY})
 * and the intruder's command ({@linkcode EFFECT_COMMAND}); the command line
 * it returns is checked with `commandGrants`, then the placeholders are
 * replaced by this machine's paths and it is run. Where bubblewrap cannot
 * run, the outcome of each attempt is predicted from the grants instead.
 *
 * @module
 */

import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { type Attempt, attemptsOn, observe } from "./attempts.ts";
import { bubblewrapStatus } from "./bubblewrap.ts";
import {
  CannotJudgeError,
  type CommandGrants,
  commandGrants,
  THIS_MACHINE,
} from "./command_grants.ts";
import { Playground } from "./playground.ts";
import { TimeoutError } from "../mcp/shared/errors.ts";
import { intruderPolicy, type Policy } from "./policy.ts";

/** Where the placeholders stand: each is replaced by this machine's path before the run. */
const PLACE = "/ch15-grader";
const PLACES = {
  data: `${PLACE}/playground/data`,
  home: `${PLACE}/playground/home`,
  deno: `${PLACE}/deno`,
  cache: `${PLACE}/deno-cache`,
  code: `${PLACE}/course`,
};

/** The policy the grader gives: the intruder's, with placeholder paths. */
export const EFFECT_POLICY: Policy = {
  runtime: {
    paths: [
      ...["/usr", "/bin", "/lib", "/lib64"].filter((path) => THIS_MACHINE.exists(path)),
      PLACES.deno,
      PLACES.cache,
      PLACES.code,
    ],
    env: { DENO_DIR: PLACES.cache, NO_COLOR: "1" },
  },
  read: [PLACES.data],
  write: [],
  net: [],
  env: {},
  run: [],
  deny: [PLACES.home],
  limits: { memoryBytes: 1 << 30, cpuSeconds: 1 },
};

/** The command the grader gives: the intruder, started with every Deno permission. */
export const EFFECT_COMMAND: readonly string[] = [
  `${PLACES.deno}/deno`,
  "run",
  "--no-config",
  "--quiet",
  "--allow-all",
  `${PLACES.code}/servers/intruder.ts`,
];

/** What the grader expects: every attempt refused, and `word_count` still answering 4. */
export type Effect = Record<string, string>;

/**
 * The attempts a sandbox must refuse: the lesson's, but the two that limits
 * (not the sandbox) stop, and a write into the data folder the tool may only read.
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
];

/** Every attempt refused, and the tool answering `4` each time: what a sandbox must give. */
export const EFFECT_EXPECTED: Effect = {
  ...Object.fromEntries(ATTEMPTS.map((name) => [name, "refused"])),
  word_count: "4",
};

/**
 * What `argv` (a learner's `bwrapCommand` of {@linkcode EFFECT_POLICY} and
 * {@linkcode EFFECT_COMMAND}) does to the intruder's attempts: run, where
 * bubblewrap runs; predicted from its grants, where it cannot. Throws
 * {@linkcode CannotJudgeError} for a command line `commandGrants` cannot
 * judge, one that runs something else than the command it was given, or
 * one that gives it a variable the policy does not set: none of them is run.
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
  const grants = commandGrants(argv);
  const command = grants.command;
  if (grants.sandbox === null || !isDeepStrictEqual(command, EFFECT_COMMAND)) {
    const ran = JSON.stringify(command.slice(0, 3));
    throw new CannotJudgeError(`${ran}: it does not run, sandboxed, the command it was given`);
  }
  // The program must start with the policy's variables only: one of the learner's own
  // (LD_PRELOAD, another DENO_DIR) could make it run code that is not its own.
  const allowed = Object.entries(EFFECT_POLICY.runtime.env).map(([name, value]) =>
    `${name}=${value}`
  );
  const own = grants.sandbox.environment.slice(1).filter((entry) =>
    !entry.startsWith("without ") && !allowed.includes(entry)
  );
  if (own.length > 0) {
    throw new CannotJudgeError(`${own[0]}: a variable the policy does not set, so it is not run`);
  }
  const prefix = (argv as string[]).slice(0, (argv as string[]).length - command.length);
  if (!(await bubblewrapStatus()).available) return predicted(grants);
  await using playground = await Playground.create();
  const policy = await intruderPolicy(playground);
  const real: [string, string][] = [
    [PLACES.data, playground.data],
    [PLACES.home, playground.home],
    [PLACES.deno, dirname(Deno.execPath())],
    [PLACES.cache, policy.runtime.env.DENO_DIR],
    [PLACES.code, fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "")],
  ];
  const placed = (word: string) => {
    for (const [placeholder, path] of real) {
      if (word === placeholder || word.startsWith(`${placeholder}/`)) {
        return path + word.slice(placeholder.length);
      }
    }
    return word;
  };
  const around = prefix.map(placed);
  const intruder = EFFECT_COMMAND.map(placed);
  const effect: Effect = {};
  let answers = "4";
  for (const attempt of sandboxAttempts(playground)) {
    const seen = await observe(
      attempt,
      "bubblewrap",
      (args) => [...around, ...intruder, ...args],
      playground,
      { timeoutMs: 10_000 },
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

/** Each attempt's outcome as the grants predict it, for where bubblewrap cannot run. */
function predicted(grants: CommandGrants): Effect {
  const sandbox = grants.sandbox!;
  const shown = sandbox.paths.map((entry) => {
    const space = entry.indexOf(" ");
    return { dest: entry.slice(0, space), what: entry.slice(space + 1) };
  });
  const within = (path: string, dest: string) =>
    dest === "/" || path === dest || path.startsWith(`${dest}/`);
  /** The deepest mount that shows `path`, if the machine's folder is bound there. */
  const bound = (path: string) =>
    shown.filter(({ dest }) => within(path, dest)).sort((a, b) => b.dest.length - a.dest.length)
      .find(() => true);
  const reaches = (path: string) => /^read-(only|write)/.test(bound(path)?.what ?? "");
  const writes = (path: string) => /^read-write/.test(bound(path)?.what ?? "");
  const home = PLACES.home;
  const environment = sandbox.environment;
  const secretKept = environment[0] === "inherited" &&
    !environment.includes("without COURSE_CANARY_TOKEN");
  const outcome = (succeeds: boolean) => succeeds ? "succeeded: so its grants say" : "refused";
  return {
    [ATTEMPTS[0]]: outcome(reaches(`${home}/.ssh/id_ed25519`)),
    [ATTEMPTS[1]]: outcome(secretKept),
    [ATTEMPTS[2]]: outcome(writes(`${home}/.bashrc`)),
    [ATTEMPTS[3]]: outcome(sandbox.network === "shared"),
    [ATTEMPTS[4]]: outcome(reaches(`${home}/.ssh/id_ed25519`)),
    [ATTEMPTS[5]]: outcome(sandbox.processes === "shared" || !sandbox.endsWithParent),
    [ATTEMPTS[6]]: outcome(writes(`${PLACES.data}/planted.txt`)),
    word_count: reaches(`${PLACES.data}/note.txt`) ? "4" : "the data folder is not in sight",
  };
}
