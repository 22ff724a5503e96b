// `echo`, the one tool of the benchmark's servers and the tests' misbehaving fixtures.

import type { ServerTool } from "./_mcp_server.ts";

/** `echo({text})`: returns the text it is given. */
export const ECHO: ServerTool = {
  name: "echo",
  description: "Return the text it is given.",
  inputSchema: {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
    additionalProperties: false,
  },
  call: ({ text }) => ({ text: String(text) }),
};
