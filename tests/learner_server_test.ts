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
