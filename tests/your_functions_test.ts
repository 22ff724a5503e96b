// The later units' Clients run the learner's own Unit A functions, taken from
// the saved Unit A notebook beside theirs: their answerFor refuses the stale
// reply and their authorize the purchase; while either does not pass, or
// cannot be loaded, a step waits in one line, and nothing of them runs.

import assert from "node:assert/strict";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { YourUnitA } from "../tools/grading/your_functions.ts";
import { Client } from "../lib/mcp/client/client.ts";
import { freshLog, serverCalls, serverCommand } from "../lib/course/course.ts";
import { ProtocolError } from "../lib/mcp/shared/errors.ts";
import { verdict } from "../lib/grading/grading.ts";
import { captureStdout } from "../lib/notebook/stdout_capture.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const worked = JSON.parse(await Deno.readTextFile(`${root}solutions/ch14-a.ipynb`));
const starter = await Deno.readTextFile(`${root}notebooks/ch14-a.ipynb`);

/** The worked Unit A with `from` replaced by `to` in its answer-for cell, as a notebook's text. */
function edited(from: string, to: string): string {
  const notebook = structuredClone(worked);
  const cell = notebook.cells.find((cell: { id: string }) => cell.id === "answer-for");
  const source = cell.source.join("");
  assert.ok(source.includes(from), `the answer-for cell holds no ${from}`);
  cell.source = [source.replace(from, to)];
  return JSON.stringify(notebook);
}

/** A folder (its name has a space) holding `files`, removed at the end of its `await using`. */
async function folderOf(files: Record<string, string>) {
  const path = await Deno.makeTempDir({ prefix: "unit a #" });
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${path}/${name}`, text);
  }
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

Deno.test("a Client given the learner's Unit A refuses the stale reply with their answerFor and the purchase with their authorize", async () => {
  // Their own wording, so that the refusal shows whose answerFor made it.
  await using folder = await folderOf({
    "mine.ipynb": edited("`The reply's id ", "`My check: the reply's id "),
  });
  const unitA = new YourUnitA({ folder: folder.path });
  const needs = await unitA.needs();
  assert.deepEqual(needs.map((need) => need.name), ["answerFor", "authorize"]);
  for (const need of needs) assert.equal(verdict(await need.grade()), "PASSED", need.name);
  {
    await using client = new Client(serverCommand("stale", await freshLog("your-unit-a-stale")), {
      ...unitA.options,
      allowed: ["word_count"],
    });
    await client.initialize();
    await client.listTools();
    assert.equal(await client.callTool("word_count", { text: "vanilla stock needs review" }), "4");
    await assert.rejects(
      client.callTool("word_count", { text: "one two three" }),
      (error: Error) =>
        error instanceof ProtocolError && /^My check: the reply's id 3/.test(error.message),
    );
  }
  const log = await freshLog("your-unit-a-purchase");
  {
    // The teaching server advertises place_purchase; only their authorize stands in its way.
    await using client = new Client(serverCommand("normal", log), {
      ...unitA.options,
      allowed: ["word_count"],
    });
    await client.initialize();
    await client.listTools();
    await assert.rejects(
      client.callTool("place_purchase", { flavor: "vanilla", tubs: 100 }),
      Deno.errors.PermissionDenied,
    );
  }
  assert.deepEqual(await serverCalls(log), []);
});

Deno.test("a helper the learner's answerFor calls, in a cell they added, is taken with it, and an added cell that does not parse left out, as the autograder does", async () => {
  const notebook = JSON.parse(
    edited("if (message.id !== requestId) {", "if (!sameId(message.id, requestId)) {"),
  );
  const at = notebook.cells.findIndex((cell: { id: string }) => cell.id === "answer-for");
  notebook.cells.splice(at, 0, {
    cell_type: "code",
    id: "my-helper",
    metadata: {},
    outputs: [],
    execution_count: null,
    source: ["function sameId(a: unknown, b: unknown) {\n  return a === b;\n}\n"],
  }, {
    cell_type: "code",
    id: "my-notes",
    metadata: {},
    outputs: [],
    execution_count: null,
    source: ["function unfinished(id: unknown) {\n  return [id;\n}\n"],
  });
  await using folder = await folderOf({ "ch14-a.ipynb": JSON.stringify(notebook) });
  for (const need of await new YourUnitA({ folder: folder.path }).needs()) {
    assert.equal(verdict(await need.grade()), "PASSED", need.name);
  }
});

Deno.test("a learner's Unit A that does not pass, or cannot be loaded, makes a step wait in one line", async () => {
  // A loose comparison: "1" would answer request 1.
  await using loose = await folderOf({
    "ch14-a.ipynb": edited("message.id !== requestId", "message.id != requestId"),
  });
  const [answerFor, authorize] = await new YourUnitA({ folder: loose.path }).needs();
  assert.equal(answerFor.cell, `the ✏️ cell of section 1 of ${basename(loose.path)}/ch14-a.ipynb`);
  const rows = await answerFor.grade();
  assert.equal(verdict(rows), "NEEDS_WORK");
  assert.ok(rows.some((row) => row.status === "PASS"), "some of its cases pass");
  assert.equal(verdict(await authorize.grade()), "PASSED");

  // The newest saved Unit A is the one taken: here the handouts' starter, saved after the worked one.
  await using two = await folderOf({ "worked.ipynb": JSON.stringify(worked) });
  await Deno.utime(`${two.path}/worked.ipynb`, 1, 1);
  await Deno.writeTextFile(`${two.path}/starter.ipynb`, starter);
  const rowsOfStarter = await (await new YourUnitA({ folder: two.path }).needs())[0].grade();
  assert.ok(rowsOfStarter.every((row) => row.status === "UNFINISHED"));

  // JupyterLab's duplicate, saved after the learner's copy: the autograder takes ch14-a.ipynb for
  // theirs, and so does the course (before, the newest: here the starter, which waited).
  await using duplicate = await folderOf({ "ch14-a.ipynb": JSON.stringify(worked) });
  await Deno.utime(`${duplicate.path}/ch14-a.ipynb`, 1, 1);
  await Deno.writeTextFile(`${duplicate.path}/ch14-a-Copy1.ipynb`, starter);
  const [ofDuplicate] = await new YourUnitA({ folder: duplicate.path }).needs();
  assert.equal(
    ofDuplicate.cell,
    `the ✏️ cell of section 1 of ${basename(duplicate.path)}/ch14-a.ipynb`,
  );
  assert.equal(verdict(await ofDuplicate.grade()), "PASSED");

  // No Unit A at all, or one whose cell does not parse: each need fails in one line, and the
  // functions a Client would be given throw the same, so nothing of them runs.
  await using none = await folderOf({});
  await using broken = await folderOf({
    "ch14-a.ipynb": edited("if (message.id !== requestId) {", "if (message.id !== requestId) {{"),
  });
  for (
    const [folder, reason] of [[none.path, /no saved Unit A notebook/], [
      broken.path,
      /the cells of ch14-a\.ipynb do not load \(SyntaxError/,
    ]] as const
  ) {
    const unitA = new YourUnitA({ folder });
    const needs = await unitA.needs();
    assert.equal(needs.length, 2);
    for (const need of needs) {
      await assert.rejects(
        async () => await need.grade(),
        (error: Error) => reason.test(error.message) && !error.message.includes("\n"),
      );
    }
    assert.throws(() => unitA.options.answer(1, { jsonrpc: "2.0", id: 1, result: {} }), reason);
    assert.throws(() => unitA.options.authorize("word_count", {}, new Set()), reason);
  }
});

Deno.test("a Unit A whose cells wait or loop for ever, or end the process, makes a step wait in one line, and the kernel goes on", async () => {
  // Loaded and graded in the kernel's own process, the first two left the step waiting for ever,
  // the third ended the kernel (and this test's process).
  await using forever = await folderOf({
    "ch14-a.ipynb": edited(
      "function answerFor(",
      "await new Promise(() => {});\nfunction answerFor(",
    ),
  });
  await using loops = await folderOf({
    "ch14-a.ipynb": edited(
      "if (message.id !== requestId) {",
      "while (requestId === 4) {}\n  if (message.id !== requestId) {",
    ),
  });
  await using exits = await folderOf({
    "ch14-a.ipynb": edited("function answerFor(", "Deno.exit(7);\nfunction answerFor("),
  });
  for (
    const [folder, reason] of [
      [forever.path, /^the cells of ch14-a\.ipynb do not load and answer .* within 2 s/],
      [loops.path, /^the cells of ch14-a\.ipynb do not load and answer .* within 2 s/],
      [
        exits.path,
        /^the cells of ch14-a\.ipynb end the process as they load or answer \(exit code 7\)/,
      ],
    ] as const
  ) {
    const unitA = new YourUnitA({ folder, loadMs: 2_000 });
    for (const need of await unitA.needs()) {
      await assert.rejects(
        async () => await need.grade(),
        (error: Error) => reason.test(error.message) && !error.message.includes("\n"),
      );
    }
  }
  // What the cells print as they load is kept back; they pass, and leave nothing behind. The
  // course here is at a path with a space and a quote, as a learner's may be: its own YourUnitA
  // loads them there.
  const course = await Deno.makeTempDir({ prefix: "learner's course " });
  try {
    for (const name of ["lib", "cases", "servers", "schemas", "tools", "deno.json", "deno.lock"]) {
      await Deno.symlink(`${root}${name}`, `${course}/${name}`);
    }
    const there = `${course}/tools/grading/your_functions.ts`;
    const { YourUnitA: TheirUnitA } = await import(there) as { YourUnitA: typeof YourUnitA };
    // In the course's work/, whose cells import from the library by a relative path, as the
    // notebook's own kernel (and the autograder) takes it: before, the module written from them
    // in another folder found no ../lib/ there.
    await Deno.mkdir(`${course}/work`);
    await Deno.writeTextFile(
      `${course}/work/ch14-a.ipynb`,
      edited(
        "function answerFor(",
        'import { ProtocolError as Refusal } from "../lib/mcp/shared/errors.ts";\n' +
          'console.log("loading my Unit A", Refusal.name);\nfunction answerFor(',
      ),
    );
    const stop = captureStdout();
    let needs;
    try {
      needs = await new TheirUnitA({ folder: `${course}/work` }).needs();
    } finally {
      assert.equal(stop(), "");
    }
    assert.deepEqual([...Deno.readDirSync(`${course}/work`)].map((entry) => entry.name), [
      "ch14-a.ipynb",
    ]);
    for (const need of needs) assert.equal(verdict(await need.grade()), "PASSED", need.name);
  } finally {
    await Deno.remove(course, { recursive: true });
  }
});
