// `deno run --allow-all tools/leftovers.ts`: fail if a process the tests
// started is still running. Inside a test run (`deno task test`, whose
// tools/suite.ts gives everything it starts the mark MCP_COURSE_SUITE=<id>,
// tools/suite_mark.ts), it looks only at the processes that carry this run's
// mark, so a second run or a learner's JupyterLab on the same machine is none
// of its business. Run by hand, without a mark, it looks for the course's
// servers (bubblewrap's and prlimit's around them too), the test fixtures,
// the benchmark's servers and the published servers the interop tests and
// Chapter 15 start, by their command line, and for grandchildren by the mark
// in their environment. A mark nested in the run's (`RUN/PART`, a notebook
// kernel's in the tests) is the run's too.
// Zombies do not count: here PID 1 may never reap them.

import { runningStat } from "../lib/mcp/client/process_group.ts";
import { fileURLToPath } from "node:url";
import { SUITE_MARK } from "./suite_mark.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const suite = Deno.env.get(SUITE_MARK);
const marks = suite === undefined
  ? [
    `${root}servers/`,
    `${root}tests/fixtures/`,
    "npm:@modelcontextprotocol/server-everything",
    `${root}node_modules/@modelcontextprotocol/server-filesystem/`,
    `${root}bench/servers/`,
    "MCP_COURSE_GRANDCHILD=",
  ]
  : [`\0${SUITE_MARK}=${suite}\0`, `\0${SUITE_MARK}=${suite}/`];
const found: string[] = [];
for (const entry of Deno.readDirSync("/proc")) {
  if (!/^\d+$/.test(entry.name) || Number(entry.name) === Deno.pid) continue;
  const state = runningStat(entry.name)?.state;
  if (state === undefined) continue;
  const read = (file: string) => {
    try {
      return Deno.readTextFileSync(`/proc/${entry.name}/${file}`);
    } catch {
      return "";
    }
  };
  const cmdline = read("cmdline");
  const environ = `\0${read("environ")}`;
  if (marks.some((mark) => cmdline.includes(mark) || environ.includes(mark))) {
    found.push(`${entry.name} (${state}): ${cmdline.replaceAll("\0", " ").trim()}`);
  }
}
if (found.length > 0) {
  console.error(`Processes started by the tests are still running:\n  ${found.join("\n  ")}`);
  Deno.exit(1);
}
console.log("No process started by the tests is left running.");
