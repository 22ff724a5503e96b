/**
 * Chapter 15's visible cases, and what both the notebook and the autograder
 * need to read the answers (never a whole command line: a learner derives
 * each from what the witnesses showed): the grants a command line or a list of Deno
 * flags gives (so that options in another order still pass, and a subtly
 * wrong one fails). The policies name paths of a made-up machine: the
 * learner's functions only build command lines, nothing runs. The hidden
 * cases are held back: only the instructors' grader has them.
 *
 * @module
 */

import { commandGrants, type SandboxGrants } from "../lib/containment/command_grants.ts";
import { type DenoGrants, denoGrants } from "../lib/containment/deno_grants.ts";
import { type Limits, type Policy, SANDBOX_DENO_DIR } from "../lib/containment/policy.ts";
import type { GradeCase } from "../lib/grading/grading.ts";
import { nameValue } from "../lib/notebook/value_names.ts";

export { commandGrants, denoGrants };

/** The made-up machine's home folder. */
export const HOME = "/home/ada";
/** The tool's data folder. */
export const DATA = "/srv/tool/data";
/** A folder a tool may write, in the cases that need one. */
export const OUT = "/srv/tool/out";
/** Deno's cache in the sandbox: a folder of its private `/tmp`, empty, as the lesson's policy names it. */
export const CACHE = SANDBOX_DENO_DIR;
/** The server's code. */
export const CODE = "/opt/course/servers";
/** The system folders a program needs. */
export const SYSTEM = ["/usr", "/bin", "/lib", "/lib64"];
/** The limits of most cases: 1 GiB of memory, a second of CPU. */
export const LIMITS: Limits = { memoryBytes: 1073741824, cpuSeconds: 1 };
/** The command the cases wrap: a Deno server. A table calls it "the intruder's command". */
export const COMMAND = nameValue("the intruder's command", [
  "/usr/bin/deno",
  "run",
  "--no-config",
  "--allow-all",
  `${CODE}/intruder.ts`,
  "--data",
  DATA,
]);

/** What the cases' Deno server needs to start, which a table calls "a Deno server's runtime". */
const RUNTIME_NEEDS = nameValue("a Deno server's runtime", {
  paths: [...SYSTEM, CODE],
  env: { DENO_DIR: CACHE, NO_COLOR: "1" },
});

/**
 * The policy of the cases: a Deno server's tool that reads `DATA` and
 * nothing else, never the home folder, with {@linkcode LIMITS}; `changes`
 * replace parts of it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(policy({ net: ["127.0.0.1:8080"] }).net, ["127.0.0.1:8080"]);
 * assert.deepEqual(policy().read, [DATA]);
 * ```
 */
export function policy(changes: Partial<Policy> = {}): Policy {
  return {
    runtime: structuredClone(RUNTIME_NEEDS),
    read: [DATA],
    write: [],
    net: [],
    env: {},
    run: [],
    deny: [HOME],
    limits: LIMITS,
    ...changes,
  };
}

/**
 * What Deno's flags should grant: `grants` for the kinds named, nothing for
 * the others, and no remote import.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(deno({ read: [DATA] }).read, [DATA]);
 * assert.deepEqual(deno().net, []);
 * ```
 */
export function deno(grants: Partial<DenoGrants> = {}): DenoGrants {
  return {
    read: [],
    write: [],
    net: [],
    env: [],
    run: [],
    sys: [],
    ffi: [],
    import: [],
    ...grants,
  };
}

/** What every sandbox of the lesson shows, besides what it binds. */
const OWN = ["/dev a few devices of its own", "/proc the sandbox's own processes"];

/** A private `/tmp`. */
const TMP = "/tmp private, empty";

/** `paths`, each shown read-only. */
export function readOnly(...paths: string[]): string[] {
  return paths.map((path) => `${path} read-only`);
}

/**
 * What a command line should give: the sandbox of the lesson (a private
 * `/tmp`, its own `/proc` and `/dev`, no network, its own processes, ending
 * with its parent, a cleared environment) showing `paths` too, with
 * `changes`, the limits `limits` (as prlimit sets both soft and hard) and
 * the program `command`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const expected = sandboxed(readOnly("/usr"), { network: "shared" });
 * assert.equal(expected.sandbox?.network, "shared");
 * assert.ok(expected.sandbox?.paths.includes("/usr read-only"));
 * ```
 */
export function sandboxed(
  paths: string[],
  changes: Partial<SandboxGrants> = {},
  limits: Limits = LIMITS,
  command: string[] = COMMAND,
): ReturnType<typeof commandGrants> {
  return {
    limits: limited(limits),
    sandbox: {
      paths: [...OWN, TMP, ...paths].sort(),
      network: "none",
      processes: "own",
      sharedNamespaces: [],
      endsWithParent: true,
      reaper: false,
      environment: ["cleared", `DENO_DIR=${CACHE}`, "NO_COLOR=1"],
      capabilities: [],
      ...changes,
    },
    command,
  };
}

/**
 * What a command line limited to `limits` (with no sandbox) gives `command`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(unsandboxed(LIMITS, ["/bin/true"]).limits, ["cpu 1", "data 1073741824"]);
 * ```
 */
export function unsandboxed(limits: Limits, command: string[]): ReturnType<typeof commandGrants> {
  return { limits: limited(limits), sandbox: null, command };
}

function limited(limits: Limits): string[] {
  return [`cpu ${limits.cpuSeconds}`, `data ${limits.memoryBytes}`];
}

/** The runtime of the cases' Deno server, read-only. */
export const RUNTIME = readOnly(...SYSTEM, CODE);

const NODE = ["/usr/bin/node", "/opt/course/node_modules/server/dist/index.js", "/"];

/** Chapter 15's visible cases, by the graded function's name. */
export const CASES: Readonly<
  Record<"limitCommand" | "denoFlags" | "bwrapCommand", readonly GradeCase[]>
> = {
  limitCommand: [
    {
      label: "a Deno server: 1 GiB, one second of CPU",
      args: [LIMITS, COMMAND],
      expected: unsandboxed(LIMITS, COMMAND),
    },
    {
      label: "a Node server: 256 MiB, thirty seconds",
      args: [{ memoryBytes: 268435456, cpuSeconds: 30 }, NODE],
      expected: unsandboxed({ memoryBytes: 268435456, cpuSeconds: 30 }, NODE),
    },
    {
      label: "a program whose path has a space and a comma",
      args: [LIMITS, ["/home/ada/my tools, v2/run", "--fast"]],
      expected: unsandboxed(LIMITS, ["/home/ada/my tools, v2/run", "--fast"]),
    },
  ],
  denoFlags: [
    {
      label: "read the data folder, nothing else",
      args: [policy()],
      expected: deno({ read: [DATA] }),
    },
    {
      label: "a link in the data folder is denied by its name",
      args: [policy({ deny: [HOME, `${DATA}/notes`] })],
      expected: deno({ read: [DATA, `except ${DATA}/notes`] }),
    },
    {
      label: "a tool that writes, connects and reads a variable",
      args: [policy({ write: [OUT], net: ["127.0.0.1:8080"], env: { TZ: "UTC" } })],
      expected: deno({ read: [DATA], write: [OUT], net: ["127.0.0.1:8080"], env: ["TZ"] }),
    },
    {
      label: "a tool that needs nothing",
      args: [policy({ read: [], deny: [] })],
      expected: deno(),
    },
    {
      label: "a path with a comma cannot be named in a flag",
      args: [policy({ read: ["/srv/tool/data, 2026"] })],
      expected: { throws: "TypeError" },
    },
  ],
  bwrapCommand: [
    {
      label: "the intruder's policy",
      args: [policy(), COMMAND],
      expected: sandboxed([...RUNTIME, ...readOnly(DATA)]),
    },
    {
      label: "a data folder under /tmp stays in sight",
      args: [policy({ read: ["/tmp/playground/data"] }), COMMAND],
      expected: sandboxed([...RUNTIME, ...readOnly("/tmp/playground/data")]),
    },
    {
      label: "a tool that writes and connects",
      args: [policy({ write: [OUT], net: ["127.0.0.1:8080"] }), COMMAND],
      expected: sandboxed([...RUNTIME, ...readOnly(DATA), `${OUT} read-write`], {
        network: "shared",
      }),
    },
    {
      label: "a variable the tool reads",
      args: [policy({ env: { TZ: "UTC" } }), COMMAND],
      expected: sandboxed([...RUNTIME, ...readOnly(DATA)], {
        environment: ["cleared", `DENO_DIR=${CACHE}`, "NO_COLOR=1", "TZ=UTC"],
      }),
    },
  ],
};
