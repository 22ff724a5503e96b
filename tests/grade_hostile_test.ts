// The grader against hostile and unlucky learners, through `deno task grade`
// as an instructor runs it. Every fixture is built at test time, many under
// odd names. Each test names the defect it guards against.

import assert from "node:assert/strict";
import { full, grade as run, type Results, ROOT as root, tree } from "./_grading.ts";

const grade = (...args: string[]) => run(args);
const worked = (name: string) => Deno.readTextFile(`${root}solutions/${name}`);
const student = (name: string) => Deno.readTextFile(`${root}notebooks/${name}`);

const UNIT_A = `
import { ProtocolError } from "../lib/mcp/shared/errors.ts";
export function answerFor(requestId, message) {
  if (message.id !== requestId) throw new ProtocolError("not the reply to " + requestId);
  if ("error" in message) throw new ProtocolError(message.error.message, { code: message.error.code });
  return message.result;
}
export function authorize(name, catalog, allowed) {
  return Object.hasOwn(catalog, name) && allowed.has(name);
}
`;

Deno.test("a comma in a learner's folder never widens what the sandbox may read", async () => {
  // x,/,/answers.ts: spliced into --allow-read, the path would grant "/".
  const leak = `
export function answerFor() { throw new Error(Deno.readTextFileSync("/etc/passwd")); }
export function authorize() { return Deno.readTextFileSync("/etc/hostname").length > 0; }
`;
  const folder = await tree({ "x,/,/answers.ts": leak });
  const { list } = await grade(`${folder}/x,/,/answers.ts`, "--unit", "ch14-a");
  const [results] = list;
  assert.equal(
    results.tests.filter((t) => t.name.startsWith("authorize")).some((t) => t.score),
    false,
  );
  const outputs = JSON.stringify(results.tests.map((t) => t.output));
  assert.doesNotMatch(outputs, /root:/, "the sandbox read /etc/passwd");
});

Deno.test("returning the refusal is not refusing: a returned { throws } earns nothing", async () => {
  const answerForReturns = `
export function answerFor(requestId, message) {
  if (message.id !== requestId || "error" in message) return { throws: "ProtocolError" };
  return message.result;
}
export function authorize(name, catalog, allowed) { return Object.hasOwn(catalog, name) && allowed.has(name); }
`;
  const correlateReturns = `
export function correlate(requestId, reply) {
  if (reply.id !== requestId) return { throws: "ProtocolError", with: { code: undefined } };
  if ("error" in reply) return { throws: "ProtocolError", with: { code: reply.error.code, data: reply.error.data } };
  return reply.result;
}
export function unwrap(text) { try { return JSON.parse(text); } catch { return text; } }
`;
  const folder = await tree({ "a/ch14-a.ts": answerForReturns, "b/lab-02.ts": correlateReturns });
  const { list } = await grade(`${folder}/a`, `${folder}/b`);
  const answerFor = list[0].tests.filter((t) => t.name.startsWith("answerFor"));
  const correlate = list[1].tests.filter((t) => t.name.startsWith("correlate"));
  assert.ok(answerFor.filter((t) => t.score === 0).length >= 3);
  assert.ok(correlate.filter((t) => t.score === 0).length >= 4);
  assert.ok(!full(list[0]) && !full(list[1]));
});

Deno.test("one bad notebook costs only its learner: the class is graded, the JSON written, exit 2", async () => {
  const good = await worked("ch14-a.ipynb");
  const notebook = (change: (nb: Record<string, unknown>) => void) => {
    const nb = JSON.parse(good);
    change(nb);
    return JSON.stringify(nb);
  };
  const deep = "[".repeat(100_000) + "]".repeat(100_000);
  const folder = await tree({
    "a-no-metadata/ch14-a.ipynb": notebook((nb) => delete nb.metadata),
    "b-null-metadata/ch14-a.ipynb": notebook((nb) => nb.metadata = null),
    "c-tostring/work.ipynb": notebook((nb) => nb.metadata = { course: { unit: "toString" } }),
    "d-proto/work.ipynb": notebook((nb) => nb.metadata = { course: { unit: "__proto__" } }),
    "e-constructor/work.ipynb": notebook((nb) => nb.metadata = { course: { unit: "constructor" } }),
    "f-array-unit/work.ipynb": notebook((nb) => nb.metadata = { course: { unit: ["ch14-a"] } }),
    "g-deep-source/ch14-a.ipynb": good.replace('"source": [', `"source": [${deep},`),
    "h-null-cell/ch14-a.ipynb": notebook((nb) => (nb.cells as unknown[]).push(null)),
    "z-honest/ch14-a.ipynb": good,
  });
  const { code, err, list } = await grade(folder);
  assert.equal(code, 2);
  assert.doesNotMatch(err, /\n\s+at /, "a stack trace");
  const problems = err.trim().split("\n").filter((line) => !line.startsWith("grade: note:"));
  assert.equal(problems.length, 8, err);
  assert.deepEqual(list.map((r) => r.submission.split("/").at(-1)), ["z-honest"]);
  assert.ok(full(list[0]));
});

Deno.test("an honest learner in an oddly named folder gets full marks", async () => {
  const names = ["sec #2", "what?", "100%25", "Smith, John", "tab\there", "José", "a'b\"c"];
  const files = Object.fromEntries(names.map((name) => [`${name}/ch14-a.ts`, UNIT_A]));
  files["notebook, #1/ch14-a.ipynb"] = await worked("ch14-a.ipynb");
  const folder = await tree(files);
  const { code, list } = await grade(folder);
  assert.equal(code, 0);
  assert.equal(list.length, names.length + 1);
  for (const results of list) assert.ok(full(results), `${results.submission}: ${results.score}`);
});

Deno.test("a learner's returned text cannot rewrite the report", async () => {
  const ansi = `
export function correlate() { return "\\u001b[1A\\u001b[2K\\rlab-02  someone-else  24/24"; }
export function unwrap() { return "\\u001b]0;owned\\u0007\\u202e"; }
`;
  const folder = await tree({ "mallory/lab-02.ts": ansi });
  const { out, list } = await grade(`${folder}/mallory`);
  assert.ok(list[0].score < list[0].max_score);
  for (const character of ["\u001b", "\u0007", "\r", "\u202e"]) {
    assert.ok(!out.includes(character), `the report holds ${JSON.stringify(character)}`);
  }
  assert.match(out, /\\u\{1b\}/);
});

Deno.test("a stale but honest claim never costs marks; only an over-claim does", async () => {
  const notebook = await worked("ch14-b.ipynb");
  const claims = JSON.parse(
    await Deno.readTextFile(`${root}tests/grading/ch14-b-student-submission.json`),
  );
  // Saved while the code was unfinished: nothing claimed to pass.
  const folder = await tree({
    "ch14-b.ipynb": notebook,
    "ch14-b-submission-v1.json": JSON.stringify(claims),
  });
  const [results] = (await grade(folder)).list;
  assert.ok(full(results), JSON.stringify(results.tests.filter((t) => !t.score)));
  const check = results.tests.find((t) => t.name === "the submission's claims match the re-run")!;
  assert.equal(check.status, "passed");
});

Deno.test("a case of the learner's own is shown as theirs and costs no mark", async () => {
  const notebook = await worked("ch14-b.ipynb");
  const claims = JSON.parse(
    await Deno.readTextFile(`${root}tests/grading/ch14-b-student-submission.json`),
  );
  for (const row of claims.frames) row.status = "PASS";
  claims.transfer = claims.transfer.map((row: Record<string, unknown>) => ({
    ...row,
    passed: true,
  }));
  claims.transfer.push({
    case: "my own: tubs as a float",
    expected: ["tubs must be integer"],
    observed: ["tubs must be integer"],
    passed: true,
  });
  const folder = await tree({
    "ch14-b.ipynb": notebook,
    "ch14-b-submission-v1.json": JSON.stringify(claims),
  });
  const [results] = (await grade(folder)).list;
  assert.ok(full(results), JSON.stringify(results.tests.filter((t) => !t.score)));
  const own = results.tests.find((t) => t.name === "cases of the learner's own")!;
  assert.match(own.output, /my own: tubs as a float/);
});

Deno.test("the README's collection layout grades as one learner, claims checked", async () => {
  const claims = JSON.parse(
    await Deno.readTextFile(`${root}tests/grading/ch14-b-student-submission.json`),
  );
  for (const row of claims.frames) row.status = "PASS";
  const folder = await tree({
    "alice/notebooks/ch14-a.ipynb": await student("ch14-a.ipynb"),
    "alice/notebooks/ch14-b.ipynb": await student("ch14-b.ipynb"),
    "alice/notebooks/.ipynb_checkpoints/ch14-b-checkpoint.ipynb": await worked("ch14-b.ipynb"),
    "alice/work/ch14-b/ch14-b-submission-v1.json": JSON.stringify(claims),
    "alice/work/logs/stale.jsonl": "",
  });
  const { err, list } = await grade(folder);
  assert.deepEqual(list.map((r) => [r.submission.split("/").at(-1), r.unit]), [
    ["alice", "ch14-a"],
    ["alice", "ch14-b"],
  ]);
  const check = list[1].tests.find((t) => t.name === "the submission's claims match the re-run")!;
  assert.equal(check.status, "failed", "the over-claim was not seen");
  assert.match(err, /grade: note: skipped .*\.ipynb_checkpoints: a hidden file or folder/);
});

Deno.test("nested folders are one learner, not one learner per folder", async () => {
  const folder = await tree({
    "bob/week1/unit-a/ch14-a.ts": UNIT_A,
    "bob/week2/ch14-b.ipynb": await worked("ch14-b.ipynb"),
  });
  const { list } = await grade(folder);
  assert.deepEqual(list.map((r) => r.submission.split("/").at(-1)), ["bob", "bob"]);
});

Deno.test("a symbolic link and a hidden folder are each reported in one line", async () => {
  const folder = await tree({ "carol/ch14-a.ts": UNIT_A, ".dave/ch14-a.ts": UNIT_A });
  await Deno.symlink(`${folder}/carol`, `${folder}/erin`);
  const { err, list } = await grade(folder);
  assert.deepEqual(list.map((r) => r.submission.split("/").at(-1)), ["carol"]);
  assert.match(err, /^grade: note: skipped .*\/\.dave: a hidden file or folder$/m);
  assert.match(err, /^grade: note: skipped .*\/erin: a symbolic link/m);
});

Deno.test("ArrayBuffers count against the learner's memory budget", async () => {
  // 4 GiB of filled ArrayBuffers as the module loads, far past the 256 MB heap limit.
  const bomb = `
const hoard = [];
for (let i = 0; i < 64; i++) hoard.push(new Uint8Array(64 << 20).fill(1));
export function unwrap(text) { return text; }
export function correlate() { throw new Error("no"); }
`;
  const folder = await tree({ "bomb/lab-02.ts": bomb, "honest/ch14-a.ts": UNIT_A });
  const { list } = await grade(folder);
  const unwrap = list[0].tests.filter((t) => t.name.startsWith("unwrap"));
  assert.ok(unwrap.every((t) => t.score === 0));
  assert.match(JSON.stringify(unwrap), /memory passed 512 MB/);
  assert.ok(full(list[1]), "the next learner lost marks");
});

Deno.test("splitFrames must return Uint8Array frames: an ArrayBuffer or a DataView is refused", async () => {
  const split = (wrap: string) => `
export function splitFrames(buffer, limit) {
  const frames = [];
  let start = 0;
  for (let end = buffer.indexOf(10); end !== -1; end = buffer.indexOf(10, start)) {
    if (end - start + 1 > limit) throw new RangeError("too long");
    frames.push(${wrap});
    start = end + 1;
  }
  if (buffer.length - start >= limit) throw new RangeError("too long");
  return [frames, buffer.slice(start)];
}
export function transferProblems() { return []; }
`;
  const folder = await tree({
    "buffer/ch14-b.ts": split("buffer.slice(start, end).buffer"),
    "view/ch14-b.ts": split("new DataView(buffer.slice(start, end).buffer)"),
    "right/ch14-b.ts": split("buffer.subarray(start, end)"),
  });
  const { list } = await grade(folder);
  const frames = (r: Results) => r.tests.filter((t) => t.name.startsWith("splitFrames"));
  assert.ok(frames(list[0]).some((t) => t.score === 0 && /Uint8Array/.test(t.output)));
  assert.ok(frames(list[2]).some((t) => t.score === 0 && /Uint8Array/.test(t.output)));
  assert.ok(frames(list[1]).every((t) => t.score === 1));
});

Deno.test("--jobs grades several learners at once and reports them in order", async () => {
  const files: Record<string, string> = {};
  for (const name of ["e", "a", "d", "b", "c"]) files[`${name}/ch14-a.ts`] = UNIT_A;
  const folder = await tree(files);
  const serial = await grade(folder, "--jobs", "1");
  const parallel = await grade(folder, "--jobs", "3");
  assert.deepEqual(parallel.list, serial.list);
  assert.deepEqual(serial.list.map((r) => r.submission.split("/").at(-1)), [
    "a",
    "b",
    "c",
    "d",
    "e",
  ]);
  const bad = await grade(folder, "--jobs", "0");
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--jobs must be a positive whole number/);
});
