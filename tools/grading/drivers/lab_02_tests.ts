/**
 * Lab 02's test driver: grades one of the learner's named tests as mutation
 * testing grades a test suite. The test runs against a correct client (the
 * instructors' worked one where the grader has it, otherwise the learner's
 * own) and, when the case names a fault, against that client made faulty;
 * each run on a new grammar server in this process. It reports whether each
 * run passed or failed, and judges nothing.
 *
 * @module
 */

import type { DriveContext } from "../../../lib/grading/grade_driven.ts";
import { startInProcess } from "../../../lib/mcp/server/in_process_server.ts";
import type { Transport } from "../../../lib/mcp/shared/transport.ts";
import { grammarInProcess } from "../../../servers/grammar_in_process.ts";
import { type Fault, withFault } from "./faulty_client.ts";

/** A named test: it is given `connect`, and fails by throwing. */
export type NamedTest = (connect: () => Connected) => Promise<void>;

/** What a named test's `connect` gives: a client, and the server as far as a test reads it. */
export interface Connected {
  client: unknown;
  server: Pick<Transport, "exited" | "kill">;
}

/** How one run of a test ended, and why it failed. */
export interface TestRun {
  status: "passed" | "failed";
  message: string;
}

/** A case of a named test: with a fault, the test must pass the correct client and fail the faulty one. */
export interface TestScenario {
  fault?: Fault;
}

/** The longest one run of a test may take, in the sandbox and in the grade tables. */
const RUN_MS = 300;

/**
 * Run the named test `test` as the case `args[0]` says, and report
 * `{ correct }` (and `faulty` when the case names a fault), each `"passed"`
 * or `"failed"`. Throws `NotImplementedError` when the test is not written
 * yet, and `TypeError` when there is no client class to run it against.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * class Client {
 *   constructor(readonly server: { writable: WritableStream }) {}
 *   async listTools() { return [{ name: "a" }, { name: "b" }]; }
 *   async [Symbol.asyncDispose]() { await this.server.writable.close(); }
 * }
 * const test = async (connect: () => { client: unknown }) => {
 *   await using client = connect().client as Client;
 *   assert.equal((await client.listTools()).length, 2);
 * };
 * const fault = { method: "listTools" as const, change: "drop-last" as const };
 * const context = { graded: { McpClient: Client } };
 * assert.deepEqual(await drive(test, [{ fault }], context), { correct: "passed", faulty: "failed" });
 * ```
 */
export async function drive(
  test: unknown,
  args: unknown[],
  context: DriveContext,
): Promise<Record<string, string>> {
  const { fault } = args[0] as TestScenario;
  const Client = context.reference?.McpClient ?? context.graded.McpClient;
  if (typeof test !== "function") {
    throw new TypeError(`expected a test function, found ${typeof test}`);
  }
  if (typeof Client !== "function") throw new TypeError("there is no McpClient class to test");
  const onGrammar = (Class: unknown) => () => {
    const server = startInProcess(grammarInProcess());
    const client = new (Class as new (server: Transport, options: unknown) => unknown)(server, {
      log: () => {},
      graceMs: 100,
    });
    return { client, server };
  };
  const correct = await runTest(test as NamedTest, onGrammar(Client), { timeoutMs: RUN_MS });
  if (fault === undefined) return { correct: correct.status };
  const Faulty = withFault(Client as new () => unknown, fault);
  const faulty = await runTest(test as NamedTest, onGrammar(Faulty), { timeoutMs: RUN_MS });
  return { correct: correct.status, faulty: faulty.status };
}

/** Options for {@linkcode runTest}. */
export interface RunTestOptions {
  /** The longest the test may take; then it has failed. @default {10000} */
  timeoutMs?: number;
}

/**
 * Run `test` with a `connect` that calls `connect` and keeps what it
 * started; every server the test left running is killed afterwards. A test
 * passes when it resolves in time; any error fails it, but a
 * `NotImplementedError` is thrown on (the test is not written yet).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startInProcess } from "../../../lib/mcp/server/in_process_server.ts";
 *
 * const connect = () => ({ client: {}, server: startInProcess(async () => 0) });
 * const run = await runTest(async () => assert.equal(1, 2), connect);
 * assert.equal(run.status, "failed");
 * ```
 */
export async function runTest(
  test: NamedTest,
  connect: () => Connected,
  options: RunTestOptions = {},
): Promise<TestRun> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const started: Connected["server"][] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const running = Promise.resolve().then(() =>
      test(() => {
        const connected = connect();
        started.push(connected.server);
        return connected;
      })
    );
    running.catch(() => {}); // a failure after the time-out is not reported, nor left unhandled
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`did not finish within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    await Promise.race([running, late]);
    return { status: "passed", message: "" };
  } catch (error) {
    if ((error as Error)?.name === "NotImplementedError") throw error;
    return { status: "failed", message: describe(error) };
  } finally {
    clearTimeout(timer);
    for (const server of started) server.kill();
  }
}

function describe(error: unknown): string {
  try {
    return (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(
      0,
      300,
    );
  } catch {
    return "an error that could not be read";
  }
}
