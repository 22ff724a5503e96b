/**
 * Chapter 15's hidden cases, and the escape attempts the learner has not
 * seen, which the worked edition's hidden cell makes against the learner's
 * own policies. Instructors' repository and the autograder package only: the
 * learners' release leaves this folder out.
 *
 * @module
 */

import {
  CACHE,
  COMMAND,
  DATA,
  deno,
  HOME,
  LIMITS,
  OUT,
  policy,
  readOnly,
  RUNTIME,
  sandboxed,
  SYSTEM,
  unsandboxed,
} from "../cases/ch15.ts";
import type { Attempt } from "../lib/containment/attempts.ts";
import type { Playground } from "../lib/containment/playground.ts";
import type { GradeCase } from "../lib/grading/grading.ts";

const BIG = { memoryBytes: 8589934592, cpuSeconds: 600 };
const NODE_MODULES = "/home/ada/course/node_modules";
const NODE_COMMAND = ["/usr/bin/node", `${NODE_MODULES}/server/dist/index.js`, "/"];
const NODE_POLICY = policy({
  runtime: { paths: [...SYSTEM, NODE_MODULES], env: { NO_COLOR: "1" } },
  limits: { memoryBytes: 1073741824, cpuSeconds: 10 },
});
const ODD = "/srv/my tools, v2/data";

/** Chapter 15's hidden cases, by the graded function's name. */
export const HOLDOUTS: Readonly<
  Record<"limitCommand" | "denoFlags" | "bwrapCommand", readonly GradeCase[]>
> = {
  limitCommand: [
    {
      label: "eight gibibytes and ten minutes for python",
      args: [BIG, ["/usr/bin/python3", "-m", "server"]],
      expected: unsandboxed(BIG, ["/usr/bin/python3", "-m", "server"]),
    },
    {
      label: "a program named without its folder",
      args: [LIMITS, ["server"]],
      expected: unsandboxed(LIMITS, ["server"]),
    },
    // Each argument as it is: not one left out for being empty, nor trimmed (round 14 of issue 38's
    // red team: command.filter(Boolean), and word.trim()).
    {
      label: "an empty argument is passed on",
      args: [LIMITS, ["/usr/bin/printf", "%s|", "", "end"]],
      expected: unsandboxed(LIMITS, ["/usr/bin/printf", "%s|", "", "end"]),
    },
    {
      label: "an argument with spaces at its ends",
      args: [LIMITS, ["/usr/bin/grep", "-e", " word "]],
      expected: unsandboxed(LIMITS, ["/usr/bin/grep", "-e", " word "]),
    },
  ],
  denoFlags: [
    {
      label: "a link inside a folder it writes is denied for writing too",
      args: [policy({ write: [OUT], deny: [HOME, `${OUT}/latest`] })],
      expected: deno({ read: [DATA], write: [OUT, `except ${OUT}/latest`] }),
    },
    {
      label: "a dictionary folder read beside the data",
      args: [policy({ read: [DATA, "/srv/shared/dictionaries"] })],
      expected: deno({ read: ["/srv/shared/dictionaries", DATA] }),
    },
    {
      label: "a comma in a denied path cannot be named either",
      args: [policy({ deny: [HOME, `${DATA}/a,b`] })],
      expected: { throws: "TypeError" },
    },
    // Every path the flags name, a folder it writes too (round 14 of issue 38's red team), beside
    // folders it writes that can be named: two, and one whose name holds a dash and dots.
    {
      label: "a comma in a folder it writes cannot be named either",
      args: [policy({ write: [`${OUT},old`] })],
      expected: { throws: "TypeError" },
    },
    // Every entry, not only a path (round 14 left it open): {"LANG,HOME": ...} would grant the
    // variables LANG and HOME, which the policy never named, and the lesson asks for exactly what
    // the policy lists and nothing it does not. A comma in a variable's value names nothing.
    {
      label: "a comma in a variable's name cannot be named either",
      args: [policy({ env: { "LANG,HOME": "C" } })],
      expected: { throws: "TypeError" },
    },
    {
      label: "a comma in a variable's value is no name",
      args: [policy({ env: { LANGUAGE: "en,fr" } })],
      expected: deno({ read: [DATA], env: ["LANGUAGE"] }),
    },
    {
      label: "a host named with its port",
      args: [policy({ net: ["api.example.org:8443"] })],
      expected: deno({ read: [DATA], net: ["api.example.org:8443"] }),
    },
    {
      label: "two hosts it may reach",
      args: [policy({ net: ["dict.example.org", "api.example.org"] })],
      expected: deno({ read: [DATA], net: ["api.example.org", "dict.example.org"] }),
    },
    {
      label: "two programs it may start",
      args: [policy({ run: ["/usr/bin/git", "/usr/bin/python3"] })],
      expected: deno({ read: [DATA], run: ["/usr/bin/git", "/usr/bin/python3"] }),
    },
    {
      label: "two folders it writes",
      args: [policy({ write: [OUT, "/srv/tool/logs"] })],
      expected: deno({ read: [DATA], write: ["/srv/tool/logs", OUT] }),
    },
    {
      label: "a folder it writes named with a dash and dots",
      args: [policy({ write: ["/srv/tool/out-v2.1"] })],
      expected: deno({ read: [DATA], write: ["/srv/tool/out-v2.1"] }),
    },
    {
      label: "git may be started",
      args: [policy({ run: ["/usr/bin/git"] })],
      expected: deno({ read: [DATA], run: ["/usr/bin/git"] }),
    },
    {
      label: "TZ and LANG both readable",
      args: [policy({ env: { TZ: "UTC", LANG: "C.UTF-8" } })],
      expected: deno({ read: [DATA], env: ["LANG", "TZ"] }),
    },
    {
      label: "a data folder inside the denied home folder",
      args: [policy({ read: [`${HOME}/data`], deny: [HOME, `${HOME}/data/old`] })],
      expected: deno({ read: [`${HOME}/data`, `except ${HOME}/data/old`] }),
    },
    {
      label: "a data folder named with spaces",
      args: [policy({ read: ["/srv/my tool/data"] })],
      expected: deno({ read: ["/srv/my tool/data"] }),
    },
  ],
  bwrapCommand: [
    {
      label: "a link out of the data folder is never bound",
      args: [policy({ deny: [HOME, `${DATA}/notes`] }), COMMAND],
      expected: sandboxed([...RUNTIME, ...readOnly(DATA)]),
    },
    // A variable both lists name takes policy.env's value, as the lesson now says (round 14 left
    // which one open): the task's own setting is the more specific.
    {
      label: "a variable the policy sets over the runtime's",
      args: [policy({ env: { NO_COLOR: "0" } }), COMMAND],
      expected: sandboxed([...RUNTIME, ...readOnly(DATA)], {
        environment: ["cleared", `DENO_DIR=${CACHE}`, "NO_COLOR=0"],
      }),
    },
    {
      label: "paths with spaces and commas",
      args: [policy({ read: [ODD] }), [...COMMAND, ODD]],
      expected: sandboxed([...RUNTIME, ...readOnly(ODD)], {}, LIMITS, [...COMMAND, ODD]),
    },
    {
      label: "Node and its packages, with ten seconds of CPU",
      args: [NODE_POLICY, NODE_COMMAND],
      expected: sandboxed(
        [...readOnly(...SYSTEM, NODE_MODULES), ...readOnly(DATA)],
        {
          environment: ["cleared", "NO_COLOR=1"],
        },
        { memoryBytes: 1073741824, cpuSeconds: 10 },
        NODE_COMMAND,
      ),
    },
    {
      label: "a value with spaces and an equals sign",
      args: [policy({ env: { GREETING: "a = b c" } }), COMMAND],
      expected: sandboxed([...RUNTIME, ...readOnly(DATA)], {
        environment: ["cleared", `DENO_DIR=${CACHE}`, "GREETING=a = b c", "NO_COLOR=1"],
      }),
    },
    {
      label: "data under /tmp, written to as well",
      args: [policy({ read: ["/tmp/p/data"], write: ["/tmp/p/out"] }), COMMAND],
      expected: sandboxed([...RUNTIME, ...readOnly("/tmp/p/data"), "/tmp/p/out read-write"]),
    },
    // The writable binds after the read-only ones, as the lesson orders them: bound first, a folder
    // it writes inside one it reads is hidden by that bind (round 14 of issue 38's red team).
    {
      label: "a folder it writes inside the folder it reads",
      args: [policy({ write: [`${DATA}/out`] }), COMMAND],
      expected: sandboxed([...RUNTIME, ...readOnly(DATA), `${DATA}/out read-write`]),
    },
    {
      label: "an empty argument reaches the program",
      args: [policy(), [...COMMAND, ""]],
      expected: sandboxed([...RUNTIME, ...readOnly(DATA)], {}, LIMITS, [...COMMAND, ""]),
    },
  ],
};

/**
 * The escape attempts the learner has not seen, planted in `playground`:
 * another secret file, another port, a secret read through a symbolic link
 * in the data folder, and a write into the data folder itself. Plant them
 * before making the policy, which denies the link by name.
 */
export async function holdoutAttempts(playground: Playground): Promise<Attempt[]> {
  const credentials = await playground.plant(".aws/credentials");
  const link = await playground.link("shared-notes", credentials.where);
  const listener = playground.openListener();
  return [
    {
      name: "read another secret file",
      mode: "read-file",
      target: credentials.where,
      witness: "canary",
      token: credentials.token,
    },
    {
      name: "connect to another port",
      mode: "connect",
      target: String(listener.port),
      witness: "listener",
      listener,
    },
    {
      name: "read a secret through a link in its data folder",
      mode: "read-file",
      target: link,
      witness: "canary",
      token: credentials.token,
    },
    {
      name: "write into its own data folder",
      mode: "write",
      target: `${playground.data}/planted.txt`,
      witness: "file system",
    },
  ];
}
