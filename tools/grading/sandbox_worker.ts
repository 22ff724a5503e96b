// A learner's realm: this worker loads the learner's module and runs what one
// case asks of it, and reports what came back or was thrown. It holds no
// reference solution, no case but the one it runs, and decides nothing: the
// grader, in another process, compares and scores. A class of the learner's
// is run against a server that lives in the sandbox's main thread; a named
// test against a client that lives there too (or, without the instructors'
// client, in another realm of its own). This realm cannot talk to another but
// through its thread's port: it has no BroadcastChannel, no Worker and no storage.
// Nor has it the runtime's EventSource: it reads an event stream from a
// `data:` URL with no permission, and so is the reader Lab 04 has the
// learner write (sseData).

/// <reference lib="deno.worker" />

// First, so that the realm is marked as graded and has no way to make another before any learner
// code runs; then so that they hold the realm's postMessage before any learner code runs.
import "./realm/graded_realm.ts";
import "./realm/reach.ts";
import "./realm/exits.ts";
import { newCase, printedTooMuch } from "./realm/output.ts";
import { withWhyNoNewNames } from "./realm/no_new_names.ts";
import { npmRefusal } from "./realm/npm_refusal.ts";
import { threwOutcome } from "../../lib/grading/threw_outcome.ts";
import { captureStdout } from "../../lib/notebook/stdout_capture.ts";

const post = self.postMessage.bind(self);
for (
  const name of [
    "BroadcastChannel",
    "Worker",
    "SharedWorker",
    "caches",
    "localStorage",
    "sessionStorage",
    "EventSource",
  ]
) {
  Reflect.deleteProperty(globalThis, name);
}

let graded: Record<string, unknown> = {};

/**
 * Import one of the sandbox's modules that only some units' cases need (a
 * driver). The specifier is computed, so that Deno does not load the module
 * with the worker's own graph, ahead of the realm's permissions: a realm
 * loads it when it runs such a case, and only if its unit may read it.
 */
// deno-lint-ignore no-explicit-any
const load = (path: string): Promise<any> => import(new URL(path, import.meta.url).href);

/** The longest a named test may run before it has failed (the main thread's CPU budget is the real bound). */
const TEST_RUN_MS = 20_000;

self.onmessage = async (event: MessageEvent) => {
  const message = event.data;
  if (message.ping !== undefined) {
    // The main thread asks whether this realm still runs: it answers whenever it is not computing.
    post({ pong: message.ping });
    return;
  }
  if (message.load) {
    try {
      const module = await import(message.load);
      graded = module.graded ?? module;
      post({
        loaded: Object.keys(graded).filter((name) => typeof graded[name] === "function"),
      });
    } catch (error) {
      post({ loadError: describe(error) + thrownAt(error, message.load) });
    }
    return;
  }
  if (message.host) {
    const { hostClients } = await load("./host/client_host.ts");
    hostClients(event.ports[0], graded.McpClient as never, message.host.fault);
    post({ hosting: true });
    return;
  }
  const { kind, fn, args, quiet, coverage } = message.run as {
    kind: "call" | "model" | "client" | "test";
    fn: string;
    args: unknown[];
    quiet?: boolean;
    coverage?: boolean;
  };
  const candidate = graded[fn];
  const mutants = coverage ? strykerCase() : undefined;
  newCase();
  // A quiet function's stdout is kept back: what it printed is part of its outcome.
  const stop = quiet ? captureStdout() : undefined;
  let reply: Record<string, unknown>;
  try {
    if (kind === "call") {
      reply = { returned: await (candidate as (...args: unknown[]) => unknown)(...args) };
    } else if (kind === "model") {
      const { drive } = await load("./drivers/lab_03_decode.ts");
      reply = { returned: await drive(candidate, args) };
    } else if (kind === "client") {
      const [{ drive }, { portTransport }] = await Promise.all([
        load("./drivers/lab_02_client.ts"),
        load("./realm/port_transport.ts"),
      ]);
      const server = portTransport(event.ports[0]);
      const observed = await drive(candidate, args, { graded, server });
      const steps = (observed.steps ?? []) as Record<string, unknown>[];
      reply = { returned: observed, timed: steps.some((step) => "waiting" in step) };
    } else {
      if (typeof candidate !== "function") {
        throw new TypeError(`expected a test function, found ${typeof candidate}`);
      }
      const [{ runTest }, { remoteConnect }] = await Promise.all([
        load("./drivers/lab_02_tests.ts"),
        load("./realm/remote_client.ts"),
      ]);
      const run = await runTest(candidate as never, remoteConnect(event.ports[0]), {
        timeoutMs: TEST_RUN_MS,
      });
      reply = { returned: run.status, timed: run.message.startsWith("did not finish") };
    }
  } catch (error) {
    const threw = threwOutcome(error);
    reply = threw.message === undefined
      ? threw
      : { ...threw, message: withWhyNoNewNames(threw.message) };
  }
  const printed = stop?.();
  if (printedTooMuch()) reply = { problem: "it printed too much" };
  const covered = mutants?.();
  try {
    post({ reply: { ...reply, after: args, printed, ...covered && { covered } } });
  } catch {
    post({
      reply: { threw: "DataCloneError", message: "the result cannot be copied out", after: args },
    });
  }
};

/**
 * For mutation testing only (StrykerJS's instrumented code, whose state is
 * the realm's `__stryker__`): count a case's hits of the active mutant
 * afresh, and record which mutants the case's code reached. Returns the
 * function that ends the case: the ids it reached, with those reached
 * outside any case (as the module loaded), which every case may depend on.
 */
function strykerCase(): () => string[] {
  const ns = ((globalThis as Record<string, unknown>).__stryker__ ??= {}) as {
    currentTestId?: string;
    hitCount?: number;
    hitLimit?: number;
    mutantCoverage?: { static?: object; perTest?: Record<string, object> };
  };
  ns.currentTestId = "case";
  if (ns.hitLimit !== undefined) ns.hitCount = 0;
  return () => {
    ns.currentTestId = undefined;
    const reached = Object.keys({
      ...ns.mutantCoverage?.static,
      ...ns.mutantCoverage?.perTest?.case,
    });
    delete ns.mutantCoverage?.perTest?.case;
    return reached;
  };
}

/** The grader's shared folder, which holds this module: paths in it are named from it. */
const BASE = import.meta.dirname!.replace(/tools\/grading$/, "");

/**
 * A message in one line. Deno's parse error draws a frame round the line of code it points to, and
 * ends with where that is in the module the grader made of the notebook's cells (not a line of the
 * learner's cell): the error's own line, then that line of code.
 */
function oneLine(message: string): string {
  const frame = /^(.*)\n\s*\|\n\s*\d+ \|(.*)\n[\s\S]*$/.exec(message);
  const text = frame === null ? message : `${frame[1]}, in: ${frame[2].trim()}`;
  return text.replace(/\s*\n\s*/g, " ");
}

/**
 * Where in the module at `url` an error thrown as it loaded arose, from its
 * stack (` (ReferenceError, at URL:LINE:COLUMN)`), so that the grader can
 * leave out that cell as the kernel fails it alone; empty when the stack
 * names no line of it, or the message names one already (a SyntaxError of
 * V8's: `Unexpected reserved word at URL:LINE:COLUMN`).
 */
function thrownAt(error: unknown, url: string): string {
  if (!(error instanceof Error) || error.message.includes(url)) return "";
  const frame = (error.stack ?? "").split("\n").slice(1).find((line) => line.includes(`${url}:`));
  const place = frame?.slice(frame.indexOf(`${url}:`)).match(/^\S+?:\d+:\d+/)?.[0];
  return place === undefined ? "" : ` (${error.name}, at ${place})`;
}

/**
 * Why the module did not load, in at most 300 characters; a file the realm
 * may not read (the library's own copy of a graded idea, a classmate's
 * folder) is named from the repository's root, with why it is refused.
 */
function describe(error: unknown): string {
  const message = withWhyNoNewNames(error instanceof Error ? error.message : String(error));
  const npm = npmRefusal(message);
  if (npm !== undefined) return npm;
  const refused = /Requires read access to "([^"]+)"/.exec(message)?.[1];
  if (refused === undefined) return oneLine(message).slice(0, 300);
  const what = refused.startsWith(BASE) ? refused.slice(BASE.length) : "a file outside its folder";
  return `it imports or reads ${what}, which this unit does not give: graded code may import only what the unit's starter imports`
    .slice(0, 300);
}
