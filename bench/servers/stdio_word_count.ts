// The teaching server's `word_count` on the library's stdio server (a
// `ServerSession`, which speaks both eras), for row 11 of the benchmark.
//
//     deno run bench/servers/stdio_word_count.ts

import { serveStdio } from "../../lib/mcp/server/stdio_server.ts";
import { WORD_COUNT } from "../../servers/teaching.ts";

await serveStdio({ name: "stdio-word-count", version: "1.0.0", tools: [WORD_COUNT] });
