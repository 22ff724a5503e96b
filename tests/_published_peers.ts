// Run the steps of a published server (tests/published_servers.ts) with the
// careful client and the official SDK's client side by side: each client
// gets a server of its own, started the same way in a folder of its own, and
// makes the same calls in the same order. What each made of each call is
// observed, never assumed; comparing is the test's business.

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { isDeepStrictEqual } from "node:util";
import { Client } from "../lib/mcp/client/client.ts";
import { toolText } from "../lib/mcp/client/tool_text.ts";
import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import { assertGroupGone, assertProcessGone } from "./_helpers.ts";
import type { Call, Outcome, PeerStep, PublishedServer } from "./published_servers.ts";

/** What the two clients made of one step. */
export interface Observed {
  step: PeerStep;
  course: Outcome;
  /** The careful client's error message, when it refused. */
  said?: string;
  /** What `callTool` makes of the careful client's result: `text`, or the error's class. */
  text?: string;
  sdk: Outcome;
  /** The SDK's client's error message, when it refused. */
  sdkSaid?: string;
  /** When both answered: where their answers differ (`undefined` when they agree). */
  mismatch?: string;
}

/** What each session listed: the names of tools and prompts, and the URIs of resources and templates. */
export interface Listed {
  tools: Set<string>;
  resources: Set<string>;
  templates: Set<string>;
  prompts: Set<string>;
  /** Where the two clients' lists differ, one line each. */
  differences: string[];
}

/** Both clients, each with its server, its folder and a way to tell what it has sent. */
interface Session {
  course: Client;
  courseWire: string[];
  sdk: SdkClient;
  sdkSent: number;
  sdkPid: number | null;
  courseRoot: string;
  sdkRoot: string;
}

/**
 * Run every step of `server` with both clients. A fresh pair of servers is
 * started at first, and again after each step the careful client refused
 * after sending (a refused reply ends its connection); every server is
 * closed before this returns.
 */
export async function runPeers(
  server: PublishedServer,
): Promise<{ observed: Observed[]; listed: Listed }> {
  const listed: Listed = {
    tools: new Set(),
    resources: new Set(),
    templates: new Set(),
    prompts: new Set(),
    differences: [],
  };
  const observed: Observed[] = [];
  let session: Session | undefined;
  try {
    for (const step of server.steps) {
      session ??= await open(server, listed);
      const seen = await run(session, step);
      observed.push(seen);
      if (seen.course === "refused") {
        await close(session);
        session = undefined;
      }
    }
  } finally {
    if (session !== undefined) await close(session);
  }
  return { observed, listed };
}

async function open(server: PublishedServer, listed: Listed): Promise<Session> {
  const courseRoot = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcp-peer-course-" }));
  const sdkRoot = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcp-peer-sdk-" }));
  for (const root of [courseRoot, sdkRoot]) await server.prepare?.(root);
  const allowed = server.steps.flatMap(({ call }) => "tool" in call ? [call.tool] : []);
  const courseStart = server.start(courseRoot);
  const courseWire: string[] = [];
  const course = new Client(courseStart.command, {
    allowed,
    timeoutMs: 60_000,
    env: courseStart.env,
    transcript: (direction, line) => direction === ">" && courseWire.push(line),
  });
  const sdkStart = server.start(sdkRoot);
  const [program, ...args] = sdkStart.command;
  const transport = new StdioClientTransport({
    command: program,
    args,
    env: sdkStart.env,
    stderr: "pipe",
  });
  const session: Session = {
    course,
    courseWire,
    sdk: new SdkClient({ name: "sdk-peer-test", version: "1.0.0" }),
    sdkSent: 0,
    sdkPid: null,
    courseRoot,
    sdkRoot,
  };
  const send = transport.send.bind(transport);
  transport.send = (message) => {
    session.sdkSent++;
    return send(message);
  };
  try {
    await session.sdk.connect(transport);
    session.sdkPid = transport.pid;
    const init = await course.initialize();
    await list(session, init.capabilities as JsonObject, listed);
  } catch (error) {
    await close(session);
    throw error;
  }
  return session;
}

/** List everything both servers offer, keep what was listed, and note where the lists differ. */
async function list(session: Session, capabilities: JsonObject, listed: Listed): Promise<void> {
  const { course, sdk } = session;
  const compare = (what: string, mine: string[], theirs: string[], into: Set<string>) => {
    if (!isDeepStrictEqual(mine, theirs)) {
      listed.differences.push(`${what}: ${mine.join(", ")} | SDK: ${theirs.join(", ")}`);
    }
    for (const key of mine) into.add(key);
  };
  if (capabilities.tools !== undefined) {
    const theirs = (await sdk.listTools()).tools.map((tool) => tool.name);
    compare("tools", Object.keys(await course.listTools()), theirs, listed.tools);
  }
  if (capabilities.resources !== undefined) {
    const theirs = (await sdk.listResources()).resources.map((resource) => resource.uri);
    compare("resources", Object.keys(await course.listResources()), theirs, listed.resources);
    const templates = (await sdk.listResourceTemplates()).resourceTemplates
      .map((template) => template.uriTemplate);
    const mine = Object.keys(await course.listResourceTemplates());
    compare("resource templates", mine, templates, listed.templates);
  }
  if (capabilities.prompts !== undefined) {
    const theirs = (await sdk.listPrompts()).prompts.map((prompt) => prompt.name);
    compare("prompts", Object.keys(await course.listPrompts()), theirs, listed.prompts);
  }
}

async function close(session: Session): Promise<void> {
  await Promise.allSettled([session.course.close(), session.sdk.close()]);
  assertGroupGone(session.course.pid);
  if (session.sdkPid !== null) assertProcessGone(session.sdkPid);
  for (const root of [session.courseRoot, session.sdkRoot]) {
    await Deno.remove(root, { recursive: true });
  }
}

/** Both clients through one step, the careful one first. */
async function run(session: Session, step: PeerStep): Promise<Observed> {
  const mine = await attempt(
    () => courseAnswer(session.course, withRoot(step.call, session.courseRoot)),
    session.courseRoot,
    () => session.courseWire.length,
  );
  const theirs = await attempt(
    () => sdkAnswer(session.sdk, withRoot(step.call, session.sdkRoot)),
    session.sdkRoot,
    () => session.sdkSent,
  );
  const text = "tool" in step.call && mine.answer !== undefined
    ? textOutcome(step.call.tool, mine.answer as JsonObject)
    : undefined;
  const both = mine.answer !== undefined && theirs.answer !== undefined;
  const mismatch = both
    ? difference(mine.answer, theirs.answer, step.varies !== undefined)
    : undefined;
  return {
    step,
    course: mine.outcome,
    said: mine.said,
    text,
    sdk: theirs.outcome,
    sdkSaid: theirs.said,
    mismatch,
  };
}

/**
 * One client's outcome of `ask`: its answer with `root` written `$ROOT`, or
 * its error's message, refused before sending when `sent` did not move.
 */
async function attempt(
  ask: () => Promise<unknown>,
  root: string,
  sent: () => number,
): Promise<{ outcome: Outcome; answer?: unknown; said?: string }> {
  const before = sent();
  try {
    const answer = normal(await ask(), root);
    return { outcome: isFailure(answer) ? "answered with isError" : "answered", answer };
  } catch (error) {
    const outcome = sent() === before ? "refused before sending" : "refused";
    return { outcome, said: (error as Error).message };
  }
}

/** The careful client's answer: a tool's whole result without its notes (there must be none). */
async function courseAnswer(client: Client, call: Call): Promise<unknown> {
  if ("tool" in call) {
    const { notes, ...result } = await client.callToolResult(call.tool, call.args);
    if (notes.length > 0) throw new Error(`unexpected notes: ${notes.join("; ")}`);
    return result;
  }
  if ("read" in call) return await client.readResource(call.read);
  return await client.getPrompt(call.prompt, call.args);
}

/** The SDK's answer, in the careful client's shape: `isError` said out loud, contents as a list. */
async function sdkAnswer(client: SdkClient, call: Call): Promise<unknown> {
  if ("tool" in call) {
    const result = await client.callTool({ name: call.tool, arguments: call.args });
    return { ...result, isError: result.isError === true };
  }
  if ("read" in call) return (await client.readResource({ uri: call.read })).contents;
  return await client.getPrompt({ name: call.prompt, arguments: call.args });
}

/** What `callTool` gives for the same result (the careful client's `toolText`): `text`, or the error's class. */
function textOutcome(name: string, result: JsonObject): string {
  try {
    toolText(name, result);
    return "text";
  } catch (error) {
    return (error as Error).name;
  }
}

const isFailure = (answer: unknown) => (answer as { isError?: unknown }).isError === true;

/** `call` with `$ROOT` replaced by `root`, wherever it is. */
function withRoot(call: Call, root: string): Call {
  return JSON.parse(JSON.stringify(call).replaceAll("$ROOT", root));
}

/** `answer` as JSON, with its server's folder (as a path, or in a file URL) written `$ROOT`. */
function normal(answer: unknown, root: string): unknown {
  return JSON.parse(JSON.stringify(answer).replaceAll(root, "$ROOT"));
}

/**
 * Where two answers differ, or `undefined`: the whole values, or, for an
 * answer that `varies`, only their kinds (`isError`, each item's type and
 * the resource URIs they carry, each message's role).
 */
function difference(mine: unknown, theirs: unknown, varies: boolean): string | undefined {
  const [a, b] = varies ? [kinds(mine), kinds(theirs)] : [mine, theirs];
  if (isDeepStrictEqual(a, b)) return undefined;
  return `the careful client: ${JSON.stringify(a).slice(0, 400)}\nthe SDK's: ${
    JSON.stringify(b).slice(0, 400)
  }`;
}

function kinds(answer: unknown): unknown {
  const item = (value: JsonObject) => ({
    type: value.type,
    uri: (value.resource as JsonObject | undefined)?.uri ?? value.uri,
  });
  if (Array.isArray(answer)) {
    return answer.map((contents) => ({
      uri: contents.uri,
      mimeType: contents.mimeType,
      blob: "blob" in contents,
    }));
  }
  const value = answer as JsonObject;
  if (Array.isArray(value.messages)) {
    return (value.messages as JsonObject[]).map((message) => ({
      role: message.role,
      ...item(message.content as JsonObject),
    }));
  }
  return {
    isError: value.isError,
    content: (value.content as JsonObject[]).map(item),
    structured: Object.keys(value.structuredContent ?? {}),
  };
}
