// Every tool, resource and prompt of the three published servers the course
// is tried against (server-everything, server-memory, server-filesystem, at
// the versions deno.json pins), each call with the outcome the careful
// client must reach and the one the official SDK's client reaches, and, where
// they differ, why. tests/interop_published_test.ts runs both clients through
// every step and asserts each outcome; `deno task misbehaviour-table` writes
// the steps, as they stand here, into README.md.

import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import { everythingCommand, filesystemCommand, memoryCommand } from "./_interop.ts";

/**
 * How a client comes out of a call: with the server's answer (a tool's may
 * report its own failure with `isError`), or refused, by the client before
 * anything was sent or after the server's reply.
 */
export type Outcome = "answered" | "answered with isError" | "refused before sending" | "refused";

/** One request: a tool called with arguments, a resource read, a prompt got with arguments. */
export type Call =
  | { tool: string; args: JsonObject }
  | { read: string }
  | { prompt: string; args: Record<string, string> };

/** One step, the same for both clients, and what each must make of it. */
export interface PeerStep {
  call: Call;
  /** The careful client's outcome, through `callToolResult`, `readResource` or `getPrompt`. */
  course: Outcome;
  /** What the careful client's error says, when it refuses. */
  says?: RegExp;
  /** For a tool that answered: what `callTool` makes of the same result, `text` or the error's class. */
  text?: "text" | "ToolError" | "ProtocolError";
  /** The SDK's client's outcome, through `callTool`, `readResource` or `getPrompt`. */
  sdk: Outcome;
  /** Why only the kinds of the two answers are compared, not their values (a clock in them). */
  varies?: string;
  /** Why the two clients' outcomes differ, when they do. */
  why?: string;
}

/** A published server, how to start a fresh one, and its steps in order. */
export interface PublishedServer {
  name: string;
  /** The server started in `folder`, a new empty folder of its own (`$ROOT` in the steps). */
  start(folder: string): { command: string[]; env?: Record<string, string> };
  /** What goes into each server's folder before it starts. */
  prepare?(folder: string): Promise<void>;
  steps: PeerStep[];
}

const tool = (name: string, args: JsonObject = {}) => ({ tool: name, args });
const prompt = (name: string, args: Record<string, string> = {}) => ({ prompt: name, args });

/** A step both clients answer alike; a text answer unless `text` says otherwise. */
const same = (call: Call, more: Partial<PeerStep> = {}): PeerStep => ({
  call,
  course: "answered",
  sdk: "answered",
  ...("tool" in call ? { text: "text" as const } : {}),
  ...more,
});

/** A step whose answer is more than text: whole from `callToolResult`, refused by `callTool`. */
const whole = (call: Call, more: Partial<PeerStep> = {}) =>
  same(call, { text: "ProtocolError", ...more });

/** A tool's own failure, which both clients take as the answer it is. */
const failed = (call: Call): PeerStep => ({
  call,
  course: "answered with isError",
  text: "ToolError",
  sdk: "answered with isError",
});

const CLOCK = "a time of day, which moves between the two servers' answers";

const DOCUMENTS = [
  "architecture.md",
  "extension.md",
  "features.md",
  "how-it-works.md",
  "instructions.md",
  "startup.md",
  "structure.md",
];

const EVERYTHING: PublishedServer = {
  name: "everything",
  start: () => ({ command: everythingCommand() }),
  steps: [
    same(tool("echo", { message: "vanilla stock needs review" })),
    same(tool("get-sum", { a: 2, b: 3 })),
    same(tool("get-structured-content", { location: "Chicago" })),
    whole(tool("get-annotated-message", { messageType: "error", includeImage: true })),
    whole(tool("get-tiny-image")),
    whole(tool("get-resource-links", { count: 2 })),
    whole(tool("get-resource-reference", { resourceType: "Text", resourceId: 1 }), {
      varies: CLOCK,
    }),
    whole(tool("get-resource-reference", { resourceType: "Blob", resourceId: 2 }), {
      varies: CLOCK,
    }),
    whole(tool("gzip-file-as-resource", { name: "hi.gz", data: "data:text/plain;base64,aGk=" })),
    whole(tool("gzip-file-as-resource", {
      name: "inline.gz",
      data: "data:text/plain;base64,aGk=",
      outputType: "resource",
    })),
    failed(tool("get-env")),
    same(tool("toggle-simulated-logging")),
    same(tool("toggle-subscriber-updates")),
    same(tool("trigger-long-running-operation", { duration: 1, steps: 2 })),
    // The tool asks for a task (2025-11-25's `execution.taskSupport: required`), which neither
    // client offers: both refuse to call it plainly (the careful client used to send the call
    // and report the server's tool error, before issue 39).
    {
      call: tool("simulate-research-query", { topic: "MCP" }),
      course: "refused before sending",
      says: /simulate-research-query requires task-augmented execution .* not called plainly/,
      sdk: "refused before sending",
    },
    ...DOCUMENTS.map((name) => same({ read: `demo://resource/static/document/${name}` })),
    same({ read: "demo://resource/dynamic/text/1" }, { varies: CLOCK }),
    same({ read: "demo://resource/dynamic/blob/2" }, { varies: CLOCK }),
    same({ read: "demo://resource/session/hi.gz" }),
    same(prompt("simple-prompt")),
    same(prompt("args-prompt", { city: "Austin" })),
    same(prompt("args-prompt", { city: "Austin", state: "Texas" })),
    same(prompt("completable-prompt", { department: "Engineering", name: "Alice" })),
    same(prompt("resource-prompt", { resourceType: "Text", resourceId: "1" }), { varies: CLOCK }),
    same(prompt("resource-prompt", { resourceType: "Blob", resourceId: "2" }), { varies: CLOCK }),
    // Refusals, each in a session of its own: a refused reply ends the careful client's.
    {
      call: tool("get-sum", { a: "2", b: 3 }),
      course: "refused before sending",
      says: /Arguments for get-sum do not match its inputSchema: \/a must be number/,
      sdk: "answered with isError",
      why: "the careful client checks arguments against the advertised inputSchema before " +
        "sending; the SDK's client sends them, and the server's own check answers with a tool " +
        "error: the same verdict, one round trip later",
    },
    {
      call: tool("no-such-tool"),
      course: "refused before sending",
      says: /has not advertised a tool named "no-such-tool"/,
      sdk: "answered with isError",
      why: "the careful client never sends a call to a tool the server has not advertised; the " +
        "SDK's client sends it, and the server answers with a tool error (\"Tool no-such-tool " +
        'not found"), which the SDK takes as the answer',
    },
    {
      call: prompt("args-prompt"),
      course: "refused before sending",
      says: /do not match its declared arguments: missing city/,
      sdk: "refused",
      why: "the careful client checks a prompt's required arguments before sending; the SDK's " +
        "client sends the request, and the server refuses it with a JSON-RPC error",
    },
    {
      call: { read: "demo://resource/dynamic/text/0" },
      course: "refused",
      says: /Unknown resource/,
      sdk: "refused",
    },
  ],
};

const ENTITIES = [
  { name: "Ada", entityType: "person", observations: ["wrote the first program"] },
  { name: "Analytical Engine", entityType: "machine", observations: [] },
];
const RELATION = { from: "Ada", to: "Analytical Engine", relationType: "programmed" };

const MEMORY: PublishedServer = {
  name: "memory",
  start: memoryCommand,
  steps: [
    same(tool("create_entities", { entities: ENTITIES })),
    same(tool("create_relations", { relations: [RELATION] })),
    same(tool("add_observations", {
      observations: [{ entityName: "Ada", contents: ["born in 1815"] }],
    })),
    same(tool("read_graph")),
    same(tool("search_nodes", { query: "Engine" })),
    same(tool("open_nodes", { names: ["Ada"] })),
    same({ read: "memory://knowledge-graph" }),
    same(tool("delete_observations", {
      deletions: [{ entityName: "Ada", observations: ["born in 1815"] }],
    })),
    same(tool("delete_relations", { relations: [RELATION] })),
    same(tool("delete_entities", { entityNames: ["Analytical Engine"] })),
    failed(tool("add_observations", {
      observations: [{ entityName: "Babbage", contents: ["designed the engine"] }],
    })),
  ],
};

/** A PNG of one pixel, a WAV file's first bytes, and three bytes that are neither. */
const PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==";
const WAV = "UklGRiQAAABXQVZFZm10IA==";

const decode = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

const FILESYSTEM: PublishedServer = {
  name: "filesystem",
  start: (folder) => ({ command: filesystemCommand(folder) }),
  async prepare(folder) {
    await Deno.writeTextFile(`${folder}/a.txt`, "first line\nsecond line\n");
    await Deno.writeFile(`${folder}/dot.png`, decode(PIXEL));
    await Deno.writeFile(`${folder}/beep.wav`, decode(WAV));
    await Deno.writeFile(`${folder}/data.bin`, Uint8Array.of(0, 1, 2));
    await Deno.mkdir(`${folder}/notes`);
    await Deno.writeTextFile(`${folder}/notes/todo.md`, "buy milk\n");
  },
  steps: [
    same(tool("list_allowed_directories")),
    same(tool("read_file", { path: "$ROOT/a.txt" })),
    same(tool("read_text_file", { path: "$ROOT/a.txt", head: 1 })),
    whole(tool("read_media_file", { path: "$ROOT/dot.png" })),
    whole(tool("read_media_file", { path: "$ROOT/beep.wav" })),
    whole(tool("read_media_file", { path: "$ROOT/data.bin" })),
    same(tool("read_multiple_files", { paths: ["$ROOT/a.txt", "$ROOT/notes/todo.md"] })),
    same(tool("write_file", { path: "$ROOT/b.txt", content: "hello" })),
    same(tool("edit_file", { path: "$ROOT/b.txt", edits: [{ oldText: "hello", newText: "bye" }] })),
    same(tool("create_directory", { path: "$ROOT/more" })),
    same(tool("list_directory", { path: "$ROOT" })),
    same(tool("list_directory_with_sizes", { path: "$ROOT" })),
    same(tool("directory_tree", { path: "$ROOT" })),
    same(tool("move_file", { source: "$ROOT/b.txt", destination: "$ROOT/more/b.txt" })),
    same(tool("search_files", { path: "$ROOT", pattern: "**/*.md" })),
    same(tool("get_file_info", { path: "$ROOT/a.txt" }), {
      varies: "the file's times, which differ between the two servers' folders",
    }),
    failed(tool("read_text_file", { path: "/etc/hostname" })),
  ],
};

/** The three published servers, in the order of the README's table. */
export const PUBLISHED_SERVERS: PublishedServer[] = [EVERYTHING, MEMORY, FILESYSTEM];

/** A call as the README's table says it: `tools/call echo {"message":"hi"}`. */
export function describeCall(call: Call): string {
  if ("tool" in call) return `tools/call ${call.tool} ${JSON.stringify(call.args)}`;
  if ("read" in call) return `resources/read ${call.read}`;
  return `prompts/get ${call.prompt} ${JSON.stringify(call.args)}`;
}
