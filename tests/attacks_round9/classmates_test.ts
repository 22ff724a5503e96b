// Round 9 of issue 38's red team: hostile classmates in one class run of
// `deno task grade`, as an instructor runs it over a folder of learners'
// folders. Each test names what a hostile learner tried, what it got before
// its defence, and asserts what the defence gives: an honest classmate's
// marks as alone, nothing unearned for the hostile one, the class's results
// written, the machine left as it was. No attempt of this round still
// succeeds, so there is no OPEN set. Run:
//   deno test -A tests/attacks_round9/classmates_test.ts

import assert from "node:assert/strict";
import { full, grade, ROOT, tree, UNIT_A, unitBPasses } from "../_grading.ts";

/** Unit B's saved submission, honest in its shape, with `observed` of its first transfer row as given. */
async function unitBWith(observed: string): Promise<string> {
  return JSON.stringify(await unitBPasses()).replace(
    /"observed":\{[^}]*\}/,
    `"observed":${observed}`,
  );
}

Deno.test("submission JSONs that the schema lets swell in memory leave the class graded and its results written", async () => {
  // Before: each learner's parsed submission was kept for the whole run, and Unit B's
  // transfer rows take any JSON as `observed`: 15.6 MB of `{},` held 355 MB of the grader's
  // heap, so twelve such learners passed its default 4.4 GB and ended the run with nobody's
  // results written. Here the grader's heap is made small, so that two show what twelve do.
  const swollen = await unitBWith(`[${"{},".repeat(3_400_000)}{}]`);
  const folder = await tree({
    "a-swollen/ch14-b-submission-v1.json": swollen,
    "b-swollen/ch14-b-submission-v1.json": swollen,
    "c-honest/ch14-a.ts": UNIT_A,
  });
  const json = `${folder}.json`;
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "grade", folder, "--json", json],
    cwd: ROOT,
    env: { DENO_V8_FLAGS: "--max-old-space-size=400" },
    stdout: "null",
    stderr: "piped",
  }).output();
  const err = new TextDecoder().decode(stderr);
  assert.equal(code, 2, err.slice(-2000));
  const list = [JSON.parse(await Deno.readTextFile(json))].flat();
  const honest = list.find((r: { submission: string }) => r.submission.endsWith("/c-honest"));
  assert.ok(honest !== undefined && full(honest), JSON.stringify(honest?.score));
  for (const name of ["a-swollen", "b-swollen"]) {
    assert.match(err, new RegExp(`${name}/ch14-b-submission-v1\\.json: is \\d+ MB, past the`));
  }
  await Deno.remove(json);
});

Deno.test("a folder named as the grader writes a classmate's name that is not UTF-8 is told apart from it", async () => {
  // Before: the grader writes the bytes of a name that are not UTF-8 as `\xHH`, and a
  // classmate's folder named with those very characters was reported under the same name:
  // two results for "caf\xe9", one of 0, and no telling whose is whose.
  const folder = await tree({
    "caf\\xe9/ch14-a.ts": "export function authorize() { return true; }",
  });
  const latin1 = [...new TextEncoder().encode(`${folder}/caf`), 0xe9];
  await new Deno.Command("python3", {
    args: [
      "-c",
      "import os,sys; p=bytes.fromhex(sys.argv[1]); os.makedirs(p); open(p+b'/ch14-a.ts','w').write(sys.argv[2])",
      latin1.map((b) => b.toString(16).padStart(2, "0")).join(""),
      UNIT_A,
    ],
  }).output();
  const { list } = await grade([folder]);
  const names = list.map((r) => r.submission.slice(folder.length + 1));
  assert.equal(new Set(names).size, 2, JSON.stringify(names));
  const honest = list.find((r) => r.submission === `${folder}/caf\\xe9`);
  assert.ok(
    honest !== undefined && full(honest),
    JSON.stringify(list.map((r) => [r.submission, r.score])),
  );
});

Deno.test("a classmate's code that forks, writes, signals, binds, loads C or reads the hidden cases gets none of it", async () => {
  // Every attempt is made at load and again in a case, and each that works is said in
  // answerFor's answers. The defence (each learner's realms may read only their own folder,
  // and run, write, net, ffi, env and sys are denied) holds: a regression test. Signals are
  // SIGCONT, which would harm nothing if the defence ever gave way.
  const mark = `/tmp/round9-${crypto.randomUUID()}`;
  const hostile = `
const escaped: string[] = [];
const tryTo = async (what: string, step: () => unknown) => {
  try {
    await step();
    escaped.push(what);
  } catch { /* refused */ }
};
async function attempt() {
  await tryTo("fork", () => new Deno.Command("/bin/sh", { args: ["-c", "touch ${mark}-fork; setsid sleep 300 &"] }).spawn());
  await tryTo("child_process", async () => (await import("node:child_process")).execSync("touch ${mark}-child"));
  await tryTo("write", () => Deno.writeTextFileSync("${mark}-write", "x"));
  await tryTo("shm", async () => (await import("node:fs")).writeFileSync("/dev/shm/${
    mark.slice(5)
  }", "x"));
  await tryTo("signal", () => Deno.kill(Deno.ppid, "SIGCONT"));
  await tryTo("signal all", () => Deno.kill(-1, "SIGCONT"));
  await tryTo("ffi", () => Deno.dlopen("libc.so.6", { getpid: { parameters: [], result: "i32" } }));
  await tryTo("listen", () => Deno.listen({ hostname: "127.0.0.1", port: 0 }));
  await tryTo("proc", () => Deno.readTextFileSync("/proc/" + Deno.ppid + "/cmdline"));
  await tryTo("holdouts", () => Deno.readDirSync("${ROOT}holdouts").next());
  await tryTo("cwd", () => Deno.readDirSync(".").next());
  await tryTo("env", () => Deno.env.toObject());
}
await attempt();
${
    UNIT_A.replace(
      "return message.result;",
      "await attempt();\n  return escaped.length > 0 ? `ESCAPED ${escaped}` : message.result;",
    )
      .replace("export function answerFor", "export async function answerFor")
  }`;
  const { list, out } = await grade([
    await tree({ "a-escape/ch14-a.ts": hostile, "b-honest/ch14-a.ts": UNIT_A }),
  ]);
  assert.doesNotMatch(out, /ESCAPED/);
  assert.equal(list.length, 2);
  assert.ok(list.every(full), JSON.stringify(list.map((r) => [r.submission, r.score])));
  for (
    const left of [`${mark}-fork`, `${mark}-child`, `${mark}-write`, `/dev/shm/${mark.slice(5)}`]
  ) {
    await assert.rejects(Deno.lstat(left), Deno.errors.NotFound, left);
  }
});

Deno.test("a classmate's folder of many large files costs the grader no more than 64 MB of reading", async () => {
  // Before: each course file under 16 MB was read and parsed in the grader's own process,
  // however many a learner had: 100 notebooks of 15 MB held every classmate's grading back
  // 50 s before it began. Here five of 15 MB: past 64 MB, the rest is not read.
  const big = JSON.stringify({ unit: "ch14-b", x: "x".repeat(15 << 20) });
  const files: Record<string, string> = { "b-honest/ch14-a.ts": UNIT_A };
  for (const n of [1, 2, 3, 4, 5]) files[`a-many/notes-${n}.json`] = big;
  const { code, err, list } = await grade([await tree(files)]);
  assert.equal(code, 2);
  assert.match(
    err,
    /a-many\/notes-5\.json: not read: with it, this learner's files come to more than the 64 MB/,
  );
  assert.doesNotMatch(err, /notes-4\.json: not read/);
  assert.ok(list.length === 1 && full(list[0]), JSON.stringify(list.map((r) => r.score)));
});

Deno.test("a classmate whose cases wait, sipping CPU, never holds the class: its realm is stopped as not answering", async () => {
  // A case that waits past the wall-clock backstop beside other sandboxes is run again alone,
  // with no other sandbox running: one that waits 40 ms at a time, using 2 ms of CPU between,
  // would hold the whole class for its 60 s. The realm does not answer the grader while it
  // waits, and is stopped at once (the class: 8 s). A regression test.
  const wait = `for (const end = Date.now() + 30000; Date.now() < end;) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 40);
    for (const spin = performance.now() + 2; performance.now() < spin;);
  }`;
  const waiting = UNIT_A.replace("if (message.id", `${wait}\n  if (message.id`)
    .replace("return Object.hasOwn", `${wait}\n  return Object.hasOwn`);
  const files: Record<string, string> = { "a-waiting/ch14-a.ts": waiting };
  for (const name of "bcde") files[`${name}-honest/ch14-a.ts`] = UNIT_A;
  const { list } = await grade([await tree(files), "--jobs", "2"]);
  assert.equal(list[0].score, 0);
  assert.match(JSON.stringify(list[0].tests), /stopped answering, using no CPU time/);
  assert.ok(list.slice(1).every(full), JSON.stringify(list.map((r) => r.score)));
});
