// The teaching server's `word_count` over the course's Streamable HTTP server,
// for rows 8, 9 and 11 of the benchmark (a dual-era server: row 11 speaks
// 2026-07-28 with it), with one more tool for row 9:
// `heap({})` collects garbage and answers this process's heap in use and its
// open sessions, as JSON. It prints its URL on stderr.
//
//     deno run --allow-net=127.0.0.1 --v8-flags=--expose-gc bench/servers/http_word_count.ts

import { serveHttp } from "../../lib/mcp/server/http_server.ts";
import { WORD_COUNT } from "../../servers/teaching.ts";

const gc = (globalThis as { gc?: () => void }).gc;
const server = serveHttp({
  name: "http-word-count",
  version: "1.0.0",
  tools: [
    WORD_COUNT,
    {
      name: "heap",
      description: "Collect garbage, then give the heap in use and the sessions open.",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      call: () => {
        for (let i = 0; i < 3; i++) gc?.();
        const { heapUsed } = Deno.memoryUsage();
        return { text: JSON.stringify({ heapUsed, sessions: server.sessions }) };
      },
    },
  ],
}, { maxSessions: 5000 });
console.error(`listening on ${server.url.href}`);
