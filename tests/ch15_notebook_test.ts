// Chapter 15, run by the real Deno kernel through Jupyter's executor: the
// worked edition shows every escape attempt succeed with no boundary and
// refused under Deno's permissions and under bubblewrap, with the tool still
// answering 4, and leaves nothing running, the negative control's setsid
// process included; the student edition runs to its end and reports what is
// not written yet.

import assert from "node:assert/strict";
import { basename } from "node:path";
import { bubblewrapStatus } from "../lib/containment/bubblewrap.ts";
import { processesMentioning } from "../lib/containment/process_table.ts";
import { evidenceProblems } from "../lib/course/evidence.ts";
import { runNotebook } from "../tools/run_notebook.ts";
import { reportLine, run, workFolder } from "./_notebooks.ts";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));

type Observation = {
  attempt: string;
  outcome: string;
  by: string | null;
  answer: string;
  saw: string;
};

async function submissionOf(work: string): Promise<Record<string, unknown>> {
  const submission = JSON.parse(await Deno.readTextFile(`${work}/ch15/ch15-submission-v1.json`));
  assert.deepEqual(await evidenceProblems("ch15-submission", submission), []);
  return submission;
}

/** The processes still running that the run's playground, or its marks, name. */
function leftBy(text: string): number[] {
  const root = text.match(/^playground: (\S+)$/m)?.[1];
  assert.ok(root, "the notebook did not say where its playground was");
  return processesMentioning([root, `MCP_COURSE_GRANDCHILD=ch15-${basename(root)}`]);
}

Deno.test("the worked Chapter 15 refuses every attempt under both boundaries, and leaves nothing running", async () => {
  const { available } = await bubblewrapStatus();
  const { text, work } = await run("solutions/ch15.ipynb");
  assert.deepEqual(reportLine(text, "HOLDOUT_RESULT"), { status: "PASSED", unit: "ch15" });
  assert.deepEqual(reportLine(text, "COURSE_REPORT"), {
    bubblewrap: available,
    edition: "instructor",
    status: "COMPLETED",
    unit: "ch15",
  });
  const submission = await submissionOf(work);
  const observed = submission.observations as Record<string, Observation[] | null>;
  assert.equal(observed.none!.length, 8);
  assert.ok(observed.none!.every((row) => row.outcome === "succeeded" && row.answer === "4"));
  const escaped = observed.none!.find((row) => row.attempt.includes("setsid"))!;
  assert.match(escaped.saw, /outlived the server \(pid \d+: this unit ended it\)/);
  const fs = submission.filesystem_server as Record<string, Observation[] | null>;
  assert.ok(fs.none!.every((row) => row.outcome === "succeeded" && row.answer === "4"));
  if (available) {
    assert.ok(fs.bubblewrap!.every((row) => row.outcome === "refused" && row.answer === "4"));
  }
  for (const layer of available ? ["deno", "bubblewrap"] : ["deno"]) {
    assert.equal(observed[layer]!.length, 8, layer);
    for (const row of observed[layer]!) {
      assert.equal(row.outcome, "refused", `${layer}: ${row.attempt}`);
      assert.equal(row.answer, "4", `${layer}: ${row.attempt}`);
      assert.equal(row.by, /memory|CPU/.test(row.attempt) ? "prlimit" : layer, row.attempt);
    }
  }
  // After the kernel has gone, the process table holds nothing the unit started.
  assert.deepEqual(leftBy(text), []);
});

Deno.test("the student Chapter 15 runs to its end and reports what is not written yet", async () => {
  const { text, work } = await run("notebooks/ch15.ipynb");
  assert.ok(!text.includes("HOLDOUT_RESULT"));
  assert.equal(reportLine(text, "COURSE_REPORT").status, "INCOMPLETE");
  const submission = await submissionOf(work);
  for (const rows of Object.values(submission.grades as Record<string, { status: string }[]>)) {
    assert.ok(rows.length > 0 && rows.every((row) => row.status === "UNFINISHED"));
  }
  // Beside the handouts' Unit A, its starter, every step whose Client asks a server waits for the
  // learner's answerFor and authorize: nothing is observed.
  assert.deepEqual(submission.observations, { none: null, deno: null, bubblewrap: null });
  assert.deepEqual(submission.filesystem_server, { none: null, bubblewrap: null });
  for (const step of ["The control", "The run of server-filesystem"]) {
    assert.match(
      text,
      new RegExp(
        `↷ ${step} waits for answerFor \\(not written yet, in the ✏️ cell of section 1 of notebooks/ch14-a\\.ipynb\\)`,
      ),
    );
  }
  // Run All on a fresh copy reveals no answer before its prediction.
  assert.ok(
    !text.includes("You wrote no prediction first"),
    "a step revealed before its prediction",
  );
  assert.ok(!/NEGATIVE_CONTROL|FILESYSTEM_SERVER|none: .*: succeeded/.test(text));
  assert.deepEqual(leftBy(text), []);
});

/**
 * A folder of links to every program on the PATH but `bwrap`: a machine
 * where bubblewrap is not installed, for the kernel and what it starts.
 */
async function pathWithoutBubblewrap(): Promise<string> {
  const bin = await Deno.makeTempDir({ prefix: "no-bwrap-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(bin, { recursive: true }));
  for (const folder of (Deno.env.get("PATH") ?? "").split(":").reverse()) {
    try {
      for (const entry of Deno.readDirSync(folder)) {
        if (entry.name === "bwrap") continue;
        await Deno.remove(`${bin}/${entry.name}`).catch(() => {});
        await Deno.symlink(`${folder}/${entry.name}`, `${bin}/${entry.name}`);
      }
    } catch {
      // A folder on the PATH that is not there.
    }
  }
  return bin;
}

Deno.test("where bubblewrap cannot run, the worked edition says so, grades the command line without running it, and completes", async () => {
  const work = await workFolder();
  const { text } = await runNotebook(`${root}solutions/ch15.ipynb`, {
    env: { COURSE_WORK: work, PATH: await pathWithoutBubblewrap() },
  });
  assert.deepEqual(reportLine(text, "HOLDOUT_RESULT"), { status: "PASSED", unit: "ch15" });
  assert.equal(reportLine(text, "COURSE_REPORT").status, "COMPLETED");
  const submission = await submissionOf(work);
  const bubblewrap = submission.bubblewrap as { available: boolean; reason: string };
  assert.equal(bubblewrap.available, false);
  assert.match(bubblewrap.reason, /bubblewrap is not installed/);
  assert.equal((submission.observations as Record<string, unknown>).bubblewrap, null);
  assert.equal((submission.filesystem_server as Record<string, unknown>).bubblewrap, null);
  const grades = submission.grades as Record<string, { status: string }[]>;
  assert.ok(grades.bwrapCommand.every((row) => row.status === "PASS"));
  const deno = (submission.observations as Record<string, Observation[]>).deno;
  assert.ok(deno.every((row) => row.outcome === "refused" && row.answer === "4"));
  assert.deepEqual(leftBy(text), []);
});

Deno.test("the README lists Chapter 15 with the time plan its notebook states, and Unit B points to it", async () => {
  const read = (path: string) => Deno.readTextFile(new URL(`../${path}`, import.meta.url));
  const title = JSON.parse(await read("solutions/ch15.ipynb")).cells[0].source.join("");
  const minutes = title.match(/\*\*(\d+) minutes\.\*\*/)?.[1];
  assert.ok(minutes, "the notebook states no time plan");
  const row = (await read("README.md")).split("\n").find((line) =>
    line.includes("`solutions/ch15.ipynb`")
  );
  assert.ok(row?.includes(`(${minutes} min)`), `the README's row: ${row}`);
  assert.match(title, /Chapter 15: containment, the boundary the protocol does not provide/);
  const unitB = await read("notebooks/ch14-b.ipynb");
  assert.match(unitB, /Chapter 15 adds the operating-system boundary/);
});
