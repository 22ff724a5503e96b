// A learner's realm: this worker loads the learner's module and runs what one
// case asks of it, and reports what came back or was thrown. It holds no
// reference solution, no case but the one it runs, and decides nothing: the
// grader, in another process, compares and scores. A class of the learner's
// is run against a server that lives in the sandbox's main thread; a named
// test against a client that lives there too (or, without the instructors'
// client, in another realm of its own). This realm cannot talk to another but
// through its thread's port: it has no BroadcastChannel, no Worker and no storage.

/// <reference lib="deno.worker" />

// First, so that it holds the realm's postMessage before any learner code runs.
import "./realm/reach.ts";
import { threwOutcome } from "../../lib/grading/grading.ts";
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
  ]
) {
  Reflect.deleteProperty(globalThis, name);
}

let graded: Record<string, unknown> = {};

/** The longest a named test may run before it has failed (the main thread's CPU budget is the real bound). */
const TEST_RUN_MS = 20_000;

self.onmessage = async (event: MessageEvent) => {
  const message = event.data;
  if (message.load) {
    try {
      const module = await import(message.load);
      graded = module.graded ?? module;
      post({
        loaded: Object.keys(graded).filter((name) => typeof graded[name] === "function"),
      });
    } catch (error) {
      post({ loadError: describe(error) });
    }
    return;
  }
  if (message.host) {
    const { hostClients } = await import("./host/client_host.ts");
    hostClients(event.ports[0], graded.McpClient as never, message.host.fault);
    post({ hosting: true });
    return;
  }
  const { kind, fn, args, quiet } = message.run as {
    kind: "call" | "client" | "test";
    fn: string;
    args: unknown[];
    quiet?: boolean;
  };
  const candidate = graded[fn];
  // A quiet function's stdout is kept back: what it printed is part of its outcome.
  const stop = quiet ? captureStdout() : undefined;
  let reply: Record<string, unknown>;
  try {
    if (kind === "call") {
      reply = { returned: await (candidate as (...args: unknown[]) => unknown)(...args) };
    } else if (kind === "client") {
      const [{ drive }, { portTransport }] = await Promise.all([
        import("./drivers/lab_02_client.ts"),
        import("./realm/port_transport.ts"),
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
        import("./drivers/lab_02_tests.ts"),
        import("./realm/remote_client.ts"),
      ]);
      const run = await runTest(candidate as never, remoteConnect(event.ports[0]), {
        timeoutMs: TEST_RUN_MS,
      });
      reply = { returned: run.status, timed: run.message.startsWith("did not finish") };
    }
  } catch (error) {
    reply = threwOutcome(error);
  }
  const printed = stop?.();
  try {
    post({ reply: { ...reply, after: args, printed } });
  } catch {
    post({
      reply: { threw: "DataCloneError", message: "the result cannot be copied out", after: args },
    });
  }
};

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}
