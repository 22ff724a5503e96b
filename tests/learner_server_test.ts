// Lab 01's server module, written from a saved notebook: the code it holds is
// the code the kernel runs, or it is refused by name; it starts with no
// permission and serves the judges' protocol, in both eras.

import assert from "node:assert/strict";
import { fileURLToPath, pathToFileURL } from "node:url";
import { judgeWithCourseClient } from "../lib/judges/course_client.ts";
import { StaleNotebookError, writeLearnerServer } from "../tools/grading/learner_server.ts";
import { WORKED } from "./catalogue/lab_01.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const worked = `${root}solutions/lab-01.ipynb`;
/** The worked cells as the kernel runs them: the catalogue's module of them. */
const running = await (async () => {
  const folder = await Deno.makeTempDir({ prefix: "lab-01-running-" });
  try {
    const lib = new URL("../lib/", import.meta.url).href;
    await Deno.writeTextFile(`${folder}/worked.ts`, WORKED.replaceAll('"../lib/', `"${lib}`));
    const { negotiateVersion, handleMessage } = await import(
      pathToFileURL(`${folder}/worked.ts`).href
    );
    return { negotiateVersion, handleMessage };
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
})();

Deno.test("the worked cells become a module that a client can use, in a folder with a space", async () => {
  const folder = await Deno.makeTempDir({ prefix: "lab 01 #% módulo-" });
  try {
    const server = await writeLearnerServer(pathToFileURL(`${folder}/`), "lab-01", {
      running,
      notebook: worked,
    });
    assert.equal(server.path, `${folder}/grammar_server.mts`);
    assert.match(server.sha256, /^[0-9a-f]{64}$/);
    assert.ok(!server.command.some((part) => part.startsWith("--allow")));
    const report = await judgeWithCourseClient(server.command);
    assert.deepEqual(report.problems, []);
    assert.deepEqual(report.spoke, ["2026-07-28"]);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a saved notebook that differs from the running code is refused by name", async () => {
  const folder = await Deno.makeTempDir({ prefix: "lab-01-stale-" });
  try {
    const chatty = { ...running, negotiateVersion: () => "2024-11-05" };
    await assert.rejects(
      writeLearnerServer(pathToFileURL(`${folder}/`), "lab-01", {
        running: chatty,
        notebook: worked,
      }),
      (error: Error) =>
        error instanceof StaleNotebookError &&
        /The saved lab-01\.ipynb does not hold the negotiateVersion this kernel runs/.test(
          error.message,
        ) && /save the notebook/.test(error.message),
    );
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a helper in a cell the learner added is kept, and an added cell that does not parse left out, as the autograder does", async () => {
  // Before: the module held the graded cells alone, so a negotiateVersion calling a helper of the
  // learner's own threw ReferenceError where the kernel's answered, and the saved notebook was
  // refused as stale ("save the notebook"), though `deno task grade` takes the helper and grades it.
  const folder = await Deno.makeTempDir({ prefix: "lab-01-added-" });
  try {
    const notebook = JSON.parse(await Deno.readTextFile(worked));
    const at = notebook.cells.findIndex((cell: { id?: string }) => cell.id === "negotiate-version");
    const graded = notebook.cells[at];
    graded.source = graded.source.join("").replace(
      "return HANDSHAKE_VERSIONS[0];",
      "return newestHandshake();",
    );
    const added = [
      ["my-helper", 'function newestHandshake(): string {\n  return "2025-06-18";\n}'],
      ["my-draft", "function unfinished(id) {\n  return [id;\n}"],
    ].map(([id, source]) => ({ cell_type: "code", id, metadata: {}, outputs: [], source }));
    notebook.cells.splice(at, 0, ...added);
    const path = `${folder}/lab-01.ipynb`;
    await Deno.writeTextFile(path, JSON.stringify(notebook));
    const server = await writeLearnerServer(pathToFileURL(`${folder}/server/`), "lab-01", {
      running,
      notebook: path,
    });
    const source = await Deno.readTextFile(server.path);
    assert.match(source, /function newestHandshake\(\)/);
    assert.doesNotMatch(source, /function unfinished/);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});
