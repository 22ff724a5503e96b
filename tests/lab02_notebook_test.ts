// Lab 02, run by the real Deno kernel through Jupyter's executor: the worked
// edition passes every grade table and its holdouts, meets five real servers
// of both eras, and saves the transcript of the canonical flow in 2026-07-28
// (exact and readable) with schema-valid results and manifest, matching the
// instructors' reference transcript; the student
// edition runs to its end, reports every part unwritten, and saves nothing;
// and the student edition completed with the worked solution cells saves the
// same files as the worked edition.

import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { evidenceProblems } from "../lib/course/evidence.ts";
import { buildManifest } from "../lib/course/manifest.ts";
import { readableTranscript } from "../lib/course/readable_transcript.ts";
import { roundTrips } from "../lib/course/round_trips.ts";
import { REFERENCE_TRANSCRIPT, transcriptDifferences } from "../lib/course/transcript_check.ts";
import { parseNotebook, sourceOf } from "../tools/editions/notebook.ts";
import { pictures, reportLine, run, statuses, workFolder } from "./_notebooks.ts";

const root = new URL("../", import.meta.url);
const SAVED = [
  "REPORT.md",
  "manifest.json",
  "mcp_client.mts",
  "results.json",
  "transcript.readable.txt",
  "transcript.txt",
];
/** The grade tables the notebook prints, by cell, with how many cases each shows. */
const TABLES: Record<string, number> = {
  "correlate-cases": 6,
  "unwrap-cases": 6,
  "server-link-cases": 7,
  "rpc-link-cases": 10,
  "era-of-cases": 8,
  "handshake-cases": 10,
  "tool-list-cases": 3,
  "call-tool-cases": 9,
  "named-tests-run": 6,
  "named-tests-faults": 12,
};

/** Every file and folder under `folder`, as paths relative to it, sorted. */
async function contents(folder: string, prefix = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(folder)) {
    found.push(`${prefix}${entry.name}${entry.isDirectory ? "/" : ""}`);
    if (entry.isDirectory) {
      found.push(...await contents(`${folder}/${entry.name}`, `${prefix}${entry.name}/`));
    }
  }
  return found.sort();
}

/** The saved files of a run, as text, and its manifest without its time stamp. */
async function saved(work: string) {
  const text = async (name: string) => await Deno.readTextFile(`${work}/lab-02/${name}`);
  const { created_at: _, ...manifest } = JSON.parse(await text("manifest.json"));
  return {
    transcript: await text("transcript.txt"),
    readable: await text("transcript.readable.txt"),
    results: JSON.parse(await text("results.json")),
    report: await text("REPORT.md"),
    manifest,
  };
}

/** The student edition with every cell the learner writes in put back as worked, beside it: its path. */
async function completedStudentEdition(
  change = (_id: string, source: string) => source,
): Promise<string> {
  const read = async (path: string) =>
    parseNotebook(await Deno.readTextFile(new URL(path, root)), path);
  const worked = await read("solutions/lab-02.ipynb");
  const notebook = await read("notebooks/lab-02.ipynb");
  for (const cell of notebook.cells) {
    const done = worked.cells.find((c) => c.id === cell.id)!;
    if (sourceOf(done).includes("// BEGIN SOLUTION")) cell.source = change(cell.id, sourceOf(done));
  }
  // Beside the student edition, so that its relative imports resolve as they do there.
  const path = `notebooks/.lab-02-completed-${Deno.pid}.ipynb`;
  await Deno.writeTextFile(new URL(path, root), JSON.stringify(notebook));
  return path;
}

let workedFiles: Awaited<ReturnType<typeof saved>> | undefined;

Deno.test("the worked Lab 02 passes every table and its holdouts, and saves the reference transcript, results and manifest", async () => {
  const { text, outputs, work, notebook } = await run("solutions/lab-02.ipynb");
  assert.equal(pictures(notebook.cells), 1, "the transcript as a sequence diagram");
  for (const [cell, count] of Object.entries(TABLES)) {
    assert.deepEqual(statuses(outputs.get(cell)!), Array(count).fill("PASS"), cell);
  }
  assert.deepEqual(reportLine(text, "HOLDOUT_RESULT"), { status: "PASSED", unit: "lab-02" });
  assert.match(text, /REFERENCE_TRANSCRIPT MATCHES/);
  assert.match(text, /INSTRUCTOR_CHECKS PASSED/);
  assert.match(text, /LAB_02 DONE/);
  assert.match(
    outputs.get("lifecycle")!,
    /\[server\] grammar: input ended, exiting\nexit code: 0 signal: null/,
  );
  assert.match(outputs.get("demo")!, /conjugate -> ate\n/);
  assert.match(outputs.get("demo")!, /lookup_spanish -> comió\n/);
  assert.match(outputs.get("call-outcomes")!, /run.*sent.*ToolError/);
  assert.match(outputs.get("call-outcomes")!, /4sg.*not sent.*ProtocolError/);
  assert.deepEqual(statuses(outputs.get("eras")!), Array(5).fill("PASS"), "five real servers");
  assert.match(outputs.get("connect")!, /^protocol version: 2026-07-28$/m);
  assert.match(text, /^TRANSCRIPT COMPLETE \(2026-07-28\)$/m);

  assert.deepEqual(await contents(work), ["lab-02/", ...SAVED.map((name) => `lab-02/${name}`)]);
  const files = await saved(work);
  assert.deepEqual(roundTrips(files.transcript).map(({ method, reply }) => [method, reply]), [
    ["server/discover", "result"],
    ["tools/list", "result"],
    ...Array.from({ length: 4 }, () => ["tools/call", "result"]),
  ]);
  assert.equal(files.readable, readableTranscript(files.transcript));
  assert.match(
    files.readable,
    /^> server\/discover \{"_meta":\{"io\.modelcontextprotocol\/protocolVersion":"2026-07-28",/,
  );
  assert.match(files.readable, /^> tools\/list \{"_meta":/m);
  assert.deepEqual(
    transcriptDifferences(files.transcript, await Deno.readTextFile(REFERENCE_TRANSCRIPT)),
    [],
  );
  assert.deepEqual(await evidenceProblems("lab-02-results", files.results), []);
  const { predictions, ...results } = files.results;
  assert.deepEqual(results, {
    tools_discovered: 4,
    calls_made: 4,
    calls_failed: 0,
    transcript_path: "transcript.txt",
  });
  assert.ok(predictions.length >= 3 && predictions.every((p: { matched: boolean }) => p.matched));
  assert.match(files.report, /^# Phase 31 report/);
  assert.ok(files.report.includes(files.readable.trimEnd()), "the transcript is pasted in");
  const manifest = JSON.parse(await Deno.readTextFile(`${work}/lab-02/manifest.json`));
  assert.deepEqual(await evidenceProblems("lab-02-manifest", manifest), []);
  const now = await buildManifest(pathToFileURL(`${work}/lab-02/`), [
    "transcript.txt",
    "transcript.readable.txt",
    "results.json",
  ], { lab: "lab-02" });
  assert.deepEqual(manifest.files, now.files, "the manifest's sizes and digests are the files'");
  workedFiles = files;
});

Deno.test("the student Lab 02 runs to its end, reports every part unwritten, and saves nothing", async () => {
  const { text, outputs, work } = await run("notebooks/lab-02.ipynb");
  assert.ok(!text.includes("HOLDOUT_RESULT"));
  assert.ok(!text.includes("INSTRUCTOR_CHECKS"));
  for (const [cell, count] of Object.entries(TABLES)) {
    assert.deepEqual(statuses(outputs.get(cell)!), Array(count).fill("UNFINISHED"), cell);
  }
  for (
    const part of [
      "SERVER_LINK",
      "CORRELATE",
      "RPC_LINK",
      "ERA_OF",
      "HANDSHAKE",
      "TOOL_LIST",
      "UNWRAP",
    ]
  ) {
    assert.match(text, new RegExp(`^${part} NEEDS_WORK$`, "m"));
  }
  assert.match(outputs.get("lifecycle")!, /↷ Starting a real server waits for ServerLink/);
  assert.match(outputs.get("eras")!, /↷ Meeting five real servers waits for eraOf/);
  assert.match(text, /^ERAS NEEDS_WORK$/m);
  assert.match(outputs.get("client-module")!, /↷ Writing your client module waits for correlate/);
  assert.match(outputs.get("demo")!, /↷ The demo waits for your client module/);
  assert.match(outputs.get("transcript-check")!, /↷ This step waits for the demo/);
  assert.match(text, /NOT YET your client passes every grade table/);
  assert.match(text, /MET {5}no server this notebook started is still running/);
  assert.match(text, /LAB_02 NOT DONE YET/);
  assert.ok(
    !text.includes("You wrote no prediction first"),
    "a step revealed before its prediction",
  );
  assert.match(
    outputs.get("results-refused")!,
    /↷ This step shows what you predict \(malformed_saved\)/,
  );
  assert.ok(!outputs.get("results-refused")!.includes("was malformed.json written?"));
  assert.deepEqual(await contents(work), ["lab-02/"], "the student edition saved something");
});

Deno.test("the student edition completed with the worked cells saves what the worked edition saves", async () => {
  const path = await completedStudentEdition();
  try {
    const { text, work } = await run(path);
    assert.match(text, /LAB_02 DONE/);
    assert.ok(!text.includes("HOLDOUT_RESULT"));
    const files = await saved(work);
    assert.deepEqual(
      transcriptDifferences(files.transcript, await Deno.readTextFile(REFERENCE_TRANSCRIPT)),
      [],
    );
    workedFiles ??= await saved((await run("solutions/lab-02.ipynb")).work);
    assert.deepEqual(files, workedFiles, "the same transcripts, results and manifest");
  } finally {
    await Deno.remove(new URL(path, root));
  }
});

Deno.test("right named tests over a McpClient that fails its own cases are told the client is theirs", async () => {
  // A callTool that ignores isError: testCallOutOfScopeRaisesToolError, right, fails against it.
  const ignored = "    if (result.isError === true) throw new ToolError(first.text);\n";
  const path = await completedStudentEdition((id, source) => {
    if (id !== "call-tool") return source;
    assert.ok(source.includes(ignored), "the worked callTool throws a ToolError on isError");
    return source.replace(ignored, "");
  });
  try {
    const { outputs } = await run(path);
    const faults = outputs.get("named-tests-faults")!;
    assert.match(faults, /NAMED_TESTS NEEDS_WORK/);
    assert.match(
      faults,
      /⚠ "A client that works" is your McpClient here, which passes \d+ of 9 of its own cases/,
    );
  } finally {
    await Deno.remove(new URL(path, root));
  }
});

Deno.test("the notebook and the README's table give Lab 02 the seed's 2 to 3 hours and today's protocol's half hour", async () => {
  const notebook = parseNotebook(
    await Deno.readTextFile(new URL("notebooks/lab-02.ipynb", root)),
    "notebooks/lab-02.ipynb",
  );
  const title = notebook.cells.find((cell) => cell.id === "title")!;
  assert.match(sourceOf(title), /\*\*Time: 2½ to 3½ hours\.\*\*/);
  const readme = await Deno.readTextFile(new URL("README.md", root));
  assert.match(readme, /^\| Lab 02 · the MCP client round trip \(2½–3½ hours\) +\|/m);
});

Deno.test("after a Lab 01 that passed, the worked Lab 02 talks to the learner's own server", async () => {
  const work = await workFolder();
  await run("solutions/lab-01.ipynb", work);
  const { text, outputs } = await run("solutions/lab-02.ipynb", work);
  assert.match(text, /The grammar server is your own server from Lab 01/);
  assert.match(text, /LAB_02 DONE/);
  // Lab 01's server speaks both eras: the probe finds 2026-07-28, and the lines sent are today's.
  assert.match(text, /^TRANSCRIPT COMPLETE \(2026-07-28\)$/m);
  assert.match(
    outputs.get("transcript-compare")!,
    /^REFERENCE_TRANSCRIPT MATCHES \(the lines sent\)$/m,
  );
  // The reference check still runs, against the reference of the era the learner's server spoke,
  // and says where that server answers otherwise.
  assert.match(outputs.get("reference-transcript")!, /^(REFERENCE_TRANSCRIPT MATCHES|line \d+ \()/);
});
