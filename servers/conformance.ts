/**
 * The fixture server the official conformance suite's server scenarios call
 * (`@modelcontextprotocol/conformance`, at 2025-06-18, 2025-11-25 and
 * 2026-07-28), over
 * Streamable HTTP at `http://127.0.0.1:PORT/mcp`, built on the course's
 * server library (`lib/mcp/server/`), so that passing the suite proves the
 * library: the tools named `test_*` (session tools: they log, report
 * progress and ask the client), the `test://` resources and template and the
 * `test_*` prompts (the library's own resources and prompts), logging
 * levels, subscriptions and completion.
 *
 *     deno run --allow-net=127.0.0.1 servers/conformance.ts --port PORT
 *
 * @module
 */

import { parseArgs } from "node:util";
import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import { serveHttp } from "../lib/mcp/server/http_server.ts";
import { TOOLS_2025_11_25 } from "./_conformance_2025_11_25.ts";
import { promptsWithQuestion, tools20260728 } from "./_conformance_2026_07_28.ts";
import { ChangeFeed } from "../lib/mcp/server/change_feed.ts";
import type { ServerPrompt } from "../lib/mcp/server/prompt.ts";
import {
  readResult,
  type ServerResource,
  type ServerResourceTemplate,
} from "../lib/mcp/server/resource.ts";
import {
  type RequestContext,
  RpcError,
  type SessionSpec,
  type SessionTool,
} from "../lib/mcp/server/session_spec.ts";

/** A 1×1 red PNG, as base64. */
export const RED_PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** A WAV file of 8 silent samples (8 kHz, 8-bit, mono), as base64. */
export const SILENT_WAV = (() => {
  const samples = 8;
  const bytes = new Uint8Array(44 + samples);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, text: string) =>
    [...text].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  ascii(0, "RIFF");
  view.setUint32(4, 36 + samples, true);
  ascii(8, "WAVEfmt ");
  view.setUint32(16, 16, true); // the fmt chunk's size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, 8000, true); // samples a second
  view.setUint32(28, 8000, true); // bytes a second
  view.setUint16(32, 1, true); // bytes a frame
  view.setUint16(34, 8, true); // bits a sample
  ascii(36, "data");
  view.setUint32(40, samples, true);
  bytes.fill(128, 44); // silence, for unsigned 8-bit samples
  return btoa(String.fromCharCode(...bytes));
})();

const NO_ARGUMENTS = { type: "object", properties: {} };
const text = (value: string) => ({ type: "text" as const, text: value });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One argument of type string, required. */
function oneString(name: string, description: string): JsonObject {
  return {
    type: "object",
    properties: { [name]: { type: "string", description } },
    required: [name],
  };
}

/** A tool that takes no arguments and always answers `content`. */
function fixed(name: string, description: string, content: JsonObject[]): SessionTool {
  return {
    name,
    description,
    inputSchema: NO_ARGUMENTS,
    run: () => ({ content, isError: false }),
  };
}

/** Ask the client, if it said it can answer; a tool error otherwise. */
async function askClient(
  context: RequestContext,
  capability: string,
  method: string,
  params: JsonObject,
): Promise<JsonObject> {
  if (!(capability in context.clientCapabilities)) {
    return {
      content: [text(`The client did not declare the ${capability} capability`)],
      isError: true,
    };
  }
  const answer = await context.request(method, params);
  return { content: [text(JSON.stringify(answer))], isError: false };
}

const TOOLS: SessionTool[] = [
  fixed("test_simple_text", "Answers with one text.", [
    text("This is a simple text response for testing."),
  ]),
  fixed("test_image_content", "Answers with an image (a red pixel).", [
    { type: "image", data: RED_PIXEL, mimeType: "image/png" },
  ]),
  fixed("test_audio_content", "Answers with audio (a moment of silence).", [
    { type: "audio", data: SILENT_WAV, mimeType: "audio/wav" },
  ]),
  fixed("test_embedded_resource", "Answers with an embedded resource.", [
    {
      type: "resource",
      resource: {
        uri: "test://embedded-resource",
        mimeType: "text/plain",
        text: "This is an embedded resource content.",
      },
    },
  ]),
  fixed("test_multiple_content_types", "Answers with text, an image and a resource.", [
    text("Multiple content types test:"),
    { type: "image", data: RED_PIXEL, mimeType: "image/png" },
    {
      type: "resource",
      resource: {
        uri: "test://mixed-content-resource",
        mimeType: "application/json",
        text: JSON.stringify({ test: "data", value: 123 }),
      },
    },
  ]),
  {
    name: "test_tool_with_logging",
    description: "Sends three log notifications while it runs.",
    inputSchema: NO_ARGUMENTS,
    run: async (_args, context) => {
      context.log("info", "Tool execution started", "conformance");
      await sleep(50);
      context.log("info", "Tool processing data", "conformance");
      await sleep(50);
      context.log("info", "Tool execution completed", "conformance");
      return { content: [text("Logging test completed")], isError: false };
    },
  },
  {
    name: "test_error_handling",
    description: "Always reports a failure, as a tool error.",
    inputSchema: NO_ARGUMENTS,
    run: () => ({
      content: [text("This tool intentionally returns an error for testing")],
      isError: true,
    }),
  },
  {
    name: "test_tool_with_progress",
    description: "Reports progress 0, 50 and 100 of 100 while it runs.",
    inputSchema: NO_ARGUMENTS,
    run: async (_args, context) => {
      for (const step of [0, 50, 100]) {
        context.progress(step, 100, `step ${step}`);
        if (step < 100) await sleep(50);
      }
      return { content: [text("Progress test completed")], isError: false };
    },
  },
  {
    name: "test_sampling",
    description: "Asks the client's model (sampling/createMessage) to answer a prompt.",
    inputSchema: oneString("prompt", "The prompt to send to the model"),
    run: async ({ prompt }, context) => {
      const answer = await askClient(context, "sampling", "sampling/createMessage", {
        messages: [{ role: "user", content: text(String(prompt)) }],
        maxTokens: 100,
      });
      if (answer.isError === true) return answer;
      const said = JSON.parse((answer.content as { text: string }[])[0].text);
      return {
        content: [text(`LLM response: ${said?.content?.text ?? JSON.stringify(said)}`)],
        isError: false,
      };
    },
  },
  {
    name: "test_elicitation",
    description: "Asks the user (elicitation/create) for a name and an email address.",
    inputSchema: oneString("message", "The message to show the user"),
    run: async ({ message }, context) => {
      const answer = await askClient(context, "elicitation", "elicitation/create", {
        message,
        requestedSchema: {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          required: ["username", "email"],
        },
      });
      if (answer.isError === true) return answer;
      const [{ text: said }] = answer.content as { text: string }[];
      return { content: [text(`User response: ${said}`)], isError: false };
    },
  },
];

/** A red pixel's bytes, for the binary resource. */
const RED_PIXEL_BYTES = Uint8Array.from(atob(RED_PIXEL), (c) => c.charCodeAt(0));

/** The direct resources. */
const RESOURCES: ServerResource[] = [
  {
    uri: "test://static-text",
    name: "static-text",
    description: "A static text resource",
    mimeType: "text/plain",
    read: () => ({ text: "This is the content of the static text resource." }),
  },
  {
    uri: "test://static-binary",
    name: "static-binary",
    description: "A static image (a red pixel)",
    mimeType: "image/png",
    read: () => ({ bytes: RED_PIXEL_BYTES }),
  },
  {
    uri: "test://watched-resource",
    name: "watched-resource",
    description: "A resource to subscribe to",
    mimeType: "text/plain",
    read: () => ({ text: "Watched resource content." }),
  },
];

/** The resource template: data for any id. */
const TEMPLATES: ServerResourceTemplate[] = [{
  uriTemplate: "test://template/{id}/data",
  name: "template",
  description: "Data for an id",
  mimeType: "application/json",
  read: ({ id }) => ({
    text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
  }),
}];

/** Refuse a subscription to a resource this server does not have. */
function subscribable(uri: unknown): JsonObject {
  if (
    typeof uri !== "string" ||
    readResult({ resources: RESOURCES, resourceTemplates: TEMPLATES }, uri) === undefined
  ) {
    throw new RpcError(-32002, `Resource not found: ${uri}`, { uri });
  }
  return {};
}

/** The prompts. */
const PROMPTS: ServerPrompt[] = [
  {
    name: "test_simple_prompt",
    description: "A prompt without arguments",
    get: () => ({
      messages: [{ role: "user", content: text("This is a simple prompt for testing.") }],
    }),
  },
  {
    name: "test_prompt_with_arguments",
    description: "A prompt with two arguments",
    arguments: [
      { name: "arg1", description: "First test argument", required: true },
      { name: "arg2", description: "Second test argument", required: true },
    ],
    get: ({ arg1, arg2 }) => ({
      messages: [{
        role: "user",
        content: text(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`),
      }],
    }),
  },
  {
    name: "test_prompt_with_embedded_resource",
    description: "A prompt that embeds a resource",
    arguments: [{ name: "resourceUri", description: "The resource to embed", required: true }],
    get: ({ resourceUri }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "resource",
            resource: {
              uri: resourceUri,
              mimeType: "text/plain",
              text: "Embedded resource content for testing.",
            },
          },
        },
        { role: "user", content: text("Please process the embedded resource above.") },
      ],
    }),
  },
  {
    name: "test_prompt_with_image",
    description: "A prompt with an image",
    get: () => ({
      messages: [
        { role: "user", content: { type: "image", data: RED_PIXEL, mimeType: "image/png" } },
        { role: "user", content: text("Please analyze the image above.") },
      ],
    }),
  },
];

/** Values a completion may suggest, by argument name. */
const COMPLETIONS: Record<string, string[]> = {
  arg1: ["paris", "park", "party", "test", "testing"],
  arg2: ["world", "word"],
  id: ["123", "456"],
};

/** What changes on the conformance server: the lists its 2026-07-28 tools say changed. */
const CHANGES = new ChangeFeed();

/** The conformance fixture server, as a session spec. */
export const CONFORMANCE_SERVER: SessionSpec = {
  name: "course-conformance",
  version: "1.0.0",
  tools: [],
  sessionTools: [...TOOLS, ...TOOLS_2025_11_25, ...tools20260728(CHANGES)],
  changes: CHANGES,
  capabilities: {
    resources: { subscribe: true, listChanged: false },
    prompts: { listChanged: false },
    logging: {},
    completions: {},
  },
  resources: RESOURCES,
  resourceTemplates: TEMPLATES,
  prompts: PROMPTS,
  handlers: {
    "prompts/get": promptsWithQuestion(PROMPTS),
    // Nothing here ever changes, so a subscription has nothing to send.
    "resources/subscribe": ({ uri }) => subscribable(uri),
    "resources/unsubscribe": ({ uri }) => subscribable(uri),
    "completion/complete": ({ argument }) => {
      const { name, value } = (argument ?? {}) as { name?: unknown; value?: unknown };
      const values =
        (typeof name === "string" && Object.hasOwn(COMPLETIONS, name) ? COMPLETIONS[name] : [])
          .filter((candidate) => candidate.startsWith(typeof value === "string" ? value : ""));
      return { completion: { values, total: values.length, hasMore: false } };
    },
  },
};

if (import.meta.main) {
  const { values } = parseArgs({ options: { port: { type: "string", default: "0" } } });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`conformance server: --port must be a port number, not ${values.port}`);
    Deno.exit(2);
  }
  const server = serveHttp(CONFORMANCE_SERVER, { port });
  console.error(`conformance server: listening on ${server.url.href}`);
  Deno.addSignalListener("SIGTERM", () => void server.close().then(() => Deno.exit(0)));
}
