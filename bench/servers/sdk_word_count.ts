// The teaching server's `word_count`, built the way the official TypeScript SDK
// teaches: an `McpServer` with a zod input schema over `StdioServerTransport`.
// The round-trip benchmark measures the SDK's client against it.
//
//     deno run bench/servers/sdk_word_count.ts

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "sdk-word-count", version: "1.0.0" });
server.registerTool(
  "word_count",
  {
    description: "Count the words in a text.",
    inputSchema: { text: z.string().describe("The text whose words to count.") },
  },
  ({ text }: { text: string }) => ({
    content: [{
      type: "text",
      text: String(text.split(/\s+/).filter((word) => word !== "").length),
    }],
  }),
);
await server.connect(new StdioServerTransport());
