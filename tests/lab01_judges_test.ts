// The four judges of Lab 01 against real processes: the course's reference
// grammar server passes each, and servers from the catalogue of learners'
// mistakes are failed, each by the judges that can see its mistake.

import assert from "node:assert/strict";
import { grammarCommand, learnerServerCommand } from "../lib/course/course.ts";
import { judgeWithBytes } from "../lib/judges/bytes.ts";
import { judgeWithCourseClient } from "../lib/judges/course_client.ts";
import { judgeWithInspector } from "../lib/judges/inspector.ts";
import { judgeWithSdkClient } from "../lib/judges/sdk_client.ts";
import { WRONG } from "./catalogue/lab_01.ts";

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

Deno.test("each judge passes the course's reference grammar server", async () => {
  for (const judge of [judgeWithBytes, judgeWithCourseClient, judgeWithSdkClient]) {
    const report = await judge(grammarCommand());
    assert.equal(report.status, "PASSED", `${report.client}: ${report.problems.join("; ")}`);
  }
  const inspector = await judgeWithInspector(grammarCommand());
  assert.notEqual(inspector.status, "FAILED", inspector.problems.join("; "));
});

Deno.test("the two clients' judges give the handshake a deadline of its own, which their calls' does not cover", async () => {
  // No server starts within a millisecond; with a minute for each call, the handshake is what fails.
  for (const judge of [judgeWithCourseClient, judgeWithSdkClient]) {
    const report = await judge(grammarCommand(), { timeoutMs: 60_000, handshakeMs: 1 });
    assert.equal(report.status, "FAILED", report.client);
    assert.match(report.problems.join("; "), /initialize .*within 1 ms|timed out/i, report.client);
  }
});

const MISTAKES: [string, ("bytes" | "course" | "sdk")[]][] = [
  ["logs to stdout", ["bytes", "course", "sdk"]],
  ["-32601 for an unknown tool", ["bytes", "sdk"]],
  ["answers notifications", ["bytes", "course", "sdk"]],
  ["isError for an unknown tool, a protocol error", ["bytes", "sdk"]],
  ["arguments not checked against the schema", ["sdk"]],
  ["a JSON-RPC error for a tool's own failure", ["bytes", "course"]],
  ["replies pretty-printed over several lines", ["bytes", "course", "sdk"]],
];

for (const [mistake, failedBy] of MISTAKES) {
  Deno.test(`a server that ${mistake} is failed by ${failedBy.join(", ")}`, async () => {
    const command = await serverOf(WRONG[mistake]);
    const judges = {
      bytes: judgeWithBytes,
      course: judgeWithCourseClient,
      sdk: judgeWithSdkClient,
    };
    for (const name of failedBy) {
      const report = await judges[name](command, { timeoutMs: 2000 });
      assert.equal(report.status, "FAILED", `${name} passed it`);
      assert.ok(report.problems.length > 0);
    }
  });
}
