// Lab 01, run by the real Deno kernel through Jupyter's executor: the worked
// edition passes its holdouts and all five judges, each in its era, and Lab 02
// then starts the learner's own server; the student edition runs to its end
// and reports what is not written yet; a student edition completed by a
// learner passes all five judges too.

import assert from "node:assert/strict";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "../lib/mcp/client/client.ts";
import { grammarServerForLab02 } from "../lib/course/course.ts";
import { evidenceProblems } from "../lib/course/evidence.ts";
import { EXPECTED_ANSWERS, GRAMMAR_TOOL_NAMES, SPOKEN } from "../lib/judges/expected.ts";
import { parseNotebook, sourceOf } from "../tools/editions/notebook.ts";
import { courseFolder, reportLine, run, statuses } from "./_notebooks.ts";

const root = fileURLToPath(new URL("../", import.meta.url));

async function submissionOf(work: string): Promise<Record<string, unknown>> {
  const submission = JSON.parse(
    await Deno.readTextFile(`${work}/lab-01/lab-01-submission-v1.json`),
  );
  assert.deepEqual(await evidenceProblems("lab-01-submission", submission), []);
  return submission;
}

/** Every judge passed, each in its era, and saw the four tools and the four answers. */
function assertJudgesPassed(submission: Record<string, unknown>) {
  const clients = submission.clients as Record<string, Record<string, unknown>>;
  assert.deepEqual(Object.keys(clients).sort(), ["bytes", "course", "inspector", "sdk", "sdk_v2"]);
  for (const [name, report] of Object.entries(clients)) {
    assert.equal(report.status, "PASSED", `${name}: ${JSON.stringify(report.problems)}`);
    assert.deepEqual(report.spoke, SPOKEN[name as keyof typeof SPOKEN], name);
    assert.deepEqual(report.tools, GRAMMAR_TOOL_NAMES, name);
    assert.deepEqual(report.answers, EXPECTED_ANSWERS, name);
  }
  assert.deepEqual(clients.bytes.errors, {
    not_json: -32700,
    unknown_tool: -32602,
    out_of_scope: "isError",
    unsupported_version: -32022,
  });
  assert.deepEqual(clients.sdk_v2.errors, { unknown_tool: -32602, invalid_arguments: "isError" });
  assert.deepEqual(clients.sdk.errors, { unknown_tool: -32602, invalid_arguments: -32602 });
  assert.deepEqual(clients.course.errors, { out_of_scope: "ToolError" });
}

/** The number of rows of each step's table of handleMessage, by step. */
const STEP_ROWS = [[1, 6], [2, 5], [3, 4], [4, 6], [5, 12]] as const;

Deno.test("the worked Lab 01 passes its holdouts and all five judges, and Lab 02 then uses its server", async () => {
  const { text, outputs, work } = await run("solutions/lab-01.ipynb");
  assert.deepEqual(reportLine(text, "HOLDOUT_RESULT"), { status: "PASSED", unit: "lab-01" });
  assert.match(text, /INSTRUCTOR_CHECKS PASSED/);
  assert.match(text, /LAB_01 DONE/);
  assert.deepEqual(statuses(outputs.get("negotiate-version-cases")!), Array(5).fill("PASS"));
  for (const [step, count] of STEP_ROWS) {
    assert.deepEqual(
      statuses(outputs.get(`handle-message-step-${step}`)!),
      Array(count).fill("PASS"),
    );
  }
  assert.deepEqual(statuses(outputs.get("serve-stdio-cases")!), Array(6).fill("PASS"));
  assert.match(outputs.get("write-server")!, /command: .* run --no-config --no-prompt --quiet /);
  assert.doesNotMatch(outputs.get("write-server")!, /--allow-/);
  assert.deepEqual(reportLine(text, "LAB_01_REPORT"), {
    clients: {
      bytes: "PASSED",
      course: "PASSED",
      sdk_v2: "PASSED",
      sdk: "PASSED",
      inspector: "PASSED",
    },
    edition: "instructor",
    status: "PASSED",
    unit: "lab-01",
  });
  const submission = await submissionOf(work);
  assert.equal(submission.status, "PASSED");
  assertJudgesPassed(submission);

  // Lab 02 starts the learner's own server, which answers as the reference does.
  const folder = pathToFileURL(`${work}/lab-01/`);
  const choice = await grammarServerForLab02({ folder });
  assert.equal(choice.source, "learner", choice.why);
  assert.equal(choice.command.at(-1), `${work}/lab-01/grammar_server.mts`);
  {
    await using client = new Client(choice.command, { allowed: ["conjugate"] });
    await client.initialize();
    await client.listTools();
    assert.equal(
      await client.callTool("conjugate", { verb: "eat", tense: "past_simple", person: "3sg" }),
      "ate",
    );
  }
  // A module changed after its judges saw it is not trusted: Lab 02 goes back to the reference.
  await Deno.writeTextFile(`${work}/lab-01/grammar_server.mts`, "\n// edited\n", { append: true });
  const changed = await grammarServerForLab02({ folder });
  assert.equal(changed.source, "reference");
  assert.match(changed.why, /has changed since/);
});

Deno.test("the student Lab 01 runs to its end, reports its parts unfinished, and starts no server", async () => {
  const { text, outputs, work } = await run("notebooks/lab-01.ipynb");
  assert.ok(!text.includes("HOLDOUT_RESULT"));
  assert.ok(!text.includes("INSTRUCTOR_CHECKS"));
  assert.deepEqual(statuses(outputs.get("negotiate-version-cases")!), Array(5).fill("UNFINISHED"));
  for (const [step, count] of STEP_ROWS) {
    assert.deepEqual(
      statuses(outputs.get(`handle-message-step-${step}`)!),
      Array(count).fill("UNFINISHED"),
    );
  }
  assert.deepEqual(statuses(outputs.get("serve-stdio-cases")!), Array(6).fill("UNFINISHED"));
  assert.match(outputs.get("write-server")!, /↷ Writing your server waits for negotiateVersion/);
  assert.match(outputs.get("judge-sdk")!, /↷ This judge waits for your server/);
  assert.match(outputs.get("judge-sdk-v2")!, /↷ This judge waits for your server/);
  assert.match(outputs.get("today-ping")!, /↷ The answer to today's ping waits for handleMessage/);
  assert.match(text, /LAB_01 NOT DONE YET/);
  // Run All on a fresh copy reveals no answer before its prediction: the step waits for it.
  assert.ok(
    !text.includes("You wrote no prediction first"),
    "a step revealed before its prediction",
  );
  assert.match(
    outputs.get("tools")!,
    /↷ This step shows what you predict \(run_fits, run_answer, person_4sg_fits\)/,
  );
  assert.ok(!outputs.get("tools")!.includes("three calls to conjugate"));
  const submission = await submissionOf(work);
  assert.equal(submission.status, "NEEDS_WORK");
  assert.equal(submission.server, null);
  assert.deepEqual(submission.clients, {});
  const saved = [];
  for await (const entry of Deno.readDir(`${work}/lab-01`)) saved.push(entry.name);
  assert.deepEqual(saved, ["lab-01-submission-v1.json"]);
  assert.equal(
    (await grammarServerForLab02({ folder: pathToFileURL(`${work}/lab-01/`) })).source,
    "reference",
  );
});

/**
 * Run the student edition with the learner's cells written as the worked
 * edition writes them, each changed by `change` (given its id and source), as
 * a learner's copy in a course folder's `work/`, beside a completed Unit A
 * (the course's Client judges with the learner's answerFor and authorize).
 */
async function runCompleted(change = (_id: string, source: string) => source) {
  const worked = parseNotebook(await Deno.readTextFile(`${root}solutions/lab-01.ipynb`), "worked");
  const student = parseNotebook(
    await Deno.readTextFile(`${root}notebooks/lab-01.ipynb`),
    "student",
  );
  const completed = [
    "negotiate-version",
    "handle-message",
    "answer-request",
    "answer-today",
    "answer-handshake",
    "answer-tools",
    "serve-stdio",
  ];
  for (const cell of student.cells) {
    if (!completed.includes(cell.id)) continue;
    const source = keepSolutions(sourceOf(worked.cells.find((c) => c.id === cell.id)!));
    cell.source = change(cell.id, source);
  }
  await using course = await courseFolder();
  await Deno.copyFile(`${root}solutions/ch14-a.ipynb`, `${course.path}/work/ch14-a.ipynb`);
  await Deno.writeTextFile(`${course.path}/work/lab-01.ipynb`, JSON.stringify(student));
  return await run(`${course.path}/work/lab-01.ipynb`);
}

Deno.test("a student edition a learner completed passes all five judges, and shows nothing in red", async () => {
  const { text, work, notebook } = await runCompleted();
  assert.match(text, /LAB_01 DONE/);
  // The loop's "input ended, exiting" is a server's log, not the notebook's error.
  assert.deepEqual(stderrOf(notebook.cells), []);
  const submission = await submissionOf(work);
  assert.equal(submission.edition, "student");
  assert.equal(submission.status, "PASSED");
  assertJudgesPassed(submission);
});

Deno.test("a right serveStdio over a handleMessage that answers no ping is told whose fault its failures are", async () => {
  // The loop's cases are pings and a notification, sent through the learner's own handleMessage.
  const noPing = '    case "ping":\n      return success(id, {});\n';
  const { outputs } = await runCompleted((id, source) => {
    if (id !== "answer-handshake") return source;
    assert.ok(source.includes(noPing), "the worked answerHandshake answers ping");
    return source.replace(noPing, "");
  });
  const loop = outputs.get("serve-stdio-cases")!;
  assert.match(loop, /SERVE_STDIO NEEDS_WORK/);
  assert.match(
    loop,
    /⚠ These cases send each line through your handleMessage, which passes \d+ of 33 of its own cases/,
  );
});

/** Each stream a cell wrote on stderr (JupyterLab shows them in red), with the cell's id. */
function stderrOf(cells: { id: string; outputs?: unknown[] }[]): string[] {
  return cells.flatMap((cell) =>
    (cell.outputs ?? []).filter((output) => (output as { name?: unknown }).name === "stderr")
      .map((output) => `${cell.id}: ${JSON.stringify(output)}`)
  );
}

/** A worked cell as its learner would have written it: the solutions kept, the starters dropped. */
function keepSolutions(source: string): string {
  const kept: string[] = [];
  let inStarter = false;
  for (const line of source.split("\n")) {
    const marker = line.trim();
    if (marker === "// BEGIN STARTER") inStarter = true;
    else if (marker === "// END STARTER") inStarter = false;
    else if (!inStarter && marker !== "// BEGIN SOLUTION" && marker !== "// END SOLUTION") {
      kept.push(line);
    }
  }
  return kept.join("\n");
}
