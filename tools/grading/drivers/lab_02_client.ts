/**
 * Lab 02's client driver: builds the learner's client class on the grammar
 * server (or a scripted one) running in this process, runs a scenario of
 * method calls, and reports what it observed, as plain data: what each call
 * returned or threw, what the server received, how it ended, what the client
 * logged. It judges nothing: the grade table (or the sandbox's main thread)
 * compares the observation with the case's expected one.
 *
 * @module
 */

import type { DriveContext } from "../../../lib/grading/grade_driven.ts";
import { startInProcess } from "../../../lib/mcp/server/in_process_server.ts";
import type { Transport } from "../../../lib/mcp/shared/transport.ts";
import { grammarInProcess, type Script } from "../../../servers/grammar_in_process.ts";

/** One call in a scenario: a method of the client (`dispose` for `[Symbol.asyncDispose]`). */
export interface Step {
  call: string;
  args?: unknown[];
  /**
   * How to report what it returned: the value itself, its `typeof`, the
   * `name` of each item of a list, or the sorted keys of an object.
   * @default {"value"}
   */
  show?: "value" | "type" | "names" | "keys";
}

/** What a scenario reports, each a key of the observation. */
export type Observed =
  | "steps" // what each step returned or threw
  | "sent" // [id, method] of each message the server received (id null for a notification)
  | "calls" // the params of each tools/call the server received
  | "initialize" // the params of the initialize request
  | "probe" // the params of the first server/discover request
  | "cancelled" // the requestId of each notifications/cancelled
  | "transcript" // [direction, message] of each line given to the transcript option
  | "exit" // the server's status after the steps, or "running"
  | "stderr" // the client's log lines that start with "[server] "
  | "mentions" // for each word of `mentions`, whether another log line holds it
  | "notes" // how many log lines the client wrote of its own (not "[server] ")
  | "capabilities" // the client's serverCapabilities after the steps
  | "version" // the client's protocolVersion after the steps
  | "said" // the method of each message the client sent, from its transcript (a reply: "reply")
  | "meta" // the protocol version each message the server received names in its _meta (or null)
  | "schemas"; // the property names of each schema in the client's toolSchemas

/** A scenario: the server, the client's grace period, the calls, and what to report. */
export interface Scenario {
  /** How the grammar server misbehaves; it behaves when absent. @default {undefined} */
  server?: Script;
  /** The client's `graceMs` option. @default {200} */
  graceMs?: number;
  /** The client's `probeMs` option. @default {undefined} (the client's own default) */
  probeMs?: number;
  /**
   * How long a step may take before it is reported as still waiting: longer
   * for a server that is a process of its own, which has to start.
   * @default {500}
   */
  stepMs?: number;
  /** Give the client no `transcript` option, as a caller who keeps none does. @default {false} */
  noTranscript?: boolean;
  steps: Step[];
  observe: Observed[];
  /** Words to look for in the client's own log lines (not case-sensitive). @default {[]} */
  mentions?: string[];
}

/** What a scenario observes of the server itself, rather than of the client. */
export const SERVER_SIDE: readonly ServerKey[] = [
  "sent",
  "calls",
  "initialize",
  "probe",
  "cancelled",
  "meta",
  "exit",
];

/** The longest a step may take before it is reported as still waiting, unless the scenario says. */
const STEP_MS = 500;

const decoder = new TextDecoder();

/**
 * Run the scenario `args[0]` on a new instance of the learner's class
 * `Client`, and report what `observe` asks for. Throws `NotImplementedError`
 * when the learner's part is not written yet, and `TypeError` when `Client`
 * is not a class.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * class Quiet {
 *   constructor(readonly server: { writable: WritableStream }) {}
 *   async close() { await this.server.writable.close(); return { code: 0, signal: null }; }
 * }
 * const scenario = { steps: [{ call: "close", show: "type" as const }], observe: ["steps" as const] };
 * assert.deepEqual(await drive(Quiet, [scenario], { graded: {} }), { steps: [{ returned: "object" }] });
 * ```
 */
export async function drive(
  Client: unknown,
  args: unknown[],
  context: DriveContext,
): Promise<Record<string, unknown>> {
  const scenario = args[0] as Scenario;
  if (typeof Client !== "function") throw new TypeError(`expected a class, found ${typeof Client}`);
  // A server the grader gave is observed where it runs: what it received is not reported here.
  const given = context.server;
  const server = given ?? startInProcess(grammarInProcess(scenario.server));
  const sent: string[] = [];
  const log: string[] = [];
  const transcript: [string, string][] = [];
  try {
    const client = new (Client as new (server: Transport, options: unknown) => object)(
      given ?? recording(server, sent),
      {
        graceMs: scenario.graceMs ?? 200,
        ...(scenario.probeMs === undefined ? {} : { probeMs: scenario.probeMs }),
        log: (line: unknown) => void log.push(String(line)),
        transcript: scenario.noTranscript
          ? undefined
          : (direction: unknown, line: unknown) =>
            void transcript.push([String(direction), String(line)]),
      },
    );
    const steps = [];
    for (const step of scenario.steps) steps.push(await run(client, step, scenario.stepMs));
    const observed = {
      steps,
      ...(given === undefined ? await serverObservations(sent, server) : {}),
      transcript: transcript.map(([direction, line]) => [direction, parse(line)]),
      said: transcript.filter(([direction]) => direction === ">").map(([, line]) => methodOf(line)),
      stderr: log.filter((line) => line.startsWith("[server] ")),
      mentions: Object.fromEntries((scenario.mentions ?? []).map((word) => [
        word,
        log.some((line) =>
          !line.startsWith("[server] ") && line.toLowerCase().includes(word.toLowerCase())
        ),
      ])),
      notes: log.filter((line) => !line.startsWith("[server] ")).length,
      capabilities: plain((client as { serverCapabilities?: unknown }).serverCapabilities),
      version: plain((client as { protocolVersion?: unknown }).protocolVersion),
      schemas: schemasOf((client as { toolSchemas?: unknown }).toolSchemas),
    };
    const observe = given === undefined
      ? scenario.observe
      : scenario.observe.filter((key) => !(SERVER_SIDE as readonly string[]).includes(key));
    return Object.fromEntries(
      observe.map((key) => [key, (observed as Record<string, unknown>)[key]]),
    );
  } finally {
    if (given === undefined) server.kill();
  }
}

/**
 * What a scenario observes of the server: each message it received (`sent`),
 * the params of each `tools/call` (`calls`), of `initialize` and of the first
 * `server/discover` (`probe`), the request each `notifications/cancelled`
 * names (`cancelled`), the protocol version each message's `_meta` names
 * (`meta`, `null` for none), and its status (`exit`, or `"running"`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startInProcess } from "../../../lib/mcp/server/in_process_server.ts";
 *
 * const server = startInProcess(async () => 0);
 * await server.status;
 * const seen = await serverObservations(['{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}'], server);
 * assert.deepEqual(seen, {
 *   sent: [[0, "initialize"]], calls: [], initialize: {}, probe: undefined, cancelled: [], meta: [null],
 *   exit: { code: 0, signal: null },
 * });
 * ```
 */
export async function serverObservations(
  sent: readonly string[],
  server: Transport,
): Promise<Record<ServerKey, unknown>> {
  const messages = sent.map(parse);
  const paramsOf = (method: string) =>
    (messages.find((m) => isMessage(m) && m.method === method) as { params?: unknown })?.params;
  return {
    sent: messages.map((m) => isMessage(m) ? [m.id ?? null, m.method] : ["not a request", m]),
    calls: messages.filter((m) => isMessage(m) && m.method === "tools/call")
      .map((m) => (m as { params?: unknown }).params),
    initialize: paramsOf("initialize"),
    probe: paramsOf("server/discover"),
    cancelled: messages.filter((m) => isMessage(m) && m.method === "notifications/cancelled")
      .map((m) => (m as { params?: { requestId?: unknown } }).params?.requestId ?? null),
    meta: messages.map(metaVersion),
    exit: server.exited ? await server.status : "running",
  };
}

/** What a scenario may observe of the server. */
export type ServerKey =
  | "sent"
  | "calls"
  | "initialize"
  | "probe"
  | "cancelled"
  | "meta"
  | "exit";

/** What one step returned or threw within `stepMs`; a `NotImplementedError` is thrown on. */
async function run(
  client: object,
  step: Step,
  stepMs = STEP_MS,
): Promise<Record<string, unknown>> {
  const key = step.call === "dispose" ? Symbol.asyncDispose : step.call;
  const method = (client as Record<PropertyKey, unknown>)[key];
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    if (typeof method !== "function") throw new TypeError(`the client has no method ${step.call}`);
    const outcome = Promise.resolve(method.apply(client, step.args ?? []));
    outcome.catch(() => {}); // one that comes after STEP_MS is not reported, nor left unhandled
    const waited = new Promise<"waiting">((resolve) =>
      timer = setTimeout(() => resolve("waiting"), stepMs)
    );
    const value = await Promise.race([outcome, waited]);
    if (value === "waiting") return { waiting: `no outcome within ${stepMs} ms` };
    return { returned: shown(value, step.show ?? "value") };
  } catch (error) {
    const { name, code, message } = (error ?? {}) as {
      name?: unknown;
      code?: unknown;
      message?: unknown;
    };
    if (name === "NotImplementedError") throw error;
    return {
      threw: typeof name === "string" ? name : typeof error,
      ...(typeof code === "number" ? { code } : {}),
      ...(name === "ToolError" ? { message: String(message) } : {}),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** A value as a step reports it. */
function shown(value: unknown, show: NonNullable<Step["show"]>): unknown {
  if (show === "type") return typeof value;
  if (show === "names") {
    return Array.isArray(value) ? value.map((item) => item?.name) : `not a list: ${typeof value}`;
  }
  if (show === "keys") {
    return typeof value === "object" && value !== null ? Object.keys(value).sort() : typeof value;
  }
  return plain(value);
}

/** `server` with its stdin recorded: each line the client writes is added to `sent`. */
function recording(server: Transport, sent: string[]): Transport {
  const stdin = server.writable.getWriter();
  let pending = "";
  const writable = new WritableStream<Uint8Array>({
    async write(chunk) {
      const lines = (pending + decoder.decode(chunk, { stream: true })).split("\n");
      pending = lines.pop()!;
      sent.push(...lines.filter((line) => line.trim() !== ""));
      await stdin.write(chunk);
    },
    close: () => stdin.close(),
    abort: (reason) => stdin.abort(reason),
  });
  return {
    readable: server.readable,
    writable,
    stderr: server.stderr,
    status: server.status,
    get exited() {
      return server.exited;
    },
    kill: () => server.kill(),
  };
}

function parse(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return line;
  }
}

/** The method of a message line the client sent, `"reply"` for a reply, or the line itself. */
function methodOf(line: string): unknown {
  const message = parse(line);
  if (isMessage(message)) return message.method;
  return typeof message === "object" && message !== null ? "reply" : line;
}

/** The protocol version a message's `params._meta` names, or `null`. */
function metaVersion(message: unknown): unknown {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } })?.params?._meta;
  return meta?.["io.modelcontextprotocol/protocolVersion"] ?? null;
}

function isMessage(value: unknown): value is { id?: unknown; method: string } {
  return typeof value === "object" && value !== null &&
    typeof (value as { method?: unknown }).method === "string";
}

/** The property names of each schema in a client's `toolSchemas` map. */
function schemasOf(schemas: unknown): unknown {
  if (!(schemas instanceof Map)) return `not a Map: ${typeof schemas}`;
  return Object.fromEntries(
    [...schemas].map(([name, schema]) => [
      String(name),
      Object.keys((schema as { properties?: object })?.properties ?? {}).sort(),
    ]),
  );
}

/** `value` as plain data that can cross to another thread: JSON-like, or a description. */
function plain(value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(value));
  } catch {
    return `a value that is not JSON: ${Object.prototype.toString.call(value)}`;
  }
}
