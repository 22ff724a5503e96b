// Unit B in a real browser: Debian's classic Jupyter Notebook with the Deno
// kernel, driven in headless Chromium. Each edition is opened, run with
// Kernel → Restart & Run All, and judged by what the page renders. Run it with
// `deno task test:browser` (it is kept out of `deno task test`: its name does
// not end in _test.ts). Screenshots go to work/browser/.

import assert from "node:assert/strict";
import { type Chromium, launchChromium } from "./chromium.ts";
import { type NotebookServer, startNotebookServer } from "./notebook_server.ts";
import {
  openNotebook,
  type RenderedNotebook,
  type RenderedTable,
  restartAndRunAll,
  screenshotNotebook,
  type Settled,
  settledProblems,
} from "./notebook_page.ts";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const shots = `${root}work/browser/`;
const EDITIONS = ["notebooks/ch14-b.ipynb", "solutions/ch14-b.ipynb"];

/** The table whose caption is `caption`, or a problem saying it is not on the page. */
function table(notebook: RenderedNotebook, caption: string): RenderedTable | string {
  return notebook.tables.find((table) => table.caption === caption) ??
    `no HTML table "${caption}" (tables shown: ${
      notebook.tables.map((table) => `"${table.caption}"`).join(", ") || "none"
    })`;
}

/** Problems common to both editions: error output, and printed lines that are missing. */
function commonProblems(notebook: RenderedNotebook, lines: string[]): string[] {
  return [
    ...notebook.errors.map((error) => `error output: ${error.slice(0, 300)}`),
    ...lines.filter((line) => !notebook.lines.includes(line)).map((line) => `no line ${line}`),
  ];
}

function studentProblems(notebook: RenderedNotebook): string[] {
  const problems = commonProblems(notebook, [
    "VISIBLE_CONTRACT NEEDS_WORK",
    "CONNECTION_NOT_READY: repair splitFrames, then run again.",
    "TRANSFER_STATUS NEEDS_WORK",
    'COURSE_REPORT={"edition":"student","starting_evidence":"SUPPLIED_REFERENCE",' +
    '"transfer_passed":false,"unit":"ch14-b"}',
  ]);
  if (notebook.lines.some((line) => line.startsWith("HOLDOUT_RESULT="))) {
    problems.push("a HOLDOUT_RESULT= line in the student edition");
  }
  const frames = table(notebook, "splitFrames, the visible cases");
  if (typeof frames === "string") problems.push(frames);
  else {
    const statuses = frames.rows.map((row) => row.status);
    if (!statuses.every((status) => /^(✓ PASS|✗ FAIL|… UNFINISHED)$/.test(status))) {
      problems.push(`splitFrames rows not all marked ✓, ✗ or …: ${statuses.join(", ")}`);
    }
    if (!statuses.some((status) => status === "✗ FAIL" || status === "… UNFINISHED")) {
      problems.push(`no splitFrames row marked ✗ FAIL or … UNFINISHED: ${statuses.join(", ")}`);
    }
  }
  const transfer = table(notebook, "transferProblems");
  if (typeof transfer === "string") problems.push(transfer);
  else if (
    transfer.rows.length === 0 || !transfer.rows.every((row) => row.status === "… UNFINISHED")
  ) {
    problems.push(
      `transferProblems rows not all … UNFINISHED: ${transfer.rows.map((row) => row.status)}`,
    );
  }
  return problems;
}

function workedProblems(notebook: RenderedNotebook): string[] {
  const problems = commonProblems(notebook, [
    "VISIBLE_CONTRACT PASSED",
    "TRANSFER_STATUS PASS",
    "NEGATIVE_CONTROL FAILED_AS_EXPECTED",
    'HOLDOUT_RESULT={"status":"PASSED","unit":"ch14-b"}',
    'COURSE_REPORT={"edition":"instructor","starting_evidence":"SUPPLIED_REFERENCE",' +
    '"transfer_passed":true,"unit":"ch14-b"}',
  ]);
  const grades = [
    "splitFrames, the visible cases",
    "transferProblems",
    "transferProblems, the instructor's cases",
  ];
  for (const caption of grades) {
    const grade = table(notebook, caption);
    if (typeof grade === "string") problems.push(grade);
    else if (grade.rows.length === 0 || !grade.rows.every((row) => row.status === "✓ PASS")) {
      problems.push(`"${caption}" rows not all ✓ PASS: ${grade.rows.map((row) => row.status)}`);
    }
  }
  const failures = table(notebook, "Every failure mode, deadline 1 s");
  if (typeof failures === "string") problems.push(failures);
  else if (
    failures.rows.length !== 8 ||
    !failures.rows.every((row) => row.verdict === "✓ as expected")
  ) {
    problems.push(
      `failure modes not all ✓ as expected: ${failures.rows.map((row) => row.verdict)}`,
    );
  }
  const pictures = [
    ["The careless client on the stale server", "taken as the answer to #4"],
    ["The hung call, from request to exit", "SIGTERM to the process group"],
  ];
  for (const [title, detail] of pictures) {
    const picture = notebook.pictures.find((text) => text.startsWith(title));
    if (picture === undefined) problems.push(`no picture "${title}"`);
    else if (!picture.includes(detail)) {
      problems.push(`the picture "${title}" does not show "${detail}"`);
    }
  }
  return problems;
}

/**
 * Open the notebook at `path` in a new page, run all its cells, save a
 * screenshot as `shot`, and assert that `problems` finds nothing on the page.
 */
async function runEdition(
  browser: Chromium,
  server: NotebookServer,
  path: string,
  shot: string,
  problems: (notebook: RenderedNotebook) => string[],
): Promise<void> {
  const page = await browser.context.newPage();
  try {
    await openNotebook(page, server.notebookUrl(path));
    let result: Settled;
    try {
      await restartAndRunAll(page);
      result = await settledProblems(page, problems);
    } finally {
      await screenshotNotebook(page, `${shots}${shot}`);
    }
    if (result.late.length > 0) {
      console.log(`  (shown only after the kernel went idle: ${result.late.join("; ")})`);
    }
    if (result.problems.length > 0) {
      assert.fail(
        `${path}, rendered in Chromium, is not as expected (see work/browser/${shot}):\n  ${
          result.problems.join("\n  ")
        }`,
      );
    }
  } finally {
    await page.close();
  }
}

Deno.test({
  name: "Unit B in Chromium: the student edition marks unfinished work, the worked one passes",
  // playwright-core keeps its connection to Chromium open between steps.
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    await Deno.mkdir(shots, { recursive: true });
    const committed = await Promise.all(EDITIONS.map((path) => Deno.readTextFile(root + path)));
    const work = await Deno.makeTempDir({ prefix: "course-browser-work-" });
    const server = await startNotebookServer(root, {
      env: { COURSE_WORK: work },
      log: `${shots}notebook-server.log`,
    });
    let leftovers: string[] = [];
    try {
      await using chromium = await launchChromium();

      await t.step(
        "the student edition marks its unfinished work, with no error",
        () => runEdition(chromium, server, EDITIONS[0], "ch14-b-student.png", studentProblems),
      );
      await t.step(
        "the worked edition passes every check, holdouts included",
        () => runEdition(chromium, server, EDITIONS[1], "ch14-b-worked.png", workedProblems),
      );
    } finally {
      leftovers = await server.close();
      await Deno.remove(work, { recursive: true });
    }
    assert.deepEqual(leftovers, [], "processes outlived the Notebook server (now killed)");
    const after = await Promise.all(EDITIONS.map((path) => Deno.readTextFile(root + path)));
    assert.ok(after.every((text, i) => text === committed[i]), "a committed notebook changed");
  },
});
