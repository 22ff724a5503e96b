// Inside the sandbox: this worker loads the learner's module and calls one of
// its functions on the arguments it is sent, reporting what came back or what
// was thrown; or, for what is more than a function (a class, a test), hands it
// to a trusted driver (`drivers/`), with the unit's reference solution when
// the case needs it, and reports what the driver observed. It decides
// nothing: the sandbox's main thread, in another realm the learner's code
// cannot reach, compares and scores.

/// <reference lib="deno.worker" />

import { threwOutcome } from "../../lib/grading/grading.ts";
import { captureStdout } from "../../lib/notebook/stdout_capture.ts";

let graded: Record<string, unknown> = {};
let reference: Promise<Record<string, unknown>> | undefined;
// Taken before the learner's module loads, which could replace the global.
const encode = encodeURIComponent;

self.onmessage = async (event: MessageEvent) => {
  const message = event.data;
  if (message.load) {
    try {
      const module = await import(message.load);
      graded = module.graded ?? module;
      self.postMessage({
        loaded: Object.keys(graded).filter((name) => typeof graded[name] === "function"),
      });
    } catch (error) {
      self.postMessage({ loadError: describe(error) });
    }
    return;
  }
  const candidate = graded[message.fn];
  const args = message.args as unknown[];
  // A quiet function's stdout is kept back: what it printed is part of its outcome.
  const stop = message.quiet ? captureStdout() : undefined;
  let reply: Record<string, unknown>;
  try {
    if (message.driver === undefined) {
      reply = { returned: await (candidate as (...args: unknown[]) => unknown)(...args) };
    } else {
      const { drive } = await import(message.driver);
      if (message.reference !== undefined) reference ??= loadReference(message.reference);
      const context = { graded, reference: await reference };
      reply = { returned: await drive(candidate, args, context) };
    }
  } catch (error) {
    reply = threwOutcome(error);
  }
  const printed = stop?.();
  try {
    self.postMessage({ ...reply, after: args, printed });
  } catch {
    self.postMessage({
      threw: "DataCloneError",
      message: "the result cannot be copied out",
      after: args,
      printed,
    });
  }
};

/** The reference solution's graded names, from its module source (which imports the library by file URL). */
async function loadReference(source: string): Promise<Record<string, unknown>> {
  const module = await import(`data:application/typescript,${encode(source)}`);
  return module.graded;
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}
