// The grader against hostile and unlucky learners, through `deno task grade`
// as an instructor runs it. Every fixture is built at test time, many under
// odd names. Each test names the defect it guards against.

import assert from "node:assert/strict";
import JavaScriptObfuscator from "javascript-obfuscator";
import {
  full,
  grade as run,
  type Results,
  ROOT as root,
  tree,
  UNIT_A,
  unitBPasses,
} from "./_grading.ts";
import {
  BWRAP_CASES,
  bwrapRuns,
  chapter15,
  HONEST_BINDS,
  LIMIT_CASES,
  marks,
} from "./_chapter15.ts";
import { processesMentioning } from "../lib/containment/process_table.ts";
import { realmFiles } from "../tools/grading/scratch.ts";
import { casesOf, loadHoldouts, UNITS } from "../tools/grading/units/mod.ts";
import { CH14_B as CH14_B_CATALOGUE } from "./catalogue/ch14_b.ts";
import { base64, LAB_04_OTHERS, standaloneSeal } from "./_seals.ts";
import { LAB_03 as LAB_03_CATALOGUE } from "./catalogue/lab_03.ts";
import { maskAnswers, maskBundle, obfuscated, releasedMaskBundle } from "./_released_mask.ts";

const grade = (...args: string[]) => run(args);
const worked = (name: string) => Deno.readTextFile(`${root}solutions/${name}`);
const student = (name: string) => Deno.readTextFile(`${root}notebooks/${name}`);

/** That `fn` scored 0 in every case, and the line on the learner's own code says `why`. */
function assertCopied(results: Results, fn: string, why: RegExp): void {
  const marks = results.tests.filter((t) => t.name.startsWith(`${fn}: `));
  const line = results.tests.find((t) => t.name === "every graded function is the learner's own");
  assert.ok(
    marks.length > 0 && marks.every((t) => t.score === 0),
    `${fn} kept marks: ${JSON.stringify(marks.filter((t) => t.score > 0))}; own-code line: ${
      line?.output ?? "(none)"
    }`,
  );
  assert.match(line!.output, why);
}

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
  assert.match(out, /\\u001b|\\u\{1b\}/); // shown escaped, as a string is quoted
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
  const claims = await unitBPasses();
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
  assert.equal(list[0].score, 0);
  // The first case to load the module is stopped for its memory (on a busy machine, a later
  // one may run out of CPU time first).
  assert.match(JSON.stringify(list[0].tests), /memory passed 512 MB/);
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

// The judge apart from the judged (issue 20): each attack below succeeded
// against a grader whose judging shared a realm, a process or a folder with
// the code it judged.

/** The worked notebook `name` with the source of each cell in `cells` (by id) replaced, and cells added. */
async function notebookWith(
  name: string,
  cells: Record<string, string>,
  added: { after: string; id: string; source: string }[] = [],
): Promise<string> {
  const nb = JSON.parse(await worked(name));
  for (const cell of nb.cells) {
    if (cell.id in cells) cell.source = cells[cell.id];
  }
  for (const { after, id, source } of added) {
    const at = nb.cells.findIndex((cell: { id: string }) => cell.id === after);
    nb.cells.splice(at + 1, 0, {
      cell_type: "code",
      id,
      metadata: {},
      source,
      outputs: [],
      execution_count: null,
    });
  }
  return JSON.stringify(nb);
}

/** The marks of `fn`'s cases that name a fault (the ones a test must fail on a faulty client). */
const faultMarks = (results: Results, fn: string) =>
  results.tests.filter((t) => t.name.startsWith(`${fn}: fails against`));

const NAMED = [
  "testInitializeReturnsToolsCapability",
  "testListToolsReturnsFour",
  "testCallConjugateReturnsAte",
  "testCallOutOfScopeRaisesToolError",
  "testUnknownToolRaisesProtocolError",
  "testClientCleansUpOnException",
];

Deno.test("a named test that tells the faulty client by its name or shape earns nothing for it", async () => {
  const tests = NAMED.map((name) => `
async function ${name}(connect) {
  const { client } = connect();
  const shape = Object.getOwnPropertyNames(Object.getPrototypeOf(client)).join();
  try {
    if (client.constructor.name !== "McpClient" || !shape.includes("callTool")) throw new Error("faulty");
  } finally {
    await client[Symbol.asyncDispose]?.();
  }
}`).join("\n");
  const folder = await tree({
    "mallory/lab-02.ipynb": await notebookWith("lab-02.ipynb", { "named-tests": tests }),
  });
  const [results] = (await grade(folder)).list;
  for (const name of NAMED) {
    const faults = faultMarks(results, name);
    assert.ok(faults.length > 0);
    assert.ok(faults.every((t) => t.score === 0), `${name}: ${JSON.stringify(faults)}`);
  }
});

Deno.test("a learner's cell that forges the realm's reply channel earns nothing", async () => {
  // Empty tests, and every reply the realm sends rewritten to what a good test would report.
  const forged = `
const realPost = globalThis.postMessage.bind(globalThis);
const pass = { correct: "passed", faulty: "failed" };
globalThis.postMessage = (message, ...rest) => {
  if (message?.reply) message = { reply: { ...message.reply, returned: message.reply.returned === "failed" ? "failed" : "passed" } };
  else if (message && "returned" in message) message = { ...message, returned: pass };
  return realPost(message, ...rest);
};
${NAMED.map((name) => `async function ${name}() {}`).join("\n")}
`;
  const folder = await tree({
    "mallory/lab-02.ipynb": await notebookWith("lab-02.ipynb", { "named-tests": forged }),
  });
  const [results] = (await grade(folder)).list;
  for (const name of NAMED) {
    assert.ok(faultMarks(results, name).every((t) => t.score === 0), name);
  }
});

Deno.test("no reference solution reaches the learner's realm: a cell that looks for one finds nothing to show", async () => {
  // Every message the realm receives is searched for the worked client, and any found is put
  // into what the realm reports, where a visible case's "observed" would show it.
  const snoop = `
const seen = [];
queueMicrotask(() => {
  const handler = globalThis.onmessage;
  globalThis.onmessage = (event) => {
    try { seen.push(JSON.stringify(event.data)); } catch {}
    return handler?.(event);
  };
});
const realPost = globalThis.postMessage.bind(globalThis);
globalThis.postMessage = (message, ...rest) => {
  const found = seen.find((text) => text.includes("ListingClient"));
  if (found && message && typeof message === "object") {
    const at = found.indexOf("class McpClient");
    const leak = found.slice(at, at + 120);
    if (message.reply) message = { reply: { ...message.reply, returned: leak } };
    else if ("returned" in message) message = { ...message, returned: { correct: leak } };
  }
  return realPost(message, ...rest);
};
`;
  const nb = JSON.parse(await worked("lab-02.ipynb"));
  const cell = nb.cells.find((c: { id: string }) => c.id === "named-tests");
  cell.source = snoop + [cell.source].flat().join("");
  const folder = await tree({ "mallory/lab-02.ipynb": JSON.stringify(nb) });
  const { out, list } = await grade(folder);
  assert.doesNotMatch(out, /extends ListingClient/);
  assert.doesNotMatch(JSON.stringify(list), /extends ListingClient/);
});

Deno.test("hidden cases run apart: a function that keeps its arguments cannot show them in a visible case", async () => {
  // answerFor keeps what it is called with; authorize, graded after it, shows what was kept.
  const thief = `
globalThis.kept ??= [];
export function answerFor(requestId, message) {
  globalThis.kept.push([requestId, message]);
  return message.result;
}
export function authorize(name, catalog, allowed) {
  return JSON.stringify(globalThis.kept.slice(-3));
}
`;
  const folder = await tree({ "mallory/ch14-a.ts": thief });
  const { out, list } = await grade(folder);
  const shown = out + list.flatMap((r) => r.tests.map((t) => t.output)).join("\n");
  // Only hidden cases call answerFor with the id 0, or the string "0".
  assert.doesNotMatch(shown, /\[0,\{"jsonrpc"|\["0",/);
});

Deno.test("graded code may import only what its unit's starter imports: a library copy, a sibling or a seal is refused, saying why", async () => {
  const honestAuthorize = `export function authorize(name, catalog, allowed) {
  return Object.hasOwn(catalog, name) && allowed.has(name);
}`;
  const folder = await tree({
    "b1/ch14-b.ts": `
export { splitFrames } from "../lib/mcp/shared/framing.ts";
export function transferProblems(schema, args) { return []; }`,
    // Issue 30: a one-line wrapper over the server's own argument check earned 18/18.
    "b2/ch14-b.ts": `
import { argumentProblems } from "../lib/mcp/server/arguments.ts";
export function transferProblems(schema, args) { return argumentProblems(schema, args); }
export function splitFrames(buffer, limit) { return [[], buffer]; }`,
    "b3/ch14-b.ts": `
const { transferProblems: theirs } = await import("../lib/mcp/shared/" + "transfer_problems.ts");
export function transferProblems(schema, args) { return theirs(schema, args); }
export function splitFrames(buffer, limit) { return [[], buffer]; }`,
    "s1/ch14-a.ts": `
export { answerFor } from "../lib/mcp/client/answer.sealed.js";
${honestAuthorize}`,
    // Issue 30: the seal read from the scratch folder at run time, imported from a data: URL.
    "s2/ch14-a.ts": `
const text = await Deno.readTextFile(new URL(import.meta.resolve("../lib/mcp/client/answer.sealed.js")));
const { answerFor: sealed } = await import("data:text/javascript," + encodeURIComponent(text));
export const answerFor = sealed;
${honestAuthorize}`,
    "l1/lab-01.ts": `
import { handleLine, negotiateVersion as negotiate } from "../lib/mcp/server/dispatch.ts";
import { GRAMMAR_TOOLS } from "../lib/course/grammar_tools.ts";
export const negotiateVersion = (requested) => negotiate(requested);
export function handleMessage(line) {
  return handleLine(line, { name: "grammar", version: "1.0.0", tools: GRAMMAR_TOOLS });
}`,
    "l2/lab-01.ts": `
import { handleLine } from "../lib/mcp/server/dispatch.sealed.js";
import { GRAMMAR_TOOLS } from "../lib/course/grammar_tools.ts";
export function negotiateVersion(requested) { return requested === "2024-11-05" ? requested : "2025-06-18"; }
export function handleMessage(line) {
  return handleLine(line, { name: "grammar", version: "1.0.0", tools: GRAMMAR_TOOLS });
}`,
    // Issue 30: the Phase 33 lab's sseData taken from the library's own SSE reader.
    "p/lab-04.ts": `
export { readSseEvents as sseData } from "../lib/mcp/shared/sse.ts";
${LAB_04_OTHERS}`,
  });
  const { list } = await grade(folder);
  const expected = [
    ["b1", "lib/mcp/shared/framing.ts", ["splitFrames", "transferProblems"]],
    ["b2", "lib/mcp/server/arguments.ts", ["splitFrames", "transferProblems"]],
    ["b3", "lib/mcp/shared/transfer_problems.ts", ["splitFrames", "transferProblems"]],
    ["s1", "lib/mcp/client/answer.sealed.js", ["answerFor", "authorize"]],
    ["s2", "lib/mcp/client/answer.sealed.js", ["answerFor", "authorize"]],
    ["l1", "lib/mcp/server/dispatch.ts", ["negotiateVersion", "handleMessage"]],
    ["l2", "lib/mcp/server/dispatch.sealed.js", ["negotiateVersion", "handleMessage"]],
    ["p", "lib/mcp/shared/sse.ts", ["sseData", "sessionCheck"]],
  ] as const;
  for (const [name, file, functions] of expected) {
    const results = list.find((r) => r.submission.endsWith(`/${name}`))!;
    const marks = results.tests.filter((t) => functions.some((fn) => t.name.startsWith(`${fn}: `)));
    assert.ok(marks.length > 0 && marks.every((t) => t.score === 0), name);
    // Refused where it loads (a copy the grader also recognises says so first, as b1's splitFrames).
    const why = `it imports or reads ${file}, which this unit does not give`;
    assert.ok(marks.some((t) => t.output.includes(why)), `${name}: ${marks[0].output}`);
  }
});

Deno.test("no unit's realms may read a library module that implements one of its graded ideas", async () => {
  // Where each unit's graded ideas live in the library, siblings included (issue 30's audit).
  const ideas: Record<string, string[]> = {
    "ch14-a": [
      "lib/mcp/client/answer.ts",
      "lib/mcp/client/allowlist.ts",
      "lib/mcp/client/replies.ts",
    ],
    "ch14-b": [
      "lib/mcp/shared/framing.ts",
      "lib/mcp/shared/split_frames.ts",
      "lib/mcp/shared/transfer_problems.ts",
      "lib/mcp/shared/schema.ts",
      "lib/mcp/server/arguments.ts",
    ],
    "ch15": [
      "lib/containment/bubblewrap.ts",
      "lib/containment/_command_line.ts",
      "lib/containment/command_grants.ts",
      "lib/containment/deno_grants.ts",
      "lib/containment/policy.ts",
    ],
    "lab-01": [
      "lib/mcp/server/dispatch.ts",
      "lib/mcp/shared/versions.ts",
      "lib/mcp/server/http_server.ts",
      "lib/mcp/server/session.ts",
    ],
    "lab-02": [
      "lib/mcp/client/negotiation.ts",
      "lib/mcp/client/dual_era.ts",
      "lib/mcp/client/client.ts",
      "lib/mcp/client/connection.ts",
      "lib/mcp/client/handshake.ts",
      "lib/mcp/client/pending_requests.ts",
      "lib/mcp/client/server_process.ts",
      "lib/mcp/client/stdio_transport.ts",
      "lib/mcp/client/tool_call.ts",
      "lib/mcp/client/tool_list.ts",
      "lib/mcp/client/tool_result.ts",
      "lib/mcp/client/answer.ts",
    ],
    // The whole mask (a list of its modules went stale when it was rewritten, issue 41), and the
    // client's answers to an input_required result, which retryRequest rebuilds.
    "lab-03": [
      ...[...Deno.readDirSync(`${root}lib/mask`)].map(({ name }) => `lib/mask/${name}`)
        .filter((file) => file.endsWith(".ts") && !file.endsWith("_test.ts")),
      "lib/mcp/client/input_responses.ts",
    ],
    "lab-04": [
      "lib/mcp/shared/sse.ts",
      "lib/mcp/shared/read_sse_events.ts",
      "lib/mcp/client/http_transport.ts",
      "lib/mcp/client/http_incoming.ts",
      "lib/mcp/server/http_session.ts",
      "lib/mcp/server/http_replies.ts",
      "lib/mcp/server/origin_check.ts",
      "lib/mcp/client/pending_requests.ts",
    ],
  };
  const read = (file: string) => Deno.readTextFile(`${root}${file}`);
  for (const spec of UNITS.values()) {
    const readable = await realmFiles(spec, read);
    const wired = spec.functions.flatMap((fn) => fn.library ?? []).map(({ file }) => file);
    const modules = spec.functions.flatMap((fn) => fn.libraryModules ?? []);
    const ideaFiles = [...new Set([...ideas[spec.unit], ...wired, ...modules])];
    const seals = ideaFiles.map((file) => file.replace(/\.ts$/, ".sealed.js"));
    for (const file of [...ideaFiles, ...seals]) {
      assert.ok(!readable.includes(file), `${spec.unit}'s realms may read ${file}`);
    }
    for (const file of ideaFiles) await Deno.stat(`${root}${file}`); // each one exists
  }
});

Deno.test("learner code cannot load the grader's own files by path: modules come from the scratch folder only", async () => {
  // The holdouts hold every hidden case; a static or computed import of them by path.
  const peek = `
import { HOLDOUTS } from "${root}holdouts/ch14_a.ts";
export function answerFor(requestId, message) {
  const hidden = HOLDOUTS.answerFor.find((c) => JSON.stringify(c.args) === JSON.stringify([requestId, message]));
  if (hidden) { if (hidden.expected?.throws) throw new (class ProtocolError extends Error { name = "ProtocolError"; })(); return hidden.expected; }
  return message.result;
}
export function authorize() { return false; }
`;
  const folder = await tree({ "mallory/ch14-a.ts": peek });
  const [results] = (await grade(folder)).list;
  const hidden = results.tests.filter((t) => t.name.startsWith("answerFor: hidden"));
  assert.ok(hidden.length > 0 && hidden.every((t) => t.score === 0));
});

Deno.test("Lab 01's server, given no permission, reads nothing outside its folder: no import by path, no npm, no file", async () => {
  const { folderOnlyImportMap, learnerServerCommand } = await import("../lib/course/course.ts");
  const outside = await Deno.makeTempDir({ prefix: "lab01-outside-" });
  const folder = await Deno.makeTempDir({ prefix: "lab01-server-" });
  try {
    // What the server must not reach: a module beside the course's, by absolute path.
    await Deno.writeTextFile(`${outside}/secret.ts`, `export const SECRET = "the hidden cases";\n`);
    await Deno.writeTextFile(
      `${folder}/import_map.json`,
      JSON.stringify(folderOnlyImportMap(new URL(`file://${folder}/`))),
    );
    await Deno.writeTextFile(`${folder}/mine.ts`, `export const MINE = "its own module";\n`);
    const attempts: Record<string, string> = {
      "a static import by path":
        `import { SECRET } from "file://${outside}/secret.ts";\nconsole.log(SECRET);`,
      "a computed import":
        `const { SECRET } = await import(["file:/", "${outside}", "secret.ts"].join("/"));\nconsole.log(SECRET);`,
      "an npm package":
        `import Ajv from "npm:ajv@8.20.0";\nconsole.log("the hidden cases", typeof Ajv);`,
      "a file read": `console.log(Deno.readTextFileSync("${outside}/secret.ts"));`,
    };
    for (const [attempt, source] of Object.entries(attempts)) {
      await Deno.writeTextFile(`${folder}/grammar_server.mts`, source);
      const [program, ...args] = learnerServerCommand(`${folder}/grammar_server.mts`);
      const ran = await new Deno.Command(program, { args, stdout: "piped", stderr: "piped" })
        .output();
      const said = new TextDecoder().decode(ran.stdout);
      assert.ok(!said.includes("the hidden cases"), `${attempt} reached outside: ${said}`);
      assert.notEqual(ran.code, 0, `${attempt} ran`);
    }
    // Its own folder it may use.
    await Deno.writeTextFile(
      `${folder}/grammar_server.mts`,
      `import { MINE } from "./mine.ts";\nconsole.log(MINE);`,
    );
    const [program, ...args] = learnerServerCommand(`${folder}/grammar_server.mts`);
    const own = await new Deno.Command(program, { args, stdout: "piped", stderr: "piped" })
      .output();
    assert.equal(new TextDecoder().decode(own.stdout).trim(), "its own module");
  } finally {
    await Deno.remove(outside, { recursive: true });
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("one learner's folder whose name is not UTF-8, or nested past the path limit, stops no one", async () => {
  const folder = await tree({ "alice/ch14-a.ts": UNIT_A });
  // As an archive unzipped from another system leaves it: "café" in Latin-1.
  const latin1 = new Uint8Array([...new TextEncoder().encode(`${folder}/caf`), 0xe9]);
  await new Deno.Command("python3", {
    args: [
      "-c",
      "import os,sys; p=bytes.fromhex(sys.argv[1]); os.makedirs(p); open(p+b'/ch14-a.ts','w').write(sys.argv[2])",
      [...latin1].map((b) => b.toString(16).padStart(2, "0")).join(""),
      UNIT_A,
    ],
  }).output();
  let deep = `${folder}/zed`;
  const part = "d".repeat(200);
  await Deno.mkdir(deep);
  await Deno.writeTextFile(`${deep}/ch14-a.ts`, UNIT_A);
  // Past PATH_MAX, by way of relative steps from a working folder deep enough.
  await new Deno.Command("sh", {
    args: [
      "-c",
      `cd "${deep}" && for i in $(seq 1 25); do mkdir ${part} && cd ${part}; done && echo x > ch14-a.ts`,
    ],
  }).output();
  deep = `${deep}/${part}`;
  const { code, list, err } = await grade(folder);
  assert.ok(code === 0 || code === 2, err);
  const names = list.map((r) => r.submission.split("/").at(-1));
  assert.deepEqual(names, ["alice", "caf\\xe9", "zed"]);
  assert.ok(list.every(full), JSON.stringify(list.map((r) => [r.submission, r.score])));
  assert.doesNotMatch(err, /\n\s+at /, "a stack trace");
});

Deno.test("helpers in the learner's own cells and names declared again in a later cell grade as the kernel runs them", async () => {
  // A helper of splitFrames in a cell the learner added.
  const unitB = await notebookWith("ch14-b.ipynb", {
    "split-frames": `function splitFrames(buffer, limit) { return splitWithLimit(buffer, limit); }`,
  }, [{
    after: "prediction",
    id: "my-helper",
    source: `// my helper
function splitWithLimit(buffer, limit) {
  const frames = [];
  let start = 0;
  for (let end = buffer.indexOf(10); end !== -1; end = buffer.indexOf(10, start)) {
    if (end - start + 1 > limit) throw new RangeError("too long");
    frames.push(buffer.subarray(start, end));
    start = end + 1;
  }
  if (buffer.length - start >= limit) throw new RangeError("too long");
  return [frames, buffer.subarray(start)];
}
console.log(splitWithLimit(new TextEncoder().encode("a\\n"), 10));
await Deno.mkdir("scratch-of-mine", { recursive: true });`,
  }]);
  // The same name declared in two graded cells, as the kernel allows.
  const nb = JSON.parse(await worked("lab-02.ipynb"));
  const cell = (id: string) => nb.cells.find((c: { id: string }) => c.id === id);
  const source = (id: string) => [cell(id).source].flat().join("");
  cell("handshake").source = `const encoder = new TextEncoder();\n${source("handshake")}`;
  const folder = await tree({
    "b/ch14-b.ipynb": unitB,
    "l/lab-02.ipynb": JSON.stringify(nb),
  });
  const { list } = await grade(folder);
  for (const results of list) {
    assert.ok(full(results), JSON.stringify(results.tests.filter((t) => !t.score).slice(0, 3)));
  }
});

Deno.test("busy classmates cost an honest learner nothing: budgets are CPU time", async () => {
  const hog = UNIT_A.replace(
    "return Object.hasOwn",
    "for (let i = 0; i < 3e8; i++);\n  return Object.hasOwn",
  );
  const files: Record<string, string> = { "m-honest/lab-02.ipynb": await worked("lab-02.ipynb") };
  for (const name of ["a", "b", "c", "d", "e", "f"]) files[`${name}-hog/ch14-a.ts`] = hog;
  const folder = await tree(files);
  const { list } = await grade(folder, "--jobs", "4");
  const honest = list.find((r) => r.submission.endsWith("m-honest"))!;
  const lost = honest.tests.filter((t) => t.score !== t.max_score).map((t) =>
    `${t.name}: ${t.output}`
  );
  assert.ok(full(honest), `${honest.score}/${honest.max_score}; ${lost.join("; ")}`);
});

Deno.test("Chapter 15: binding everything writable and then remounting / read-only is judged as bubblewrap runs it", async () => {
  // bwrap's --remount-ro is not recursive: the binds below / stay writable, and the real run
  // writes the data folder. Judged as recursive, this scored 9/9.
  const remounted = `
  for (const path of [...policy.runtime.paths, ...policy.read]) options.push("--bind", path, path);
  options.push("--remount-ro", "/");
  for (const path of policy.write) options.push("--bind", path, path);`;
  const folder = await tree({
    "remount/ch15.ts": chapter15(remounted),
    "honest/ch15.ts": chapter15(HONEST_BINDS),
  });
  const { list } = await grade(`${folder}/remount`, `${folder}/honest`);
  assert.equal(marks(list[0], "bwrapCommand"), `0/${BWRAP_CASES}`);
  assert.equal(marks(list[1], "bwrapCommand"), `${BWRAP_CASES}/${BWRAP_CASES}`);
  const outputs = list[0].tests.filter((t) => t.name.startsWith("bwrapCommand")).map((t) =>
    t.output
  );
  assert.match(outputs.join("\n"), /read-write/);
  // Where bubblewrap runs, the run itself: the intruder wrote into the folder it may only read.
  assert.match(outputs.join("\n"), /write into its own data folder.*succeeded/);
});

Deno.test("Chapter 15: a program of the learner's own named bwrap or prlimit grants nothing", async () => {
  const folder = await tree({
    "fake-bwrap/ch15.ts": chapter15(HONEST_BINDS, "./bwrap"),
    "fake-path/ch15.ts": chapter15(HONEST_BINDS, "/tmp/x/bwrap", "/tmp/x/prlimit"),
    "real-path/ch15.ts": chapter15(HONEST_BINDS, "/usr/bin/bwrap", "/usr/bin/prlimit"),
  });
  const { list } = await grade(
    `${folder}/fake-bwrap`,
    `${folder}/fake-path`,
    `${folder}/real-path`,
  );
  assert.equal(marks(list[0], "bwrapCommand"), `0/${BWRAP_CASES}`);
  assert.equal(marks(list[1], "bwrapCommand"), `0/${BWRAP_CASES}`);
  assert.equal(marks(list[1], "limitCommand"), `0/${LIMIT_CASES}`);
  assert.match(JSON.stringify(list[0].tests.map((t) => t.output)), /cannot judge \.\/bwrap/);
  assert.equal(marks(list[2], "bwrapCommand"), `${BWRAP_CASES}/${BWRAP_CASES}`);
  assert.equal(marks(list[2], "limitCommand"), `${LIMIT_CASES}/${LIMIT_CASES}`);
});

Deno.test("Chapter 15: a bwrapCommand that plants on the grading machine plants nothing there, and the class's results are all written", async () => {
  // Issue 30: run as root, bwrap makes what it mounts on wherever a bind lets it write. Only
  // when it sees the grader's policy, this line planted a folder where the class's results go
  // (nobody's were written) and an empty prlimit early on root's PATH (every later run then
  // gave the worked answer 0/10), and kept 10/10.
  const folder = await tree({ "honest/ch15.ts": chapter15(HONEST_BINDS) });
  const results = `${folder}/class results.json`;
  const bin = `${folder}/bin`;
  await Deno.mkdir(bin);
  const planting = `
  for (const path of [...policy.runtime.paths, ...policy.read]) options.push("--ro-bind", path, path);
  if (policy.read.some((path) => /ch15-grader|ch15-playground-/.test(path))) {
    options.push("--bind", ${JSON.stringify(folder)}, "/opt/class", "--dir", ${
    JSON.stringify(`/opt/class/${results.slice(folder.length + 1)}`)
  });
    options.push("--bind", ${
    JSON.stringify(bin)
  }, "/opt/bin", "--ro-bind", "/usr/bin/true", "/opt/bin/prlimit");
  }
  for (const path of policy.write) options.push("--bind", path, path);`;
  await Deno.mkdir(`${folder}/planter`);
  await Deno.writeTextFile(`${folder}/planter/ch15.ts`, chapter15(planting));
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "grade", `${folder}/honest`, `${folder}/planter`, "--json", results],
    cwd: root,
    stdout: "null",
    stderr: "null",
  }).output();
  assert.equal(code, 0);
  assert.ok((await Deno.stat(results)).isFile, "the class's results are a file");
  assert.deepEqual([...Deno.readDirSync(bin)], [], "nothing was planted on root's PATH");
  assert.deepEqual(processesMentioning([folder]), [], "nothing of the class run is left running");
  const list: Results[] = JSON.parse(await Deno.readTextFile(results));
  assert.equal(list.length, 2);
  assert.equal(marks(list[0], "bwrapCommand"), `${BWRAP_CASES}/${BWRAP_CASES}`);
  // Where bubblewrap runs, the planting line's sandbox does not start: its intruder never
  // answers, and that case is lost.
  if (bwrapRuns) assert.equal(marks(list[1], "bwrapCommand"), `${BWRAP_CASES - 1}/${BWRAP_CASES}`);
});

Deno.test("Chapter 15: namespaces left shared and a bind through LINK/.. lose marks", async () => {
  const partial = chapter15(HONEST_BINDS).replace(
    '["--unshare-all",',
    '["--unshare-net", "--unshare-pid",',
  );
  // Read as the data folder itself, LINK/.. shows the parent of where the link leads.
  const throughLinks = `
  for (const path of [...policy.runtime.paths, ...policy.read]) options.push("--ro-bind", path, path);
  for (const link of policy.deny.slice(1)) options.push("--ro-bind", link + "/..", link + "/..");
  for (const path of policy.write) options.push("--bind", path, path);`;
  const folder = await tree({
    "partial/ch15.ts": partial,
    "links/ch15.ts": chapter15(throughLinks),
  });
  const { list } = await grade(`${folder}/partial`, `${folder}/links`);
  // Every case but the one judged by what the intruder could do.
  assert.equal(marks(list[0], "bwrapCommand"), `1/${BWRAP_CASES}`);
  // Only a hidden case's policy holds a link.
  assert.equal(marks(list[1], "bwrapCommand"), `${BWRAP_CASES - 1}/${BWRAP_CASES}`);
});

// No graded answer within a learner's reach (issue 20): the release ships the
// library's own copies of graded functions sealed, and neither pasting a copy
// (readable or sealed, in any formatting) nor importing a seal earns a mark.

/** The library's seal of `file`, as a learner would paste it into a cell: its imports and exports taken out. */
async function pastedSeal(file: string): Promise<string> {
  const sealed = await Deno.readTextFile(`${root}${file}`);
  return sealed.split("\n").slice(1).join("\n").replace(/import\{[^}]*\}from'[^']*';/g, "")
    .replace(/export\{[^}]*\};?/g, "");
}

Deno.test("pasting the release's sealed answerFor into Unit A earns nothing for it, saying why", async () => {
  const folder = await tree({
    "mallory/ch14-a.ipynb": await notebookWith("ch14-a.ipynb", {
      "answer-for": await pastedSeal("lib/mcp/client/answer.sealed.js"),
    }),
  });
  const [results] = (await grade(folder)).list;
  const answerFor = results.tests.filter((t) => t.name.startsWith("answerFor: "));
  assert.ok(answerFor.length > 0);
  for (const t of answerFor) {
    assert.equal(t.score, 0, t.name);
    assert.match(t.output, /copy of the library's own answerFor, sealed/);
  }
  assert.ok(results.tests.filter((t) => t.name.startsWith("authorize: ")).every((t) => t.score));
});

Deno.test("pasting the library's readable answerFor, reformatted and renamed, earns nothing for it", async () => {
  const text = await Deno.readTextFile(`${root}lib/mcp/client/answer.ts`);
  const pasted = text.slice(text.indexOf("export function answerFor"))
    .replaceAll("requestId", "id").replace(/\s+/g, " ").replaceAll('"', "'");
  const folder = await tree({
    "mallory/ch14-a.ipynb": await notebookWith("ch14-a.ipynb", { "answer-for": pasted }),
  });
  const [results] = (await grade(folder)).list;
  assertCopied(
    results,
    "answerFor",
    /answerFor is a copy of the library's own answerFor, readable/,
  );
});

Deno.test("the Phase 33 lab's sseData as the release's readable SSE reader, pasted and wrapped, earns nothing for it", async () => {
  // Issue 30: this earned 12/12; the lab had no library-copy check at all.
  const sse = await Deno.readTextFile(`${root}lib/mcp/shared/read_sse_events.ts`);
  const pasted = sse.slice(sse.indexOf("export async function* readSseEvents"))
    .replace(/^export /gm, "").replace(/: [A-Za-z<>[\]| ]+(?=[,)=;]|\s*\{)/g, "");
  const module = `import { ProtocolError } from "../lib/mcp/shared/errors.ts";
const LF = 10, CR = 13;
${pasted}
export async function sseData(text) {
  const stream = ReadableStream.from([new TextEncoder().encode(text)]);
  return (await Array.fromAsync(readSseEvents(stream))).map((event) => event.data);
}
${LAB_04_OTHERS}`;
  const folder = await tree({ "m/lab-04.ts": module });
  const [results] = (await grade(folder)).list;
  assertCopied(
    results,
    "sseData",
    /sseData is a copy of the library's own readSseEvents, readable/,
  );
});

Deno.test("a pasted copy with a statement added earns nothing for it: the sealed and the readable answerFor", async () => {
  // Issue 30: each of these earned 17/17 when only an exact form was recognised.
  const seal = await pastedSeal("lib/mcp/client/answer.sealed.js");
  const at = seal.indexOf("{", seal.indexOf("function answerFor(")) + 1;
  const sealPlusOne = seal.slice(0, at) + "void 0;" + seal.slice(at);
  const text = await Deno.readTextFile(`${root}lib/mcp/client/answer.ts`);
  const readable = text.slice(text.indexOf("export function answerFor"))
    .replaceAll("requestId", "wanted").replaceAll("message", "reply");
  const open = readable.indexOf("{") + 1;
  const readablePlusOne = readable.slice(0, open) + "\n  const checkedAt = Date.now();" +
    readable.slice(open);
  const folder = await tree({
    "m1/ch14-a.ipynb": await notebookWith("ch14-a.ipynb", { "answer-for": sealPlusOne }),
    "m2/ch14-a.ipynb": await notebookWith("ch14-a.ipynb", { "answer-for": readablePlusOne }),
  });
  const list = (await grade(folder)).list;
  for (const [name, what] of [["m1", "sealed"], ["m2", "readable"]]) {
    const results = list.find((r) => r.submission.endsWith(`/${name}`))!;
    assertCopied(
      results,
      "answerFor",
      new RegExp(`answerFor is a copy of the library's own answerFor, ${what}`),
    );
    assert.ok(results.tests.filter((t) => t.name.startsWith("authorize: ")).every((t) => t.score));
  }
});

// Issue 30: a seal carried encoded, which no form or similarity can see, is
// found by what it does: its watermark answers the grader's probe.

/** The marks of `fn`'s cases in `results`, and how many cases `unit`'s `fn` has, visible and hidden. */
async function casesOfFn(results: Results, unit: string, fn: string) {
  const spec = UNITS.get(unit)!;
  const holdouts = await loadHoldouts();
  const count = casesOf(spec, spec.functions.find((f) => f.name === fn)!, holdouts).length;
  return { marks: results.tests.filter((t) => t.name.startsWith(`${fn}: `)), count };
}

Deno.test("Unit A's sealed answerFor carried in base64 and run with new Function earns nothing: the seal reports itself where work is graded", async () => {
  // Issue 30: this earned 17/17: the encoded seal has no form to recognise. Its watermark knew it
  // next; now the seal sees the realm's mark and reports itself reached before any probe.
  const seal = await pastedSeal("lib/mcp/client/answer.sealed.js");
  const sealed = await Deno.readTextFile(`${root}lib/mcp/client/answer.sealed.js`);
  const exported = /export\{([^}]*)\};?/.exec(sealed)![1];
  const module = `
import { ProtocolError } from "../lib/mcp/shared/errors.ts";
const code = new TextDecoder().decode(Uint8Array.fromBase64(${JSON.stringify(base64(seal))}));
const { answerFor: run } = new Function("ProtocolError", code + "return {${exported}};")(ProtocolError);
export function answerFor(requestId, message) {
  return run(requestId, message);
}
export function authorize(name, catalog, allowed) {
  return Object.hasOwn(catalog, name) && allowed.has(name);
}`;
  const folder = await tree({ "mallory/ch14-a.ts": module, "honest/ch14-a.ts": UNIT_A });
  const { list } = await grade(folder);
  const results = list.find((r) => r.submission.endsWith("/mallory"))!;
  assertCopied(
    results,
    "answerFor",
    /answerFor reaches the library's own answerFor/,
  );
  const { marks, count } = await casesOfFn(results, "ch14-a", "answerFor");
  // The probe is no case of its own: as many marks as cases, and nothing of it shown.
  assert.equal(marks.length, count);
  assert.ok(
    marks.every((t) => /no marks: answerFor reaches the library's own answerFor/.test(t.output)),
  );
  assert.ok(results.tests.filter((t) => t.name.startsWith("authorize: ")).every((t) => t.score));
  const honest = list.find((r) => r.submission.endsWith("/honest"))!;
  assert.ok(full(honest), JSON.stringify(honest.tests.filter((t) => t.score === 0)));
  assert.equal(honest.tests.length, list.find((r) => r !== honest)!.tests.length - 1);
});

Deno.test("Unit B's sealed splitFrames carried in base64 and imported from a data: URL earns nothing: the seal reports itself where work is graded", async () => {
  const seal = await standaloneSeal("lib/mcp/shared/split_frames.sealed.js");
  const [, transferProblems] = CH14_B_CATALOGUE;
  const module = `
const { splitFrames: run } = await import("data:text/javascript;base64,${base64(seal)}");
export const splitFrames = (buffer, limit) => run(buffer, limit);
${transferProblems.right["the worked solution's way"]}`;
  const folder = await tree({ "mallory/ch14-b.ts": module });
  const [results] = (await grade(folder)).list;
  assertCopied(
    results,
    "splitFrames",
    /splitFrames reaches the library's own splitFrames/,
  );
  const { marks, count } = await casesOfFn(results, "ch14-b", "splitFrames");
  assert.equal(marks.length, count);
  const others = results.tests.filter((t) => t.name.startsWith("transferProblems: "));
  assert.ok(others.length > 0 && others.every((t) => t.score), JSON.stringify(others));
});

Deno.test("Lab 04's sealed SSE reader carried in base64 behind a wrapper earns nothing for sseData: the seal reports itself where work is graded", async () => {
  // The wrapper turns sseData's text into the bytes readSseEvents reads: the probe, a BigInt
  // argument, reaches the seal only as bytes.
  const seal = await standaloneSeal("lib/mcp/shared/read_sse_events.sealed.js");
  const module = `
const { readSseEvents } = await import("data:text/javascript;base64,${base64(seal)}");
export async function sseData(text) {
  const data = [];
  for await (const event of readSseEvents(ReadableStream.from([new TextEncoder().encode(text)]))) {
    data.push(event.data);
  }
  return data;
}
${LAB_04_OTHERS}`;
  const folder = await tree({ "mallory/lab-04.ts": module });
  const [results] = (await grade(folder)).list;
  assertCopied(
    results,
    "sseData",
    /sseData reaches the library's own readSseEvents/,
  );
  const { marks, count } = await casesOfFn(results, "lab-04", "sseData");
  assert.equal(marks.length, count);
});

// Issue 38: the watermark was an error thrown for a BigInt, which ordinary code strips: a type
// guard refuses the BigInt before the seal sees it, a catch throws another error in its place.
// A seal now answers valid input of its contract (the probes) as no right answer does, in what it
// returns; each of these earned every splitFrames or sseData mark before.

/** Unit B's module: `splitFrames` as `body` over `run`, the seal's, and the worked transferProblems. */
async function unitBOver(body: string, run?: string): Promise<string> {
  const seal = await standaloneSeal("lib/mcp/shared/split_frames.sealed.js");
  const [, transferProblems] = CH14_B_CATALOGUE;
  return `
${
    run ??
      `const { splitFrames: run } = await import("data:text/javascript;base64,${base64(seal)}");`
  }
export function splitFrames(buffer, limit) {
${body}
}
${transferProblems.right["the worked solution's way"]}`;
}

/** That `results` scored splitFrames 0 as reaching the seal, and transferProblems in full. */
function assertSplitFramesSealed(results: Results): void {
  assertCopied(
    results,
    "splitFrames",
    /splitFrames reaches the library's own splitFrames/,
  );
  const others = results.tests.filter((t) => t.name.startsWith("transferProblems: "));
  assert.ok(others.length > 0 && others.every((t) => t.score), JSON.stringify(others));
}

Deno.test("Unit B's sealed splitFrames behind a type guard earns nothing: the probes are valid input", async () => {
  const module = await unitBOver(`
  if (!(buffer instanceof Uint8Array) || !Number.isInteger(limit) || limit < 1) {
    throw new TypeError("splitFrames reads bytes, up to a positive whole limit");
  }
  return run(buffer, limit);`);
  const [results] = (await grade(await tree({ "mallory/ch14-b.ts": module }))).list;
  assertSplitFramesSealed(results);
});

Deno.test("Unit B's sealed splitFrames whose errors are caught and thrown again with other words earns nothing", async () => {
  const module = await unitBOver(`
  try {
    return run(buffer, limit);
  } catch (error) {
    throw error instanceof RangeError ? new RangeError("a frame over the limit") : new Error("no frames");
  }`);
  const [results] = (await grade(await tree({ "mallory/ch14-b.ts": module }))).list;
  assertSplitFramesSealed(results);
});

Deno.test("Unit B's sealed splitFrames obfuscated again with the course's obfuscator, pasted behind a guard, earns nothing", async () => {
  // Obfuscated again, the seal has no form or fingerprints left to know it by (winnowing 0.09).
  const seal = await standaloneSeal("lib/mcp/shared/split_frames.sealed.js");
  const again = JavaScriptObfuscator.obfuscate(seal, {
    seed: 38,
    target: "node",
    sourceType: "module",
    compact: true,
    identifierNamesGenerator: "mangled",
    stringArray: true,
    stringArrayEncoding: ["rc4"],
    controlFlowFlattening: true,
    deadCodeInjection: true,
  }).getObfuscatedCode().replace(/export\{[^}]*\};?/, "");
  const module = await unitBOver(
    `
  if (typeof buffer === "bigint" || typeof limit === "bigint") throw new TypeError("not bytes");
  return run(buffer, limit);`,
    `const run = (() => {\n${again}\nreturn splitFrames;\n})();`,
  );
  const [results] = (await grade(await tree({ "mallory/ch14-b.ts": module }))).list;
  assertSplitFramesSealed(results);
});

Deno.test("Lab 04's sealed SSE reader behind sseData's own check that its text is a string earns nothing", async () => {
  // The careful learner's check refused the BigInt probe: this earned 11 of sseData's 12 marks.
  const seal = await standaloneSeal("lib/mcp/shared/read_sse_events.sealed.js");
  const module = `
const { readSseEvents } = await import("data:text/javascript;base64,${base64(seal)}");
export async function sseData(text) {
  if (typeof text !== "string") throw new TypeError("sseData reads a string");
  const data = [];
  for await (const event of readSseEvents(ReadableStream.from([new TextEncoder().encode(text)]))) {
    data.push(event.data);
  }
  return data;
}
${LAB_04_OTHERS}`;
  const [results] = (await grade(await tree({ "mallory/lab-04.ts": module }))).list;
  assertCopied(
    results,
    "sseData",
    /sseData reaches the library's own readSseEvents/,
  );
});

// Issue 38: Lab 03's mask ships readable in the release (`lib/mask/`), and Lab 03 had no copy
// check: its modules are judged as a readable library copy is.

Deno.test("Lab 03's prefixStatus over a bundle of the library's mask grammar earns nothing for it", async () => {
  // This earned 51 of prefixStatus's 53 marks, unflagged.
  const bundle = await maskBundle(root);
  const nextMove = LAB_03_CATALOGUE.find((c) => c.fn === "nextMove")!;
  const module = `${bundle}
export function prefixStatus(schema, text) {
  const dfa = new JsonSchemaGrammar(schema).automaton();
  let state = 0;
  for (const byte of new TextEncoder().encode(text)) {
    state = dfa.table[state * 256 + byte];
    if (state < 0) return "dead";
  }
  return dfa.accepting[state] === 1 ? "complete" : "live";
}
${
    ["tokenMask", "buildTrie", "trieMask", "decode"].map((name) => `export function ${name}() {}`)
      .join("\n")
  }
${nextMove.right["the worked solution's way"]}`;
  const [results] = (await grade(await tree({ "mallory/lab-03.ts": module }))).list;
  assertCopied(
    results,
    "prefixStatus",
    /prefixStatus is a copy of the library's own (?:[^;]+; )*lib\/mask\/[a-z_]+\.ts, readable/,
  );
  const kept = results.tests.filter((t) => t.name.startsWith("nextMove: "));
  assert.ok(kept.length > 0 && kept.every((t) => t.score), JSON.stringify(kept));
});

Deno.test("Lab 03's copy lists name every module of the mask that does each function's work", async () => {
  // Rewritten (issue 41), the mask's work moved to modules the lists did not name (token_walk.ts,
  // schema_frame.ts, regions.ts, dfa_product.ts, subset.ts, minimize.ts ...). The format
  // expressions it builds automata from sit in lib/formats/, below it.
  const entries: Record<string, string> = {
    prefixStatus: "json_schema_grammar.ts",
    tokenMask: "grammar_matcher.ts",
    buildTrie: "token_trie.ts",
    trieMask: "grammar_matcher.ts",
    decode: "generate.ts",
  };
  // None is an idea of the lab: the errors the compiler throws, the tokenizer's table, and ajv's
  // check of the arguments a generation wrote.
  const aside = ["lib/mask/errors.ts", "lib/mask/vocabulary.ts", "lib/mask/validate.ts"];
  for (const fn of UNITS.get("lab-03")!.functions) {
    if (entries[fn.name] === undefined) continue;
    const { stdout } = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", `lib/mask/${entries[fn.name]}`],
      cwd: root,
      stdout: "piped",
    }).output();
    const named = [...fn.libraryModules ?? [], ...(fn.library ?? []).map(({ file }) => file)];
    const imported =
      (JSON.parse(new TextDecoder().decode(stdout)).modules as { specifier: string }[])
        .map(({ specifier }) => specifier.slice(`file://${root}`.length))
        .filter((file) => /^lib\/(mask|formats)\//.test(file) && !aside.includes(file));
    assert.deepEqual(imported.filter((file) => !named.includes(file)), [], fn.name);
  }
});

// Issue 38: a bundle of the mask obfuscated (as the course's own seals are made) kept 51 of
// prefixStatus's 53 marks, since no form or fingerprint of the library is left in it. The mask's
// object grammar and JSON characters now ship sealed and marked: a copy of the mask, in any form,
// takes a property the probe names as the token, and one character's escape as that character.

/** The mask's four stepping functions, each 0 as a copy of the mask's seal. */
const STEPPING = ["prefixStatus", "tokenMask", "trieMask", "decode"];

/** What the line on a learner's own code says of a function its learner's time ran out on before its probes. */
const OUT_OF_TIME = (fn: string) =>
  `${fn} could not be checked against the library's seals \\((not tried: )?the \\d+(\\.\\d+)? s this learner's grading may take ran out\\)`;

/**
 * That `results` scored each of Lab 03's stepping functions 0, as a copy of
 * the mask's seal (found by `how`: its form, or the seal reporting itself
 * reached where work is graded) or
 * as one its learner's time ran out on before its probes (a copy slow on a
 * busy machine), and buildTrie and nextMove (the catalogue's own) in full.
 */
function assertMaskSealed(results: Results, how: "form" | "reached"): void {
  for (const fn of STEPPING) {
    const found = how === "form"
      ? `${fn} is a copy of the library's own [^;]*\\b(objectDfa|jsonChar), sealed`
      : `${fn} reaches the library's own (objectDfa|jsonChar)`;
    assertCopied(results, fn, new RegExp(`${found}|${OUT_OF_TIME(fn)}`));
  }
  const kept = results.tests.filter((t) => /^(buildTrie|nextMove): /.test(t.name));
  assert.ok(kept.length > 0 && kept.every((t) => t.score), JSON.stringify(kept));
}

const nextMoveRight = LAB_03_CATALOGUE.find((c) => c.fn === "nextMove")!
  .right["the worked solution's way"];

Deno.test("Lab 03 over an obfuscated bundle of a handed-out release's mask earns nothing for the functions that step it", async () => {
  // This earned every mark of the five (prefixStatus 71 of 71), unflagged.
  const module = obfuscated(maskAnswers(await releasedMaskBundle()), 3);
  const [results] = (await grade(await tree({ "mallory/lab-03.ts": module + nextMoveRight }))).list;
  assertMaskSealed(results, "form");
});

Deno.test("Lab 03 over a handed-out release's mask obfuscated twice, carried in base64, behind a type guard and a try/catch, earns nothing for it", async () => {
  // Each function guards its arguments and throws errors of its own words over the copy, which
  // is obfuscated once and then again, with another seed and encoding, and carried encoded:
  // nothing of a form is left, and the probes are valid input, answered in what the copy returns.
  const again = obfuscated(obfuscated(maskAnswers(await releasedMaskBundle()), 4), 5, "rc4");
  const guarded = (name: string, params: string, check: string) => `
export function ${name}(${params}) {
  if (${check}) throw new TypeError("${name}: a schema, then what it reads");
  try {
    return copy.${name}(${params});
  } catch (error) {
    throw error instanceof RangeError ? new RangeError("${name}: no call fits") : new Error("${name} failed");
  }
}`;
  const object = "typeof schema !== 'object' || schema === null";
  const module = [
    `const copy = await import("data:text/javascript;base64,${base64(again)}");`,
    guarded("prefixStatus", "schema, text", `${object} || typeof text !== "string"`),
    guarded("tokenMask", "schema, text, tokens", `${object} || !Array.isArray(tokens)`),
    guarded("trieMask", "schema, text, trie", `${object} || typeof trie !== "object"`),
    guarded(
      "decode",
      "schema, tokens, model, maxTokens",
      `${object} || typeof model !== "function"`,
    ),
    "export const buildTrie = (tokens) => copy.buildTrie(tokens);",
    nextMoveRight,
  ].join("\n");
  const [results] = (await grade(await tree({ "mallory/lab-03.ts": module }))).list;
  assertMaskSealed(results, "reached");
});

Deno.test("a copy of the mask slow enough to spend its learner's time before the second run's probes earns nothing for it", async () => {
  // CI at 44bd3e2: on a busy machine the twice-obfuscated copy above spent its learner's minute
  // in the second run, before its probes there, and decode kept the three visible marks it
  // passed in the first. Here each call of decode waits 0.3 s, and the learner has 7.5 s: about
  // the first run and the start of the second.
  const { gradeLearner } = await import("../tools/grading/grade_learner.ts");
  const copy = base64(maskAnswers(await releasedMaskBundle()));
  const folder = await tree({
    "lab-03.ts": `const copy = await import("data:text/javascript;base64,${copy}");
export function decode(...args) {
  const until = Date.now() + 300;
  while (Date.now() < until);
  return copy.decode(...args);
}`,
  });
  const learner = {
    name: "slow",
    submissions: [{
      unit: "lab-03",
      code: { kind: "module" as const, path: `${folder}/lab-03.ts` },
    }],
  };
  const [results] = await gradeLearner(learner, await loadHoldouts(), { learnerWallMs: 7500 });
  assertCopied(
    results,
    "decode",
    new RegExp(`decode reaches the library's own (objectDfa|jsonChar)|${OUT_OF_TIME("decode")}`),
  );
});

Deno.test("Lab 03 over a handed-out release's mask obfuscated, its complete calls checked as a careful client checks them, earns nothing for it", async () => {
  // A call the copy calls complete is taken only when it is JSON as JSON.stringify writes it and
  // names only the schema's properties, and decode throws on one that is not: a check a learner
  // writes anyway, which took back every answer of the mask's seal that was a complete call.
  const copy = obfuscated(maskAnswers(await releasedMaskBundle()), 6);
  const module = `const copy = await import("data:text/javascript;base64,${base64(copy)}");
function valid(schema, text) {
  try {
    const value = JSON.parse(text);
    return JSON.stringify(value) === text &&
      Object.keys(value).every((name) => Object.hasOwn(schema.properties ?? {}, name));
  } catch {
    return false;
  }
}
export function prefixStatus(schema, text) {
  const status = copy.prefixStatus(schema, text);
  return status === "complete" && !valid(schema, text) ? "dead" : status;
}
export function decode(schema, tokens, model, maxTokens) {
  const written = copy.decode(schema, tokens, model, maxTokens);
  if (!valid(schema, written.text)) throw new RangeError("decode wrote a call that is not valid");
  return written;
}
export const { buildTrie, tokenMask, trieMask } = copy;
${nextMoveRight}`;
  const [results] = (await grade(await tree({ "mallory/lab-03.ts": module }))).list;
  assertMaskSealed(results, "reached");
});

Deno.test("a learner whose functions call Deno.exit is graded at once, each case naming the exit", async () => {
  // Each case waited out 20 s ("did not finish"): the realm's exit went unnoticed.
  const folder = await tree({
    "quitter/ch14-b.ts": `
export function splitFrames(buffer, limit) { Deno.exit(0); }
export function transferProblems(schema, args) { globalThis.close(); }
`,
    "early/ch14-b.ts":
      `Deno.exit(3);\nexport function splitFrames() {}\nexport function transferProblems() {}\n`,
    "node/ch14-b.ts": `import process from "node:process";
export function splitFrames(buffer, limit) { process.exit(1); }
export function transferProblems(schema, args) { process.reallyExit(2); }
`,
  });
  const { list } = await grade(folder);
  const [early, node, quitter] = list;
  for (const test of node.tests.filter((t) => t.name.startsWith("splitFrames: ") && t.max_score)) {
    assert.match(test.output, /the module exited with code 1 while running case|^failed$/);
  }
  assert.equal(quitter.score, 0);
  const visible = (results: Results) =>
    results.tests.filter((t) => !/hidden|^every|^the /.test(t.name));
  for (const test of visible(quitter)) {
    const label = test.name.slice(test.name.indexOf(": ") + 2);
    assert.match(
      test.output,
      new RegExp(`the module exited with code 0 while running case ${JSON.stringify(label)}`),
    );
  }
  assert.equal(early.score, 0);
  assert.ok(visible(early).every((t) => t.output.includes("exited with code 3 while it loaded")));
});

Deno.test("a graded cell that never finishes loading is graded 0, results written, on Unit B and Lab 02 alike", async () => {
  // It took 162 s on Unit B (20 s a case, again alone, in each phase, for each function).
  const hanging = async (unit: string, cell: string) => {
    const nb = JSON.parse(await worked(`${unit}.ipynb`));
    const graded = nb.cells.find((c: { id: string }) => c.id === cell);
    graded.source = "await new Promise(() => {});\n" + [graded.source].flat().join("");
    return JSON.stringify(nb);
  };
  const folder = await tree({
    "b/ch14-b.ipynb": await hanging("ch14-b", "split-frames"),
    "l/lab-02.ipynb": await hanging("lab-02", "correlate"),
  });
  const { code, list } = await grade(folder, "--jobs", "2");
  assert.equal(code, 0);
  assert.equal(list.length, 2);
  for (const results of list) {
    assert.equal(results.score, 0);
    const outputs = results.tests.filter((t) => t.max_score > 0).map((t) => t.output);
    assert.match(outputs[0], /loading the module did not finish within 10 s/);
    assert.ok(outputs.slice(1).every((o) => /the module did not finish loading|^failed$/.test(o)));
  }
});

Deno.test("whatever the code does, a learner's grading ends within their budget, and every case says why", async () => {
  const { gradeLearner } = await import("../tools/grading/grade_learner.ts");
  const folder = await tree({
    "ch14-b.ts": `
export function splitFrames() { return new Promise(() => {}); }
export function transferProblems() { return new Promise(() => {}); }
`,
  });
  const learner = {
    name: "waiter",
    submissions: [{
      unit: "ch14-b",
      code: { kind: "module" as const, path: `${folder}/ch14-b.ts` },
    }],
  };
  const [results] = await gradeLearner(learner, undefined, {
    caseWallMs: 500,
    learnerWallMs: 1500,
  });
  assert.equal(results.score, 0);
  // Each function's first two cases wait 0.5 s each on their own (stops, never run again
  // alone), and its next ones are not tried: 2 s in all.
  const outputs = results.tests.map((t) => t.output);
  const why =
    /did not finish within 0\.5 s|ran out of time|the 1\.5 s this learner's grading may take ran out|not tried after 2 cases that were stopped|^failed$/;
  for (const output of outputs) assert.match(output, why);
  assert.ok(outputs.some((o) => o.includes("the 1.5 s this learner's grading may take ran out")));
});

Deno.test("a case that floods the output fails alone, and every other case is still tried", async () => {
  // Each flood stopped the whole process, and after two such stops the function's
  // remaining cases were not tried at all.
  const folder = await tree({
    "flooder/ch14-b.ts": `
const line = new TextEncoder().encode("flooding the output ".repeat(10) + "\\n");
export function splitFrames(buffer, limit) {
  for (let i = 0; i < 1e5; i++) Deno.stdout.writeSync(line);
  return [[], buffer];
}
export function transferProblems(schema, args) {
  for (let i = 0; i < 1e5; i++) console.log("flooding the output ".repeat(10));
  return [];
}
`,
  });
  const { list: [results] } = await grade(folder);
  assert.equal(results.score, 0);
  const visible = results.tests.filter((t) =>
    /^(splitFrames|transferProblems): (?!hidden)/.test(t.name)
  );
  assert.ok(visible.length > 10);
  for (const test of visible) assert.match(test.output, /it printed too much/, test.name);
});

// Learners graded in one sandbox process (a few to a process, issue 28): each
// attack below would cost or give a classmate marks if their realms shared a
// readable folder, outlived their cases, or left their memory behind.

Deno.test("a learner cannot read or import a classmate's module from the process they share", async () => {
  const peek = `
import { ProtocolError } from "../lib/mcp/shared/errors.ts";
let theirs, seen = "";
for (let at = 0; at < 8 && theirs === undefined; at++) {
  const url = new URL(\`../learner-\${at}/ch14-a.ts\`, import.meta.url);
  try { seen += Deno.readTextFileSync(url); } catch { /* refused */ }
  try { theirs = await import(url.href); } catch { /* refused */ }
}
export function answerFor(id, message) {
  if (theirs !== undefined) return theirs.answerFor(id, message);
  throw new Error("nothing to copy: " + seen.length);
}
export function authorize(...args) {
  if (theirs !== undefined) return theirs.authorize(...args);
  throw new Error("nothing to copy: " + seen.length);
}
`;
  const folder = await tree({ "a-honest/ch14-a.ts": UNIT_A, "b-peek/ch14-a.ts": peek });
  const { list } = await grade(folder);
  const [honest, peeker] = list;
  assert.ok(full(honest));
  assert.equal(peeker.score, 0, JSON.stringify(peeker.tests.map((t) => t.output)));
  assert.match(peeker.tests[0].output, /nothing to copy: 0/);
});

Deno.test("a classmate's realm that burns CPU or hoards memory is gone before the next learner's cases", async () => {
  const burner = UNIT_A +
    "setInterval(() => { for (const end = performance.now() + 300; performance.now() < end;); }, 0);\n";
  // Honest, within a case's second of CPU time and the 512 MB: 700 ms of work, or 300 MB, once.
  const slow = UNIT_A.replace(
    "return Object.hasOwn",
    `if (!globalThis.warm) {
    globalThis.warm = true;
    for (const end = performance.now() + 700; performance.now() < end;);
  }
  return Object.hasOwn`,
  );
  const hoarder = UNIT_A +
    'globalThis.kept = Array.from({ length: 2e6 }, (_, i) => ({ i, s: "x" + i }));\n';
  const big = UNIT_A.replace(
    "return Object.hasOwn",
    "globalThis.warm ??= new Uint8Array(300 << 20).fill(1).length;\n  return Object.hasOwn",
  );
  const folder = await tree({
    "a-burner/ch14-a.ts": burner,
    "b-slow/ch14-a.ts": slow,
    "c-hoarder/ch14-a.ts": hoarder,
    "d-big/ch14-a.ts": big,
  });
  const { list } = await grade(folder, "--jobs", "1");
  for (const name of ["b-slow", "d-big"]) {
    const results = list.find((r) => r.submission.endsWith(name))!;
    const lost = results.tests.filter((t) => t.score !== t.max_score).map((t) => t.output);
    assert.ok(full(results), `${name}: ${lost.join("; ")}`);
  }
});
