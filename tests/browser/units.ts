// Every edition of every unit in JupyterLab 4 with the Deno kernel, driven in
// Debian's headless Chromium as a learner uses it: opened, run with Kernel →
// Restart Kernel and Run All Cells…, its hints opened by a click, and judged
// by what the page renders: no table wider than the notebook, every grade
// table with a failure and every hint opened photographed. Then the output race's control notebook, run
// three times, and a learner's collected notebook opened untrusted. Run it
// with `deno task test:browser` (it is kept out of `deno task test`: its name
// does not end in _test.ts). Screenshots go to work/browser/.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runNotebook } from "../../tools/run_notebook.ts";
import { type Chromium, launchChromium } from "./chromium.ts";
import { countInBrowser } from "./console_lines.ts";
import { type LabServer, startLabServer } from "./lab_server.ts";
import { MISTAKEN_UNITS, mistakenCopy } from "./mistakes.ts";
import {
  openedModified,
  openHints,
  openNotebook,
  photographFailures,
  readNotebook,
  type RenderedNotebook,
  type RenderedTable,
  restartAndRunAll,
  screenshotNotebook,
  type Settled,
  settledProblems,
  tablesTooWide,
} from "./lab_page.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const shots = `${root}work/browser/`;

/** What each edition must show, beyond what every edition must. */
interface Edition {
  path: string;
  shot: string;
  worked: boolean;
  /** Lines the page must show. */
  lines: (string | RegExp)[];
  /** Pictures the page must show: a title, and a detail in the picture. */
  pictures: [title: string, detail: string][];
  /** How many notices (↷ a step skipped, ⚠ a warning, ✓/✗/ℹ a prediction checked) it shows. */
  notices?: number;
  /** A learner's copy written with beginners' mistakes: some of its tables pass, some must not. */
  mistaken?: boolean;
}

const EDITIONS: Edition[] = [
  {
    path: "notebooks/ch14-a.ipynb",
    shot: "ch14-a-student.png",
    worked: false,
    lines: ["ANSWER_CHECK NEEDS_WORK", 'UNIT_A_REPORT={"status":"INCOMPLETE","unit":"ch14-a"}'],
    pictures: [],
    notices: 5,
  },
  {
    path: "solutions/ch14-a.ipynb",
    shot: "ch14-a-worked.png",
    worked: true,
    lines: [
      "ANSWER_CHECK PASSED",
      "calls the old server received: 0",
      'HOLDOUT_RESULT={"status":"PASSED","unit":"ch14-a"}',
    ],
    pictures: [],
    notices: 5,
  },
  {
    path: "notebooks/ch14-b.ipynb",
    shot: "ch14-b-student.png",
    worked: false,
    lines: [
      "VISIBLE_CONTRACT NEEDS_WORK",
      "TRANSFER_STATUS NEEDS_WORK",
      'COURSE_REPORT={"edition":"student","starting_evidence":"SUPPLIED_REFERENCE",' +
      '"transfer_passed":false,"unit":"ch14-b"}',
    ],
    // The careless client's picture shows its answer: it waits, for Unit A's functions first.
    pictures: [],
    // Each Client step waits for the learner's Unit A functions (the handouts' ch14-a is the starter).
    notices: 9,
  },
  {
    path: "solutions/ch14-b.ipynb",
    shot: "ch14-b-worked.png",
    worked: true,
    lines: [
      "VISIBLE_CONTRACT PASSED",
      "TRANSFER_STATUS PASS",
      "NEGATIVE_CONTROL FAILED_AS_EXPECTED",
      'HOLDOUT_RESULT={"status":"PASSED","unit":"ch14-b"}',
      'COURSE_REPORT={"edition":"instructor","starting_evidence":"SUPPLIED_REFERENCE",' +
      '"transfer_passed":true,"unit":"ch14-b"}',
    ],
    pictures: [
      ["The careless client on the stale server", "taken as the answer to #4"],
      ["The hung call, from request to exit", "SIGTERM to the process group"],
    ],
    notices: 8,
  },
  {
    path: "notebooks/lab-01.ipynb",
    shot: "lab-01-student.png",
    worked: false,
    lines: ["NEGOTIATE_VERSION NEEDS_WORK", "HANDLE_MESSAGE NEEDS_WORK", "LAB_01 NOT DONE YET"],
    pictures: [],
    notices: 10,
  },
  {
    path: "solutions/lab-01.ipynb",
    shot: "lab-01-worked.png",
    worked: true,
    lines: [
      "LAB_01 DONE",
      "INSTRUCTOR_CHECKS PASSED",
      'HOLDOUT_RESULT={"status":"PASSED","unit":"lab-01"}',
    ],
    pictures: [],
    notices: 5,
  },
  {
    path: "notebooks/lab-02.ipynb",
    shot: "lab-02-student.png",
    worked: false,
    lines: [
      "CORRELATE NEEDS_WORK",
      "UNWRAP NEEDS_WORK",
      "ERA_OF NEEDS_WORK",
      "LAB_02 NOT DONE YET",
    ],
    pictures: [],
    notices: 22,
  },
  {
    path: "solutions/lab-02.ipynb",
    shot: "lab-02-worked.png",
    worked: true,
    lines: [
      "ERAS PASSED",
      "INSTRUCTOR_CHECKS PASSED",
      'HOLDOUT_RESULT={"status":"PASSED","unit":"lab-02"}',
    ],
    pictures: [["Lab 02: the round trip on the wire", "tools/call"]],
    notices: 10,
  },
  {
    path: "notebooks/lab-03.ipynb",
    shot: "lab-03-student.png",
    worked: false,
    lines: [
      "PREFIX_STATUS NEEDS_WORK",
      "DECODE NEEDS_WORK",
      "RETRY_REQUEST NEEDS_WORK",
      "LAB_03 NOT DONE YET",
    ],
    pictures: [],
    // Block G's two retry steps wait for retryRequest, and its prediction cell for the learner;
    // the sampling step's Client waits for the learner's Unit A functions.
    notices: 11,
  },
  {
    path: "solutions/lab-03.ipynb",
    shot: "lab-03-worked.png",
    worked: true,
    lines: [
      "LAB_03 DONE",
      "INSTRUCTOR_CHECKS PASSED",
      'HOLDOUT_RESULT={"status":"PASSED","unit":"lab-03"}',
    ],
    pictures: [],
    notices: 4,
  },
  {
    path: "notebooks/lab-04.ipynb",
    shot: "lab-04-student.png",
    worked: false,
    lines: [
      "ROUTE_REPLY NEEDS_WORK",
      "SSE_DATA NEEDS_WORK",
      "HEADER_CHECK NEEDS_WORK",
      "RECOVER_STREAM NEEDS_WORK",
      "LAB_04 NOT DONE YET",
    ],
    pictures: [],
    notices: 20,
  },
  {
    path: "solutions/lab-04.ipynb",
    shot: "lab-04-worked.png",
    worked: true,
    lines: [
      "LAB_04 DONE",
      "INSTRUCTOR_CHECKS PASSED",
      'HOLDOUT_RESULT={"status":"PASSED","unit":"lab-04"}',
    ],
    pictures: [],
    notices: 9,
  },
  {
    path: "notebooks/ch15.ipynb",
    shot: "ch15-student.png",
    worked: false,
    lines: ["LIMIT_COMMAND NEEDS_WORK", "DENO_FLAGS NEEDS_WORK", "BWRAP_COMMAND NEEDS_WORK"],
    pictures: [],
    // The control and server-filesystem's run wait for the learner's Unit A functions (the
    // handouts' ch14-a is the starter), before their predictions and the sandboxed run.
    notices: 6,
  },
  {
    path: "solutions/ch15.ipynb",
    shot: "ch15-worked.png",
    worked: true,
    lines: ['HOLDOUT_RESULT={"status":"PASSED","unit":"ch15"}', "LEFT_RUNNING 0"],
    pictures: [],
    notices: 5,
  },
];

/** Every grade table: its caption and rows, found by its `status` column. */
function gradeTables(notebook: RenderedNotebook): RenderedTable[] {
  return notebook.tables.filter((table) => table.columns.includes("status"));
}

/** What is wrong with the rendered page of `edition`. */
function problems(edition: Edition, notebook: RenderedNotebook): string[] {
  const found = notebook.errors.map((error) => `error output: ${error.slice(0, 300)}`);
  for (const cell of notebook.cells) {
    for (const result of cell.results) found.push(`cell ${cell.id} shows a value: Out ${result}`);
  }
  const printed = [...notebook.lines, ...notebook.reports];
  for (const line of edition.lines) {
    const shown = typeof line === "string"
      ? printed.includes(line)
      : printed.some((one) => line.test(one));
    if (!shown) found.push(`no line ${line}`);
  }
  if (edition.notices !== undefined && notebook.notices.length !== edition.notices) {
    found.push(`${notebook.notices.length} notices, not ${edition.notices}: ${notebook.notices}`);
  }
  // Run All of an untouched copy: every step that shows a predicted answer waits for it.
  const spoiled = notebook.notices.filter((notice) => notice.includes("You wrote no prediction"));
  if (!edition.worked && spoiled.length > 0) found.push(`revealed before predicted: ${spoiled}`);
  const holdout = printed.some((line) => line.startsWith("HOLDOUT_RESULT="));
  if (!edition.worked && holdout) found.push("a HOLDOUT_RESULT= line in a student edition");
  const grades = gradeTables(notebook);
  if (grades.length === 0) found.push("no grade table");
  for (const table of grades) {
    const statuses = table.rows.map((row) => row.status);
    if (!statuses.every((status) => /^(✓ PASS|✗ FAIL|… UNFINISHED)$/.test(status))) {
      found.push(`"${table.caption}" rows not all marked ✓, ✗ or …: ${statuses.join(", ")}`);
    }
    if (edition.worked && !statuses.every((status) => status === "✓ PASS")) {
      found.push(`"${table.caption}" rows not all ✓ PASS: ${statuses.join(", ")}`);
    }
    if (!edition.worked && !edition.mistaken && statuses.every((status) => status === "✓ PASS")) {
      found.push(`"${table.caption}" passes with the starter: ${statuses.join(", ")}`);
    }
    // A quote escaped once is JSON written as text again; a backslash shown before a quote
    // (`\\"`, as Deno shows one) is a string that holds one, such as Lab 03's escapes.
    const escaped = table.rows.flatMap((row) => Object.values(row)).filter((cell) =>
      /(^|[^\\])\\"/.test(cell)
    );
    if (escaped.length > 0) found.push(`"${table.caption}" shows escaped JSON: ${escaped[0]}`);
  }
  for (const [title, detail] of edition.pictures) {
    const picture = notebook.pictures.find((text) => text.startsWith(title));
    if (picture === undefined) found.push(`no picture "${title}"`);
    else if (!picture.includes(detail)) {
      found.push(`the picture "${title}" does not show "${detail}"`);
    }
  }
  return found;
}

/** How many folds (`<details>`: a ☞ hint, or 👁 what a step showed) the edition's Markdown holds. */
async function hintsIn(path: string): Promise<number> {
  return (await Deno.readTextFile(`${root}${path}`)).split(/<summary>(?:☞|👁)/).length - 1;
}

/**
 * Open `edition` in a new page, run all its cells, photograph each grade
 * table with a failure, open its hints (each photographed open), save a
 * screenshot of the whole, and assert that the page shows what it must.
 */
async function runEdition(chromium: Chromium, server: LabServer, edition: Edition) {
  const page = await chromium.context.newPage();
  const base = `${shots}${edition.shot.replace(/\.png$/, "")}`;
  try {
    await openNotebook(page, server.notebookUrl(edition.path));
    assert.equal(await openedModified(page), false, `${edition.path} opened modified`);
    let result: Settled;
    let hints: { summary: string; open: boolean }[] = [];
    let wide: string[] = [];
    let failures: string[] = [];
    try {
      await restartAndRunAll(page);
      result = await settledProblems(page, (notebook) => problems(edition, notebook));
      wide = await tablesTooWide(page);
      failures = await photographFailures(page, (i) => `${base}-failing-table-${i + 1}.png`);
      // The hints a learner opens: photographed in the student editions, where they are read.
      hints = await openHints(
        page,
        edition.worked ? undefined : (i) => `${base}-hint-${i + 1}.png`,
      );
    } finally {
      await screenshotNotebook(page, `${shots}${edition.shot}`);
    }
    const found = [...result.problems];
    if (result.late.length > 0) found.push(`shown only after the cells ended: ${result.late}`);
    for (const table of wide) found.push(`a table wider than the notebook: ${table}`);
    if (edition.mistaken && failures.length === 0) {
      found.push("no grade table with a failure to photograph");
    }
    const expectedHints = await hintsIn(edition.path);
    if (hints.length !== expectedHints || expectedHints === 0) {
      found.push(`${hints.length} hints, not ${expectedHints}`);
    }
    for (const hint of hints.filter((hint) => !hint.open)) {
      found.push(`the hint "${hint.summary}" did not open when clicked`);
    }
    if (found.length > 0) {
      assert.fail(
        `${edition.path}, in JupyterLab, is not as expected (see work/browser/${edition.shot}):\n  ${
          found.join("\n  ")
        }`,
      );
    }
  } finally {
    await page.close();
  }
}

/**
 * A learner's notebook as an instructor collects it: run (here by nbconvert),
 * outputs kept, never signed on this machine, so JupyterLab opens it
 * untrusted. Its grade tables and pictures must still show.
 */
async function openCollected(chromium: Chromium, server: LabServer, work: string) {
  const { notebook } = await runNotebook(`${root}solutions/ch14-b.ipynb`, {
    env: { COURSE_WORK: `${work}/collected` },
  });
  const name = "work/browser/collected-ch14-b.ipynb";
  await Deno.writeTextFile(`${root}${name}`, JSON.stringify(notebook, null, 1));
  const page = await chromium.context.newPage();
  try {
    await openNotebook(page, server.notebookUrl(name));
    const shown = await readNotebook(page);
    await screenshotNotebook(page, `${shots}collected-ch14-b-untrusted.png`);
    const grades = gradeTables(shown);
    assert.ok(grades.length >= 2, `grade tables shown untrusted: ${grades.length}`);
    assert.ok(grades.every((table) => table.rows.every((row) => row.status === "✓ PASS")));
    assert.equal(shown.pictures.length, 2, "both pictures shown in the untrusted notebook");
  } finally {
    await page.close();
  }
}

/**
 * The units of each lane, run side by side: a lane is a JupyterLab of its own
 * whose kernels work in a folder of their own (two kernels of one folder
 * would read each other's server logs), and runs its units' editions one
 * after another. Most of a step is a kernel waiting on servers and deadlines
 * (the steps one after another took 471 s of wall time on two idle cores and
 * about half of one core's CPU time), so two lanes take about half as long.
 * The lanes are balanced by their steps' times in that run.
 */
const LANES: readonly (readonly string[])[] = [
  ["lab-04", "lab-01", "ch14-b"],
  ["lab-02", "ch15", "lab-03", "ch14-a"],
];

/** The unit a notebook's path names: `notebooks/ch14-a.ipynb` is `ch14-a`. */
const unitOf = (path: string) => path.slice(path.lastIndexOf("/") + 1, -".ipynb".length);

/** Steps run side by side: the test's sanitizers are off, and so must theirs be. */
const SIDE_BY_SIDE = { sanitizeOps: false, sanitizeResources: false, sanitizeExit: false };

/**
 * Lane `index`: its units' editions, then their copies with beginners'
 * mistakes, in a JupyterLab of its own; the first lane then counts console
 * lines, the second opens a collected notebook. Resolves to the processes
 * that outlived its server.
 */
async function runLane(t: Deno.TestContext, chromium: Chromium, index: number): Promise<string[]> {
  const units = LANES[index];
  const step = (name: string, fn: () => Promise<void>) => t.step({ name, fn, ...SIDE_BY_SIDE });
  const work = await Deno.makeTempDir({ prefix: "course-browser-work-" });
  const server = await startLabServer(root, {
    env: { COURSE_WORK: work },
    log: `${shots}lab-server-${index + 1}.log`,
  });
  let leftovers: string[] = [];
  try {
    for (const edition of EDITIONS.filter((edition) => units.includes(unitOf(edition.path)))) {
      await step(
        `${edition.path}: ${edition.worked ? "every check passes" : "unfinished work is marked"}`,
        () => runEdition(chromium, server, edition),
      );
    }
    for (const unit of MISTAKEN_UNITS.filter((unit) => units.includes(unit))) {
      const path = await mistakenCopy(unit);
      try {
        await step(
          `${unit}, written with beginners' mistakes: each shows ✗ and what differs`,
          () =>
            runEdition(chromium, server, {
              path,
              shot: `${unit}-mistakes.png`,
              worked: false,
              mistaken: true,
              lines: [],
              pictures: [],
            }),
        );
      } finally {
        await Deno.remove(`${root}${path}`);
      }
    }
    if (index === 0) {
      await step("a cell's last console.log lines show under it, 3 runs of 6 cells", async () => {
        const counts = await countInBrowser(chromium, server, "course", 3);
        assert.deepEqual(counts, Array(3).fill({ lost: 0, misplaced: 0 }));
      });
    } else {
      await step(
        "a collected notebook, opened untrusted, shows its tables and pictures",
        () => openCollected(chromium, server, work),
      );
    }
  } finally {
    try {
      leftovers = await server.close();
    } finally {
      await Deno.remove(work, { recursive: true });
    }
  }
  return leftovers;
}

Deno.test({
  name: "every edition of every unit in JupyterLab 4 in Chromium",
  // playwright-core keeps its connection to Chromium open between steps.
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    await Deno.mkdir(shots, { recursive: true });
    const units = LANES.flat();
    assert.ok(
      EDITIONS.every((edition) => units.includes(unitOf(edition.path))) &&
        MISTAKEN_UNITS.every((unit) => units.includes(unit)),
      `every unit is in a lane: ${units}`,
    );
    const paths = EDITIONS.map((edition) => edition.path);
    const committed = await Promise.all(paths.map((path) => Deno.readTextFile(root + path)));
    let lanes: PromiseSettledResult<string[]>[];
    {
      await using chromium = await launchChromium();
      lanes = await Promise.allSettled(LANES.map((_, index) => runLane(t, chromium, index)));
    }
    for (const lane of lanes) if (lane.status === "rejected") throw lane.reason;
    const leftovers = lanes.flatMap((lane) => lane.status === "fulfilled" ? lane.value : []);
    assert.deepEqual(leftovers, [], "processes outlived the JupyterLab servers (now killed)");
    const after = await Promise.all(paths.map((path) => Deno.readTextFile(root + path)));
    assert.ok(after.every((text, i) => text === committed[i]), "a committed notebook changed");
  },
});
