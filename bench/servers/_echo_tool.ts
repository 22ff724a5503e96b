// The one tool the benchmark's own servers offer.

import type { ServerTool } from "../../servers/_mcp_server.ts";

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
