// A server for the close benchmark: well behaved, or deaf to the end of its
// input, or to SIGTERM as well. Each starts a helper process first (a
// grandchild of the client), as servers started through a wrapper do; the
// helper holds the server's stdout and stderr, and sleeps.
//
//     deno run --no-config --allow-run=sleep bench/servers/close.ts healthy|ignore-stdin-end|ignore-sigterm

import { serve, writeStderr } from "../../servers/_mcp_server.ts";
import { ECHO } from "../../servers/_echo_tool.ts";

const BEHAVIOURS = ["healthy", "ignore-stdin-end", "ignore-sigterm"];
const behaviour = Deno.args[0];
if (!BEHAVIOURS.includes(behaviour)) {
  writeStderr(`close server: unknown behaviour ${behaviour}; known: ${BEHAVIOURS.join(", ")}\n`);
  Deno.exit(2);
}

new Deno.Command("sleep", {
  args: ["300"],
  // The mark tools/leftovers.ts looks for, should anything fail to end it.
  env: { MCP_COURSE_GRANDCHILD: "bench/servers/close.ts" },
  stdin: "null",
  stdout: "inherit",
  stderr: "inherit",
}).spawn().unref();

if (behaviour === "ignore-sigterm") Deno.addSignalListener("SIGTERM", () => {});

serve({
  name: "bench-close",
  version: "1.0.0",
  tools: [ECHO],
  onEnd: behaviour === "healthy" ? undefined : () => setInterval(() => {}, 60_000),
});
