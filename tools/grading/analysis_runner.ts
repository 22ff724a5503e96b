// The analysis process (`analysis.ts` starts this module, with no permission at all):
// what the grader learns from a learner's code before any of it runs, worked
// out here rather than in the grader's own event loop, so that code whose
// analysis costs too much costs only its own learner, and the grader stops
// the process once it has used its budget. It runs no learner code: it reads
// learners' code as text, one request a line on stdin (JSON), and answers
// each with two lines on stdout: the module the sandbox will load (a
// notebook's graded cells made one module, as the kernel runs them; a module
// as it came), then the graded functions it copies from the library. A
// request that cannot be answered gets one line naming the problem.

import { fileURLToPath } from "node:url";
import { parseNotebook } from "../editions/notebook.ts";
import { learnerModule, type ModuleSpec } from "./scratch.ts";
import { copiedFunctions, type LibraryCopy } from "./copied.ts";

/** What analysing any learner's code of one unit needs, the same for all of them. */
export interface UnitContext {
  /** The unit's parts a module is made of. */
  spec: ModuleSpec;
  /** The ids of the course's own cells in the unit's notebooks (a learner's others are theirs), when known. */
  courseCells?: string[];
  /** The library copies of each graded function (`copyForms`). */
  forms: [string, LibraryCopy[]][];
}

/** One learner's piece of code, and what analysing it needs. */
export interface AnalysisRequest extends UnitContext {
  /** What the code is called in a problem's message (its path). */
  name: string;
  kind: "notebook" | "module";
  /** The notebook's text (JSON) or the module's. */
  text: string;
  /** A notebook's cells left out of its module, by id, each with why (`LearnerModuleOptions.leftOut`). */
  leftOut?: Record<string, string>;
}

/**
 * A request as the grader writes it to the process: the code, and its unit's
 * context only with the first request of that unit the process gets (the
 * process keeps it for the next ones: Lab 03's library copies alone are
 * 1.8 MB of JSON).
 */
export type AnalysisMessage = Pick<AnalysisRequest, "name" | "kind" | "text" | "leftOut"> & {
  unit: string;
  context?: UnitContext;
};

/** What the process answers: the module first, then what it copies; or a problem. */
export type AnalysisReply =
  | { module: string }
  | { copied: Record<string, string[]> }
  | { problem: string };

/** This module's path, which the analysis process runs. */
export const RUNNER: string = fileURLToPath(import.meta.url);

/**
 * The module `request`'s code is made into (`{ module }`), then what it
 * copies (`{ copied }`), each handed to `answer` as soon as it is known; or
 * the problem that stops the code from being made a module.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const replies: AnalysisReply[] = [];
 * const spec = { imports: {}, functions: [] };
 * analyse({ name: "mine.ts", kind: "module", text: "export {};", spec, forms: [] }, (r) => replies.push(r));
 * assert.deepEqual(replies, [{ module: "export {};" }, { copied: {} }]);
 * ```
 */
export function analyse(request: AnalysisRequest, answer: (reply: AnalysisReply) => void): void {
  let module: string;
  try {
    module = request.kind === "notebook"
      ? learnerModule(parseNotebook(request.text, request.name), request.spec, {
        courseCells: request.courseCells && new Set(request.courseCells),
        leftOut: request.leftOut,
      })
      : request.text;
  } catch (error) {
    answer({ problem: (error as Error).message });
    return;
  }
  answer({ module });
  answer({ copied: copiedFunctions(module, new Map(request.forms)) });
}

if (import.meta.main) {
  const encoder = new TextEncoder();
  const write = (reply: AnalysisReply) => {
    const line = encoder.encode(JSON.stringify(reply) + "\n");
    for (let written = 0; written < line.length;) {
      written += Deno.stdout.writeSync(line.subarray(written));
    }
  };
  const contexts = new Map<string, UnitContext>();
  let pending = "";
  for await (const chunk of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
    pending += chunk;
    for (let end = pending.indexOf("\n"); end !== -1; end = pending.indexOf("\n")) {
      const { unit, context, ...code } = JSON.parse(pending.slice(0, end)) as AnalysisMessage;
      pending = pending.slice(end + 1);
      if (context !== undefined) contexts.set(unit, context);
      const known = contexts.get(unit);
      if (known === undefined) write({ problem: `the analysis was not told unit ${unit}` });
      else analyse({ ...code, ...known }, write);
    }
  }
}
