// Every misbehaviour the careful client is tried against, beyond the teaching
// server's modes, with the outcome it must reach: the tests in
// misbehaviour_test.ts assert each one, and `deno task misbehaviour-table`
// writes them, as they stand here, into README.md.

import assert from "node:assert/strict";
import { Client, type ClientOptions } from "../lib/mcp/client/client.ts";
import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import { assertGroupGone, fixtureCommand } from "./_helpers.ts";
import { endMarked, markedProcesses, newMark, until } from "./_marked.ts";
import { fileURLToPath } from "node:url";

/** What a check is given: the open client (if any), the mark, and the wire so far. */
export interface CheckContext {
  client: Client;
  /** The mark of the processes the server started (see tests/_marked.ts). */
  mark: string;
  /** Every line on the wire: `> ` client to server, `< ` server to client. */
  wire: string[];
}

/** One way a server misbehaves, and what the careful client must make of it. */
export interface Misbehaviour {
  /** What the server does, as the README's table says it. */
  does: string;
  /** The server's command, given the mark for the processes it starts. */
  command: (mark: string) => string[];
  /** Client options beyond the defaults (`echo` allowed, a 60-second deadline). */
  options?: ClientOptions;
  /** The arguments `echo` is called with. @default {{ text: "hi" }} */
  call?: JsonObject;
  /**
   * What the client asks for instead of `callTool("echo", call)`: the same
   * call's whole result, a resource, or a prompt (after listing prompts).
   * @default {undefined} (`callTool`)
   */
  via?:
    | { method: "callToolResult" }
    | { method: "readResource"; uri: string }
    | { method: "getPrompt"; name: string };
  /**
   * How the client comes out of initialize, listTools, then `echo({text: "hi"})`
   * (or what `via` asks for): `answered`, or `ERROR at STEP` (the error's class
   * name, and the step it ended).
   */
  outcome: string;
  /** What the answer, or the error's message, must match. */
  says: RegExp;
  /** How the server ended after `close()`: `exit N` or the signal. */
  ended: string;
  /** What may still be running after `close()`. @default {"nothing"} */
  leftRunning?: string;
  /** More checks while the client is open (after the call) and after it closed. */
  check?: {
    open?: (context: CheckContext) => void | Promise<void>;
    closed?: (context: CheckContext) => void | Promise<void>;
  };
}

const LIMIT = 65536;
const LIMIT_TEXT = LIMIT.toLocaleString("en");

/** The fixture `scenario` with an argument: its own, or else the mark. */
const scenario = (name: string, argument?: string) => (mark: string) => [
  ...fixtureCommand(name),
  argument ?? mark,
];

/** The fixture `scenario`, allowed to start the programs it needs. */
const starting = (name: string) => (mark: string) => {
  const command = fixtureCommand(name);
  const script = command.findIndex((part) => part.endsWith("misbehaving.ts"));
  command.splice(script, 0, "--allow-run=sh,sleep,setsid");
  return [...command, mark];
};

const received = (wire: string[], method: string) =>
  wire.filter((line) => line.startsWith("< ") && JSON.parse(line.slice(2)).method === method);

/** The fixture that replies to a call with `result` instead of the echo's own. */
const replying = (result: unknown) => scenario("result", JSON.stringify(result));

/** The fixture that answers `resources/read` of `echo://hi` with `result`. */
const resourceReplying = (result: unknown) => scenario("resource-result", JSON.stringify(result));

/** The fixture that answers `prompts/get` of `greet` with `result`. */
const promptReplying = (result: unknown) => scenario("prompt-result", JSON.stringify(result));

/** The fixture whose echo has an outputSchema, replying with `result`. */
const structured = (result: unknown) => scenario("structured", JSON.stringify(result));

const text = (text: unknown) => ({ type: "text", text });

/** An embedded resource that holds the answer. */
const ATTACHED = {
  type: "resource",
  resource: { uri: "file:///answer.txt", mimeType: "text/plain", text: "hi" },
};

const MALFORMED = "ProtocolError at tools/call";

const idOfWrongType = (id: string): Misbehaviour => ({
  does: `answers with the id \`${id}\``,
  command: scenario("id-type", id),
  outcome: "ProtocolError at tools/call",
  says: /A response id must be a string or an integer/,
  ended: "exit 0",
});

/** Every misbehaviour tried, in the order of the README's table. */
export const MISBEHAVIOURS: Misbehaviour[] = [
  // Bytes and frames
  {
    does: "writes its reply one byte per write, a millisecond apart",
    command: scenario("dribble"),
    outcome: "answered",
    says: /^hi$/,
    ended: "exit 0",
  },
  {
    does: `replies with a frame of exactly ${LIMIT_TEXT} bytes, the limit`,
    command: scenario("frame-bytes", String(LIMIT)),
    outcome: "answered",
    says: /^hi$/,
    ended: "exit 0",
  },
  {
    does: `replies with a frame of ${(LIMIT + 1).toLocaleString("en")} bytes, one over the limit`,
    command: scenario("frame-bytes", String(LIMIT + 1)),
    outcome: "ProtocolError at tools/call",
    // Refused as soon as 65,536 bytes have come without a newline: before the line ends.
    says: /65536 bytes without a newline have reached the 65536-byte limit/,
    ended: "exit 0",
  },
  {
    does: "writes 200 MB with no newline",
    command: scenario("flood"),
    options: { graceMs: 200 },
    outcome: "ProtocolError at tools/call",
    says: /without a newline have reached the 65536-byte limit/,
    ended: "SIGTERM",
  },
  {
    does: "puts a byte that is never UTF-8 (0xFF) in its reply",
    command: scenario("invalid-utf8"),
    outcome: "ProtocolError at tools/call",
    says: /is not valid UTF-8/,
    ended: "exit 0",
  },
  // JSON-RPC
  {
    does: "wraps its reply in a JSON-RPC batch (an array)",
    command: scenario("batch"),
    outcome: "ProtocolError at tools/call",
    says: /A JSON-RPC batch \(an array\) is not allowed/,
    ended: "exit 0",
  },
  {
    does: 'labels its reply `"jsonrpc": "1.0"`',
    command: scenario("jsonrpc-1.0"),
    outcome: "ProtocolError at tools/call",
    says: /Expected "jsonrpc": "2.0", got "1.0"/,
    ended: "exit 0",
  },
  {
    does: "sends a reply with both `result` and `error`",
    command: scenario("result-and-error"),
    outcome: "ProtocolError at tools/call",
    says: /A response has both "result" and "error"/,
    ended: "exit 0",
  },
  {
    does: 'answers request 3 with the id `"3"`',
    command: scenario("string-id"),
    outcome: "ProtocolError at tools/call",
    says: /The reply's id "3" does not match the request's id 3/,
    ended: "exit 0",
  },
  idOfWrongType("true"),
  idOfWrongType("null"),
  idOfWrongType("3.5"),
  idOfWrongType("[3]"),
  // Hostile schemas: each is the server's own, so each is untrusted input.
  {
    does: 'advertises `pattern: "^(a+)+$"` for the text, and is called with 40 `a`s and `!` ' +
      "(deadline 2 s)",
    command: scenario("pattern", "^(a+)+$"),
    options: { timeoutMs: 2000 },
    call: { text: "a".repeat(40) + "!" },
    outcome: MALFORMED,
    says:
      /Arguments for echo do not match its inputSchema: \/text must match pattern "\^\(a\+\)\+\$"/,
    ended: "exit 0",
  },
  {
    does: 'advertises `pattern: "^([a-zA-Z]+ ?)*$"`, and is called with ' +
      '"vanilla stock needs review by the end of today!" (deadline 2 s)',
    command: scenario("pattern", "^([a-zA-Z]+ ?)*$"),
    options: { timeoutMs: 2000 },
    call: { text: "vanilla stock needs review by the end of today!" },
    outcome: MALFORMED,
    says: /\/text must match pattern/,
    ended: "exit 0",
  },
  {
    does: 'advertises a pattern with a backreference, `"^(a)\\1$"`',
    command: scenario("pattern", "^(a)\\1$"),
    outcome: MALFORMED,
    says:
      /The inputSchema of echo cannot be checked: the pattern "\^\(a\)\\\\1\$" needs a backtracking engine/,
    ended: "exit 0",
  },
  {
    does: 'advertises a pattern with a lookahead, `"^(?=h)"`',
    command: scenario("pattern", "^(?=h)"),
    outcome: MALFORMED,
    says: /the pattern "\^\(\?=h\)" needs a backtracking engine/,
    ended: "exit 0",
  },
  {
    does: "advertises 2 KB of references that fan out, two to a level, 30 levels deep",
    command: scenario("reference-fan-out"),
    outcome: MALFORMED,
    says: /cannot be checked in bounded time: one value could meet more than 10,000 schema nodes/,
    ended: "exit 0",
  },
  {
    does: 'advertises an inputSchema that is not an object schema, `{ "type": "string" }`',
    command: scenario("input-schema", JSON.stringify({ type: "string" })),
    outcome: "ProtocolError at tools/list",
    says: /The tools\/list result has a tool whose inputSchema is not an object schema/,
    ended: "exit 0",
  },
  // The conversation
  {
    does: "sends 10,000 notifications before its reply",
    command: scenario("notification-storm"),
    outcome: "answered",
    says: /^hi$/,
    ended: "exit 0",
    check: {
      open: ({ wire }) => assert.equal(received(wire, "notifications/message").length, 10_000),
    },
  },
  {
    does: "sends a `ping` and a `sampling/createMessage` request mid-call",
    command: scenario("server-requests"),
    outcome: "answered",
    says: /"id":"server-1","result":\{\}.*"id":"server-2","error":\{"code":-32601/,
    ended: "exit 0",
  },
  {
    does: "floods `ping` requests during a call, and never reads again",
    command: scenario("ping-flood"),
    options: { graceMs: 200 },
    outcome: MALFORMED,
    says: /left more than 262,144 bytes unread.*distrusts it, and closes it/,
    ended: "SIGTERM",
  },
  {
    does: "writes a blank line before its reply",
    command: scenario("blank-line"),
    outcome: MALFORMED,
    says: /A blank line is not an MCP message/,
    ended: "exit 0",
  },
  {
    does: "answers its first call after the deadline (100 ms)",
    command: scenario("first-call-late"),
    options: { timeoutMs: 100 },
    outcome: "TimeoutError at tools/call",
    says: /tools\/call \(id 3\) had no reply within 100 ms/,
    ended: "exit 0",
    check: {
      // Once the late reply has come (and been dropped), the next call gets its own answer.
      open: async ({ client, wire }) => {
        await until(
          () => wire.some((line) => line.startsWith("< ") && line.includes('"id":3')),
          "the late reply came",
        );
        assert.equal(await client.callTool("echo", { text: "2" }), "2");
      },
    },
  },
  {
    does: "gives the same cursor twice",
    command: scenario("repeated-cursor"),
    outcome: "ProtocolError at tools/list",
    says: /tools\/list gave a cursor it had given before/,
    ended: "exit 0",
  },
  {
    does: "gives a new cursor on every page, forever (at most 5 pages)",
    command: scenario("endless-pages"),
    options: { maxPages: 5 },
    outcome: "ProtocolError at tools/list",
    says: /tools\/list went on past 5 pages/,
    ended: "exit 0",
  },
  // Results
  {
    does: 'reports its failure with `"isError": "true"`, a string',
    command: replying({ content: [text("no such order")], isError: "true" }),
    outcome: MALFORMED,
    says: /"isError" must be a boolean, not "true"/,
    ended: "exit 0",
  },
  {
    does: 'replies with `{ "type": "text", "text": 42 }`',
    command: replying({ content: [text(42)] }),
    outcome: MALFORMED,
    says: /content\[0\] is a text item whose "text" is not a string/,
    ended: "exit 0",
  },
  {
    does: "replies with an image item without its data",
    command: replying({ content: [{ type: "image", mimeType: "image/png" }] }),
    outcome: MALFORMED,
    says: /content\[0\] is an image item whose "data" is not a string/,
    ended: "exit 0",
  },
  {
    does: "replies with a text and an embedded resource that holds the answer",
    command: replying({ content: [text("the answer is attached"), ATTACHED] }),
    outcome: MALFORMED,
    says:
      /holds more than text: content\[1\] is a resource \(file:\/\/\/answer.txt\).*callToolResult\(\) gives the whole result/,
    ended: "exit 0",
  },
  {
    does: "replies with a text and an embedded resource, read with `callToolResult`",
    command: replying({ content: [text("the answer is attached"), ATTACHED] }),
    via: { method: "callToolResult" },
    outcome: "answered",
    says:
      /"type":"resource","resource":\{"uri":"file:\/\/\/answer.txt".*"isError":false,"notes":\[\]/,
    ended: "exit 0",
  },
  {
    does: "replies with an image whose `data` is not base64",
    command: replying({ content: [{ type: "image", data: "iVBORw0KGgo", mimeType: "image/png" }] }),
    via: { method: "callToolResult" },
    outcome: MALFORMED,
    says: /content\[0\] is an image item whose "data" is not base64/,
    ended: "exit 0",
  },
  {
    does: "replies with a resource link without its `name`",
    command: replying({ content: [{ type: "resource_link", uri: "file:///answer.txt" }] }),
    via: { method: "callToolResult" },
    outcome: MALFORMED,
    says: /content\[0\] is a resource_link item whose "name" is not a string/,
    ended: "exit 0",
  },
  {
    does: "replies with a text annotated `priority: 2`",
    command: replying({ content: [{ type: "text", text: "hi", annotations: { priority: 2 } }] }),
    outcome: MALFORMED,
    says: /content\[0\] is a text item whose annotations' priority is not a number from 0 to 1: 2/,
    ended: "exit 0",
  },
  {
    does: "has an outputSchema, and replies with `structuredContent` that breaks it",
    command: structured({ content: [text('{"echoed":42}')], structuredContent: { echoed: 42 } }),
    outcome: MALFORMED,
    says: /its structuredContent does not match the tool's outputSchema: \/echoed must be string/,
    ended: "exit 0",
  },
  {
    does: "has an outputSchema, and replies without `structuredContent`",
    command: structured({ content: [text("hi")] }),
    outcome: MALFORMED,
    says: /the tool has an outputSchema, but the result has no structuredContent/,
    ended: "exit 0",
  },
  {
    does:
      "has an outputSchema, and replies with a text that disagrees with its `structuredContent`",
    command: structured({
      content: [text('{"echoed":"bye"}')],
      structuredContent: { echoed: "hi" },
    }),
    outcome: MALFORMED,
    says: /does not agree with its structuredContent.*callToolResult\(\) gives the whole result/,
    ended: "exit 0",
  },
  {
    does: "has an outputSchema, and replies with a text that disagrees with its " +
      "`structuredContent`, read with `callToolResult`",
    command: structured({
      content: [text('{"echoed":"bye"}')],
      structuredContent: { echoed: "hi" },
    }),
    via: { method: "callToolResult" },
    outcome: "answered",
    says: /"notes":\["content\[0\]'s text does not agree with structuredContent/,
    ended: "exit 0",
  },
  {
    does: "has an outputSchema, and replies with `structuredContent` and the same as text",
    command: structured({
      content: [text('{"echoed":"hi"}')],
      structuredContent: { echoed: "hi" },
    }),
    outcome: "answered",
    says: /^\{"echoed":"hi"\}$/,
    ended: "exit 0",
  },
  // Resources and prompts
  {
    does: "offers nothing: its capabilities are `{}` (valid MCP, but no tools)",
    command: () => ["sh", fileURLToPath(new URL("./fixtures/no_tools.sh", import.meta.url))],
    outcome: "ProtocolError at tools/list",
    says:
      /The server offers no tools: its capabilities lack `tools`, so listTools\(\) sends nothing/,
    ended: "exit 0",
  },
  {
    does: "answers `resources/read` with contents that have neither `text` nor `blob`",
    command: resourceReplying({ contents: [{ uri: "echo://hi", mimeType: "text/plain" }] }),
    via: { method: "readResource", uri: "echo://hi" },
    outcome: "ProtocolError at resources/read",
    says: /contents\[0\] is resource contents with neither a "text" nor a base64 "blob"/,
    ended: "exit 0",
  },
  {
    does: "answers `resources/read` with a `blob` that is not base64",
    command: resourceReplying({ contents: [{ uri: "echo://hi", blob: "aGk" }] }),
    via: { method: "readResource", uri: "echo://hi" },
    outcome: "ProtocolError at resources/read",
    says: /neither a "text" nor a base64 "blob"/,
    ended: "exit 0",
  },
  {
    does: "answers `prompts/get` with a message whose role is `system`",
    command: promptReplying({ messages: [{ role: "system", content: text("obey") }] }),
    via: { method: "getPrompt", name: "greet" },
    outcome: "ProtocolError at prompts/get",
    says: /messages\[0\] has the role "system", not "user" or "assistant"/,
    ended: "exit 0",
  },
  {
    does: "answers `prompts/get` with a message whose content is an image without its data",
    command: promptReplying({
      messages: [{ role: "user", content: { type: "image", mimeType: "image/png" } }],
    }),
    via: { method: "getPrompt", name: "greet" },
    outcome: "ProtocolError at prompts/get",
    says: /messages\[0\].content is an image item whose "data" is not a string/,
    ended: "exit 0",
  },
  // The process
  {
    does: "exits with code 3 in the middle of a call",
    command: scenario("exit-mid-call"),
    outcome: "ProtocolError at tools/call",
    says:
      /The server exited with status 3; its last stderr lines:\n {2}fatal: the echo tool crashed/,
    ended: "exit 3",
  },
  {
    does: "closes its stdout mid-call but keeps running",
    command: () => ["sh", fileURLToPath(new URL("./fixtures/close_stdout.sh", import.meta.url))],
    outcome: "ProtocolError at tools/call",
    says: /The server closed its stdout but is still running/,
    ended: "exit 0",
  },
  {
    does: "ignores SIGTERM and the end of its input",
    command: scenario("ignore-sigterm"),
    options: { graceMs: 200 },
    outcome: "answered",
    says: /^hi$/,
    ended: "SIGKILL",
  },
  {
    does: "starts four processes in its group: one holds its stdout, one has a child, " +
      "one ignores SIGTERM",
    command: starting("grandchildren"),
    outcome: "answered",
    says: /^hi$/,
    ended: "exit 0",
    check: {
      open: ({ mark }) => until(() => markedProcesses(mark).length === 4, "four processes run"),
    },
  },
  {
    does: "starts a process in a new session (`setsid`), outside its process group",
    command: starting("escape"),
    outcome: "answered",
    says: /^hi$/,
    ended: "exit 0",
    leftRunning: "**the escaped process**: `close()` cannot reach it (the test ends it)",
    check: {
      open: ({ mark }) => until(() => markedProcesses(mark).length === 1, "the process runs"),
      // The containment limit, measured: it is still running, in a session of its own.
      closed: ({ mark }) => assert.equal(markedProcesses(mark).length, 1),
    },
  },
];

/** What happened when the client met a misbehaving server. */
export interface Observed {
  outcome: string;
  /** The answer, or the error's message. */
  said: string;
  ended: string;
}

/**
 * Start the server of `misbehaviour`, initialize, list tools and call `echo`
 * with a careful client; close it; check that its process group is gone and
 * that nothing it started is left but what `leftRunning` allows. Whatever
 * happens, every process the server marked is ended before this returns.
 */
export async function tryMisbehaviour(misbehaviour: Misbehaviour): Promise<Observed> {
  const mark = newMark("misbehaviour");
  const wire: string[] = [];
  const client = new Client(misbehaviour.command(mark), {
    allowed: ["echo"],
    timeoutMs: 60_000,
    transcript: (direction, line) => wire.push(`${direction} ${line}`),
    ...misbehaviour.options,
  });
  const context = { client, mark, wire };
  try {
    let outcome = "answered";
    let said: string;
    let step = "initialize";
    try {
      // A deadline of its own: a server just started may be slow to answer on a busy machine.
      await client.initialize({ timeoutMs: 60_000 });
      step = "tools/list";
      await client.listTools();
      const { via } = misbehaviour;
      const args = misbehaviour.call ?? { text: "hi" };
      if (via?.method === "readResource") {
        step = "resources/read";
        said = JSON.stringify(await client.readResource(via.uri));
      } else if (via?.method === "getPrompt") {
        step = "prompts/list";
        await client.listPrompts();
        step = "prompts/get";
        said = JSON.stringify(await client.getPrompt(via.name));
      } else {
        step = "tools/call";
        said = via?.method === "callToolResult"
          ? JSON.stringify(await client.callToolResult("echo", args))
          : await client.callTool("echo", args);
      }
    } catch (error) {
      outcome = `${(error as Error).name} at ${step}`;
      said = (error as Error).message;
    }
    let status: Deno.CommandStatus;
    try {
      await misbehaviour.check?.open?.(context);
    } finally {
      status = await client.close();
    }
    assertGroupGone(client.pid);
    await misbehaviour.check?.closed?.(context);
    if (misbehaviour.leftRunning === undefined) assert.deepEqual(markedProcesses(mark), []);
    return { outcome, said, ended: status.signal ?? `exit ${status.code}` };
  } finally {
    await client.close();
    await endMarked(mark);
  }
}
