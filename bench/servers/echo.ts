// The minimal echo server the round-trip benchmark measures the pipe with: one
// tool, `echo({text})`, served by the same synchronous loop as the course's own
// servers, and nothing else (no log, no modes).
//
//     deno run --no-config bench/servers/echo.ts

import { serve } from "../../servers/_mcp_server.ts";
import { ECHO } from "../../servers/_echo_tool.ts";

serve({ name: "bench-echo", version: "1.0.0", tools: [ECHO] });
