// The five judges of Lab 01 against real processes: the worked edition's
// server, written from the notebook as a learner's is, passes each, every
// judge speaking the era it should; and servers from the catalogue of
// learners' mistakes are failed, each by the judges that can see its mistake.

import assert from "node:assert/strict";
import { fileURLToPath, pathToFileURL } from "node:url";
import { learnerServerCommand } from "../lib/course/course.ts";
import { judgeWithBytes } from "../lib/judges/bytes.ts";
import { judgeWithCourseClient } from "../lib/judges/course_client.ts";
import { SPOKEN } from "../lib/judges/expected.ts";
import { judgeWithInspector } from "../lib/judges/inspector.ts";
import { judgeWithSdkClient, judgeWithSdkV2Client } from "../lib/judges/sdk_client.ts";
import { writeLearnerServer } from "../tools/grading/learner_server.ts";
import { WORKED, WRONG } from "./catalogue/lab_01.ts";

const lib = new URL("../lib/", import.meta.url).href;
const scratch = await Deno.makeTempDir({ prefix: "lab01-judges-" });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));
// The learner's server loads modules from its folder and the library only.
await Deno.writeTextFile(
  `${scratch}/import_map.json`,
  JSON.stringify({
    imports: {
      "file:///": "file:///nowhere/",
      [`file://${scratch}/`]: `file://${scratch}/`,
      [lib]: lib,
    },
  }),
);

/** A catalogue module written where it loads the library: its path. */
async function moduleOf(source: string): Promise<string> {
  const path = `${scratch}/${crypto.randomUUID()}.mts`;
  await Deno.writeTextFile(path, source.replaceAll(`"../lib/`, `"${lib}`));
  return path;
}

/** The command that runs a catalogue server over stdio, with a plain loop of its own. */
async function serverOf(source: string): Promise<string[]> {
  const path = `${scratch}/${crypto.randomUUID()}.mts`;
  await Deno.writeTextFile(
    path,
    `${source.replaceAll(`"../lib/`, `"${lib}`)}
const encoder = new TextEncoder();
for await (const chunk of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
  for (const line of chunk.split("\\n").filter(Boolean)) {
    const reply = handleMessage(line);
    if (reply !== undefined) Deno.stdout.writeSync(encoder.encode(reply + "\\n"));
  }
}
`,
  );
  return learnerServerCommand(path);
}

Deno.test("each judge passes the worked edition's server, each in the era it speaks", async () => {
  // The worked edition's cells, as a learner's are written: beside the catalogue's copy of them.
  const worked = await import(pathToFileURL(await moduleOf(WORKED)).href);
  const server = await writeLearnerServer(pathToFileURL(`${scratch}/worked/`), "lab-01", {
    notebook: fileURLToPath(new URL("../solutions/lab-01.ipynb", import.meta.url)),
    running: { negotiateVersion: worked.negotiateVersion, handleMessage: worked.handleMessage },
  });
  const judges = [judgeWithBytes, judgeWithCourseClient, judgeWithSdkV2Client, judgeWithSdkClient];
  for (const judge of judges) {
    const report = await judge(server.command);
    assert.equal(report.status, "PASSED", `${report.client}: ${report.problems.join("; ")}`);
    assert.deepEqual(report.spoke, SPOKEN[report.client]);
  }
  const inspector = await judgeWithInspector(server.command);
  assert.notEqual(inspector.status, "FAILED", inspector.problems.join("; "));
});

Deno.test("the clients' judges give the handshake a deadline of its own, which their calls' does not cover", async () => {
  // A server that never answers: with a minute for each call, the handshake's millisecond is what
  // ends it (the course's client probes first, for its own probeMs, then shakes hands).
  const silent = ["sleep", "60"];
  for (const judge of [judgeWithCourseClient, judgeWithSdkClient, judgeWithSdkV2Client]) {
    const report = await judge(silent, { timeoutMs: 60_000, handshakeMs: 1 });
    assert.equal(report.status, "FAILED", report.client);
    // Under load the millisecond may pass before the request is written: that, too, is the
    // handshake's own deadline ("initialize was not sent: its 1 ms deadline had passed").
    const said = report.problems.join("; ");
    assert.match(
      said,
      /(initialize|server\/discover) .*(within 1 ms|1 ms deadline had passed)|timed out|negotiation failed/i,
      `${report.client}: ${said}`,
    );
  }
});

const JUDGES = {
  bytes: judgeWithBytes,
  course: judgeWithCourseClient,
  sdk_v2: judgeWithSdkV2Client,
  sdk: judgeWithSdkClient,
};

const MISTAKES: [string, (keyof typeof JUDGES)[]][] = [
  // The SDK's v2 client skips a line that is not JSON without a word: only the others see it.
  ["logs to stdout", ["bytes", "course", "sdk"]],
  ["-32601 for an unknown tool", ["bytes", "sdk_v2", "sdk"]],
  // The course's client speaks 2026-07-28 here, which has no notification to answer.
  ["answers notifications", ["bytes", "sdk"]],
  ["isError for an unknown tool, a protocol error", ["bytes", "sdk_v2", "sdk"]],
  ["arguments not checked against the schema", ["sdk"]],
  ["a JSON-RPC error for a tool's own failure", ["bytes", "course"]],
  ["replies pretty-printed over several lines", ["bytes", "course", "sdk_v2", "sdk"]],
  // Today's protocol.
  ["a result of today without resultType", ["bytes", "course", "sdk_v2"]],
  ["no caching hints on the tool list", ["sdk_v2"]],
  ["server/discover answered only after initialize", ["bytes", "course", "sdk_v2"]],
  ["an unknown version in _meta answered the handshake's way", ["bytes"]],
  ["arguments that break the schema refused at 2026-07-28 too", ["sdk_v2"]],
  ["the handshake's results marked complete too", ["bytes"]],
];

for (const [mistake, failedBy] of MISTAKES) {
  Deno.test(`a server that ${mistake} is failed by ${failedBy.join(", ")}`, async () => {
    const command = await serverOf(WRONG[mistake]);
    for (const name of failedBy) {
      const report = await JUDGES[name](command, { timeoutMs: 2000 });
      assert.equal(report.status, "FAILED", `${name} passed it`);
      assert.ok(report.problems.length > 0);
    }
  });
}
