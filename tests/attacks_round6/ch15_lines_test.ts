// Round 6 of issue 38's red team, and after: Chapter 15 lines the hostile
// tests do not try, each given to the effect case as the grader gives a
// learner's bwrapCommand. A line is held when it is refused
// (CannotJudgeError) or its effect is not EFFECT_EXPECTED (no mark); only the
// lines that isolate as the honest one does earn it. Each is judged twice:
// run in the grader's throw-away root (where bubblewrap runs), and
// predicted from its grants (as where it cannot), which must agree. Run:
//   deno test -A tests/attacks_round6/ch15_lines_test.ts

import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import {
  type Effect,
  EFFECT_EXPECTED,
  effectOf,
  observedEffect,
  placedOn,
} from "../../lib/containment/effect.ts";
import { Playground } from "../../lib/containment/playground.ts";
import { bwrapRuns, effectLines } from "../_chapter15.ts";

const { policy, command, data, env, mounts, honest, line } = effectLines();
const intruder = command.at(-1)!;
const denoDir = policy.runtime.env.DENO_DIR;
/** The honest options but `--proc /proc`. */
const noProc = honest.filter((_, i) =>
  honest[i] !== "--proc" && (i === 0 || honest[i - 1] !== "--proc")
);

/** The honest options but `option` (and the word after it, for `--cap-drop`). */
const without = (option: string) =>
  honest.filter((_, i) =>
    honest[i] !== option && (option !== "--cap-drop" || honest[i - 1] !== "--cap-drop")
  );

/** Each line, and whether it must earn the mark. */
const LINES: [string, string[], "earns" | "held"][] = [
  ["the honest line", line(...honest), "earns"],
  [
    "a capability added, then every one dropped",
    line(...honest, "--cap-add", "CAP_SYS_ADMIN", "--cap-drop", "ALL"),
    "earns",
  ],
  [
    "the Deno binary swapped by a -try bind",
    line(...honest, "--ro-bind-try", "/usr/bin/true", command[0]),
    "held",
  ],
  ["the intruder swapped by a -try bind", line(...honest, "--ro-bind-try", data, intruder), "held"],
  [
    "Deno's cache swapped by a -try bind",
    line(...honest, "--bind-try", data, denoDir ?? "/root/.cache/deno"),
    "held",
  ],
  [
    "the Deno binary's folder a link",
    line(...honest, "--symlink", "/usr/bin", command[0].replace(/\/[^/]*$/, "")),
    "held",
  ],
  ["every capability kept, isolated otherwise", line(...honest, "--cap-add", "ALL"), "held"],
  ["CAP_SYS_ADMIN alone kept", line(...honest, "--cap-add", "CAP_SYS_ADMIN"), "held"],
  ["one capability kept, in lower case", line(...honest, "--cap-add", "cap_dac_override"), "held"],
  [
    "every capability kept but CAP_SYS_ADMIN",
    line(...honest, "--cap-add", "ALL", "--cap-drop", "CAP_SYS_ADMIN"),
    "held",
  ],
  ["a writable data folder by a later bind", line(...honest, "--bind", data, data), "held"],
  [
    "the data folder writable, remounted ro first",
    line(...honest, "--remount-ro", data, "--bind", data, data),
    "held",
  ],
  [
    "no PID namespace",
    line(
      "--unshare-user",
      "--unshare-net",
      "--unshare-ipc",
      "--unshare-uts",
      "--die-with-parent",
      "--clearenv",
      ...env,
      ...mounts,
    ),
    "held",
  ],
  ["the network shared", line(...honest, "--share-net"), "held"],
  [
    "no new /proc: the root's own /proc bound",
    line(...noProc, "--bind", "/proc", "/proc"),
    "held",
  ],
  ["the root's own /proc bound read-only", line(...noProc, "--ro-bind", "/proc", "/proc"), "held"],
  ["the root's /proc bound beside its own", line(...honest, "--ro-bind", "/proc", "/x"), "held"],
  [
    "the root's /proc, deep, and no /proc of its own",
    line(...noProc, "--ro-bind", "/proc", "/a/b/c/d/e"),
    "held",
  ],
  ["the root's root bound beside", line(...honest, "--ro-bind", "/", "/x"), "held"],
  ["a process's root link bound", line(...honest, "--bind", "/proc/1/root", "/x"), "held"],
  ["the root's /proc through ..", line(...honest, "--ro-bind", "/usr/../proc", "/x"), "held"],
  ["every device and the whole root, last", line(...honest, "--dev-bind", "/", "/"), "held"],
  ["the environment kept", line("--unshare-all", "--die-with-parent", ...env, ...mounts), "held"],
  [
    "bubblewrap's own PID 1 left in, holding the caller's environment",
    line(...without("--as-pid-1")),
    "held",
  ],
  ["root's capabilities kept: no --cap-drop ALL", line(...without("--cap-drop")), "held"],
  [
    "one capability dropped, root's bubblewrap keeping the rest",
    line(...without("--cap-drop"), "--cap-drop", "CAP_SYS_ADMIN"),
    "held",
  ],
  [
    "bubblewrap's own PID 1 left in, its /proc where the intruder would not look",
    line(...noProc.filter((option) => option !== "--as-pid-1"), "--proc", "/x"),
    "held",
  ],
  [
    "every capability dropped, in lower case",
    line(...without("--cap-drop"), "--cap-drop", "all"),
    "earns",
  ],
];

/** A line's effect, or the refusal's name and message. */
type Judged = Effect | string;

/** Whether `judged` earns the mark. */
const earns = (judged: Judged) => isDeepStrictEqual(judged, EFFECT_EXPECTED);

/** Whether the line earns the mark and how each attempt came out, or the refusal. */
function outcomes(judged: Judged): Judged {
  if (typeof judged === "string") return judged.split(":")[0];
  const each = Object.entries(judged).map(([name, seen]) => [name, seen.split(":")[0]]);
  return { mark: String(earns(judged)), ...Object.fromEntries(each) };
}

async function judgedHere(argv: string[]): Promise<Judged> {
  try {
    return await effectOf(argv);
  } catch (error) {
    if ((error as Error).name !== "CannotJudgeError") throw error;
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

/** Each line as predicted from its grants: judged in a process that finds no bubblewrap. */
async function predicted(): Promise<Judged[]> {
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "--quiet",
      `import { effectOf } from ${
        JSON.stringify(new URL("../../lib/containment/effect.ts", import.meta.url).href)
      };
       const judged = [];
       for (const argv of JSON.parse(Deno.args[0])) {
         judged.push(await effectOf(argv).catch((error) => \`\${error.name}: \${error.message}\`));
       }
       console.log(JSON.stringify(judged));`,
      JSON.stringify(LINES.map(([, argv]) => argv)),
    ],
    env: { PATH: "/nonexistent", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.ok(success);
  return JSON.parse(new TextDecoder().decode(stdout));
}

/** The lines whose mark is not the one they must have. */
function misjudged(judged: Judged[]): string[] {
  return LINES.flatMap(([label, , must], i) =>
    earns(judged[i]) === (must === "earns") ? [] : [`${label} (${must}): ${
      JSON.stringify(
        typeof judged[i] === "string" ? judged[i] : Object.fromEntries(
          Object.entries(judged[i]).filter(([name, seen]) => EFFECT_EXPECTED[name] !== seen),
        ),
      )
    }`]
  );
}

Deno.test("predicted from its grants, no Chapter 15 line earns the mark but those that isolate", async () => {
  assert.deepEqual(misjudged(await predicted()), []);
});

Deno.test({
  name: "run in the grader's root, no Chapter 15 line earns the mark but those that isolate, " +
    "and each is judged as its grants predict",
  // Where bubblewrap cannot run (or the grader is not root), the effect is predicted: above.
  ignore: !bwrapRuns,
  fn: async () => {
    const judged: Judged[] = [];
    for (const [, argv] of LINES) judged.push(await judgedHere(argv));
    assert.deepEqual(misjudged(judged), []);
    const model = await predicted();
    const disagree = LINES.flatMap(([label], i) =>
      isDeepStrictEqual(outcomes(judged[i]), outcomes(model[i])) ? [] : [
        `${label}: ran ${JSON.stringify(outcomes(judged[i]))}, predicted ${
          JSON.stringify(outcomes(model[i]))
        }`,
      ]
    );
    assert.deepEqual(disagree, []);
  },
});

Deno.test({
  name: "a capability kept, bubblewrap's own PID 1, or the root's own /proc, is what keeps the " +
    "mark from a line " +
    "isolated otherwise",
  ignore: !bwrapRuns,
  fn: async () => {
    const remount = "remount its data folder writable";
    const proc = "see processes outside the sandbox (/proc)";
    const secret = "read a secret variable";
    for (
      const [argv, attempt] of [
        [line(...without("--as-pid-1")), secret],
        [line(...without("--cap-drop")), remount],
        [line(...honest, "--cap-add", "ALL"), remount],
        [line(...honest, "--cap-add", "CAP_SYS_ADMIN"), remount],
        [line(...noProc, "--bind", "/proc", "/proc"), proc],
        [line(...honest, "--ro-bind", "/proc", "/x"), proc],
      ] as const
    ) {
      const effect = await effectOf(argv);
      assert.match(effect[attempt], /^succeeded/, argv.join(" "));
      assert.deepEqual({ ...effect, [attempt]: "refused" }, EFFECT_EXPECTED, argv.join(" "));
    }
  },
});

Deno.test({
  name: "run by root, as the lesson runs it, a line without --cap-drop ALL lets the intruder's " +
    "mount(2) remount its data folder writable and write there, one without --as-pid-1 gives it " +
    "the secret in bubblewrap's /proc/1/environ, and the honest line neither",
  ignore: !bwrapRuns,
  fn: async () => {
    await using playground = await Playground.create();
    const run = async (argv: string[]) =>
      await observedEffect(placedOn(argv, playground), playground, (l) => l);
    // Every attempt root's run here makes: the one the effect case decides from the grants alone
    // (the machine's files beyond the policy) it does not.
    const { "read a machine file the policy does not grant": _, ...tried } = EFFECT_EXPECTED;
    const kept = await run(line(...without("--cap-drop")));
    assert.match(kept["remount its data folder writable"], /^succeeded: the file now holds/);
    const reaper = await run(line(...without("--as-pid-1")));
    assert.match(reaper["read a secret variable"], /^succeeded: the secret's token came back/);
    assert.deepEqual({ ...reaper, "read a secret variable": "refused" }, tried);
    assert.deepEqual(await run(line(...honest)), tried);
  },
});
