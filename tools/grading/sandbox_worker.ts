// Inside the sandbox: this worker loads the learner's module and calls one of
// its functions on the arguments it is sent, reporting what came back or what
// was thrown. It decides nothing: the sandbox's main thread, in another realm
// the learner's code cannot reach, compares and scores.

/// <reference lib="deno.worker" />

import { threwOutcome } from "../../lib/grading.ts";
import { captureStdout } from "../../lib/stdout_capture.ts";

let graded: Record<string, unknown> = {};

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
  const candidate = graded[message.fn] as (...args: unknown[]) => unknown;
  const args = message.args as unknown[];
  // A quiet function's stdout is kept back: what it printed is part of its outcome.
  const stop = message.quiet ? captureStdout() : undefined;
  let reply: Record<string, unknown>;
  try {
    reply = { returned: await candidate(...args) };
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

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}
