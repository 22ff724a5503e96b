// Run after the tests: fail if any process they started is still running. It
// looks for the course's servers (bubblewrap's and prlimit's around them too),
// the test fixtures, the benchmark's servers and the published servers the
// interop tests and Chapter 15 start by their command line, and
// for grandchildren by the mark in their environment.
// Zombies do not count: here PID 1 may never reap them.

import { readStat } from "../lib/mcp/client/process_group.ts";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const marks = [
  `${root}servers/`,
  `${root}tests/fixtures/`,
  "npm:@modelcontextprotocol/server-everything",
  `${root}node_modules/@modelcontextprotocol/server-filesystem/`,
  `${root}bench/servers/`,
  "MCP_COURSE_GRANDCHILD=",
];
const found: string[] = [];
for (const entry of Deno.readDirSync("/proc")) {
  if (!/^\d+$/.test(entry.name) || Number(entry.name) === Deno.pid) continue;
  const state = readStat(entry.name)?.state;
  if (state === undefined || state === "Z" || state === "X") continue;
  const read = (file: string) => {
    try {
      return Deno.readTextFileSync(`/proc/${entry.name}/${file}`);
    } catch {
      return "";
    }
  };
  const cmdline = read("cmdline");
  if (marks.some((mark) => cmdline.includes(mark) || read("environ").includes(mark))) {
    found.push(`${entry.name} (${state}): ${cmdline.replaceAll("\0", " ").trim()}`);
  }
}
if (found.length > 0) {
  console.error(`Processes started by the tests are still running:\n  ${found.join("\n  ")}`);
  Deno.exit(1);
}
console.log("No process started by the tests is left running.");
