// Chapter 15's witnesses and the intruder, without the notebook: what
// escapes the client's close() is found in the process table and ended by
// the unit itself; bubblewrap's PID namespace ends it instead; the files the
// intruder writes are put back; and a machine without bubblewrap is told so.

import assert from "node:assert/strict";
import { Client } from "../lib/mcp/client/client.ts";
import { attemptsOn, observe } from "../lib/containment/attempts.ts";
import { bubblewrapStatus } from "../lib/containment/bubblewrap.ts";
import { CannotJudgeError } from "../lib/containment/command_grants.ts";
import { EFFECT_EXPECTED, effectInputs, effectOf } from "../lib/containment/effect.ts";
import { Playground } from "../lib/containment/playground.ts";
import { INTRUDER, intruderPolicy } from "../lib/containment/policy.ts";
import { processesMentioning } from "../lib/containment/process_table.ts";
import { ToolError } from "../lib/mcp/shared/errors.ts";
import { plainTemp } from "../lib/course/plain_temp.ts";
import { ROOT, tree } from "./_grading.ts";
import { BWRAP_CASES, chapter15, HONEST_BINDS, marks } from "./_chapter15.ts";

const RUN = [Deno.execPath(), "run", "--no-config", "--quiet", "--allow-all", INTRUDER];
const uncontained = (args: string[]) => [...RUN, ...args];
const { available } = await bubblewrapStatus();

function attempt(playground: Playground, mode: string) {
  const found = attemptsOn(playground).find((attempt) => attempt.mode === mode);
  assert.ok(found, mode);
  return found;
}

Deno.test("an uncontained setsid process outlives close(); the unit finds it and ends it", async () => {
  await using playground = await Playground.create();
  const seen = await observe(attempt(playground, "setsid"), "none", uncontained, playground);
  assert.equal(seen.outcome, "succeeded");
  assert.match(seen.saw, /outlived the server \(pid \d+: this unit ended it\)/);
  assert.equal(seen.answer, "4");
  assert.deepEqual(processesMentioning([`MCP_COURSE_GRANDCHILD=ch15-${playground.id}`]), []);
});

Deno.test({
  name: "in bubblewrap the setsid process starts, and ends with the sandbox",
  ignore: !available,
  fn: async () => {
    await using playground = await Playground.create();
    const policy = await intruderPolicy(playground);
    const sandboxed = (args: string[]) => [
      "bwrap",
      "--unshare-all",
      "--die-with-parent",
      "--tmpfs",
      "/tmp",
      "--proc",
      "/proc",
      "--dev",
      "/dev",
      ...[...policy.runtime.paths, playground.data].flatMap((path) => ["--ro-bind", path, path]),
      "--setenv",
      "DENO_DIR",
      policy.runtime.env.DENO_DIR,
      "--",
      ...RUN,
      ...args,
    ];
    const seen = await observe(attempt(playground, "setsid"), "bubblewrap", sandboxed, playground);
    assert.equal(seen.outcome, "refused");
    assert.equal(seen.saw, "a process started in a session of its own, and ended with the server");
    assert.equal(seen.by, "bubblewrap");
    assert.equal(seen.answer, "4");
    assert.deepEqual(processesMentioning([`MCP_COURSE_GRANDCHILD=ch15-${playground.id}`]), []);
  },
});

Deno.test("what the intruder writes is seen, then put back", async () => {
  await using playground = await Playground.create();
  const before = await Deno.readTextFile(playground.profile);
  const seen = await observe(attempt(playground, "write"), "none", uncontained, playground);
  assert.equal(seen.outcome, "succeeded");
  assert.equal(await Deno.readTextFile(playground.profile), before);
});

Deno.test("the intruder's tool counts words only inside its data folder", async () => {
  await using playground = await Playground.create();
  await using client = new Client(uncontained(["--data", playground.data]), {
    allowed: ["word_count"],
  });
  await client.initialize();
  await client.listTools();
  assert.equal(await client.callTool("word_count", { file: "note.txt" }), "4");
  await assert.rejects(client.callTool("word_count", { file: "../home/.bashrc" }), ToolError);
});

Deno.test("without bubblewrap installed, the unit says so and how to install it", async () => {
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "--quiet",
      `import { bubblewrapStatus } from ${
        JSON.stringify(new URL("../lib/containment/bubblewrap.ts", import.meta.url).href)
      };
       console.log(JSON.stringify(await bubblewrapStatus()));`,
    ],
    env: { PATH: "/nonexistent", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.ok(success);
  const status = JSON.parse(new TextDecoder().decode(stdout));
  assert.equal(status.available, false);
  assert.match(status.reason, /not installed.*tools\/setup\.sh.*bubblewrap/);
});

Deno.test("the effect case's policy and command are the lesson's: nothing in them tells a grading run", async () => {
  // Issue 30: the grader's placeholders (/ch15-grader/...) let a learner's bwrapCommand add
  // options only when graded.
  const { policy, command, root } = effectInputs();
  await using playground = await Playground.create();
  const lesson = await intruderPolicy(playground);
  const moved = JSON.parse(JSON.stringify(policy).replaceAll(root, playground.root));
  assert.deepEqual(moved, lesson);
  // Named as Deno.makeTempDir names a fresh playground: a random 64-bit number in hex.
  for (const path of [root, playground.root]) {
    assert.match(path, new RegExp(`^${plainTemp()}/ch15-playground-[0-9a-f]{1,16}$`));
  }
  assert.deepEqual(command, [
    Deno.execPath(),
    "run",
    "--no-config",
    "--quiet",
    "--allow-all",
    INTRUDER,
  ]);
});

const SANDBOX_OF = (remount: boolean) => {
  const { policy, command } = effectInputs();
  const options = ["--unshare-all", "--as-pid-1", "--cap-drop", "ALL", "--die-with-parent"];
  options.push("--clearenv");
  for (const [name, value] of Object.entries(policy.runtime.env)) {
    options.push("--setenv", name, value);
  }
  options.push("--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev");
  for (const path of [...policy.runtime.paths, ...policy.read]) {
    options.push(remount ? "--bind" : "--ro-bind", path, path);
  }
  if (remount) options.push("--remount-ro", "/");
  const { memoryBytes, cpuSeconds } = policy.limits;
  return [
    "bwrap",
    ...options,
    "--",
    "prlimit",
    `--data=${memoryBytes}`,
    `--cpu=${cpuSeconds}`,
    "--",
    ...command,
  ];
};

Deno.test({
  name:
    "a sandbox judged by effect: the lesson's refuses every attempt; one remounted read-only over writable binds lets the data folder be written",
  ignore: !available,
  fn: async () => {
    assert.deepEqual(await effectOf(SANDBOX_OF(false)), EFFECT_EXPECTED);
    const remounted = await effectOf(SANDBOX_OF(true));
    assert.match(remounted["write into its own data folder"], /^succeeded: the file now holds/);
    assert.equal(remounted.word_count, "4");
  },
});

Deno.test("where bubblewrap cannot run, the effect is predicted from the grants", async () => {
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "--quiet",
      `import { effectOf } from ${
        JSON.stringify(new URL("../lib/containment/effect.ts", import.meta.url).href)
      };
       const argv = JSON.parse(Deno.args[0]);
       console.log(JSON.stringify([await effectOf(argv[0]), await effectOf(argv[1])]));`,
      JSON.stringify([SANDBOX_OF(false), SANDBOX_OF(true)]),
    ],
    env: { PATH: "/nonexistent", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.ok(success);
  const [honest, remounted] = JSON.parse(new TextDecoder().decode(stdout));
  assert.deepEqual(honest, EFFECT_EXPECTED);
  assert.equal(remounted["write into its own data folder"], "succeeded: so its grants say");
});

Deno.test("where the effect case cannot run, the grader says that it predicted it, and the honest line keeps its mark", async () => {
  const folder = await tree({ "ada/ch15.ts": chapter15(HONEST_BINDS) });
  const json = `${folder}/results.json`;
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "grade", `${folder}/ada`, "--json", json],
    cwd: ROOT,
    env: { PATH: "/nonexistent", NO_COLOR: "1" },
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(code, 0);
  assert.match(
    new TextDecoder().decode(stderr),
    /grade: note: Chapter 15's case judged by effect was predicted from the grants, not run: bubblewrap is not installed/,
  );
  assert.equal(
    marks(JSON.parse(await Deno.readTextFile(json)), "bwrapCommand"),
    `${BWRAP_CASES}/${BWRAP_CASES}`,
  );
});

Deno.test("a sandbox that gives its program a variable of its own, or another program, is not run", async () => {
  const sandbox = SANDBOX_OF(false);
  const cleared = sandbox.indexOf("--clearenv") + 1;
  const preload = sandbox.toSpliced(cleared, 0, "--setenv", "LD_PRELOAD", "/tmp/evil.so");
  await assert.rejects(effectOf(preload), CannotJudgeError, "LD_PRELOAD=/tmp/evil.so");
  await assert.rejects(effectOf([...sandbox, "--mode", "normal"]), CannotJudgeError);
});
