/**
 * The course's reference grammar server (Labs 01 and 02): the four tools of
 * `lib/course/grammar_tools.ts` over stdio. It needs no permissions, and says
 * on stderr what it does, so that a client can show the server's side of the
 * conversation.
 *
 *     deno run servers/grammar.ts
 *
 * Lab 01's learners build their own; this one is what Lab 02 starts unless a
 * learner's own server has passed Lab 01. `grammar_in_process.ts` serves the
 * same, with the same stderr lines, inside the autograder's sandbox.
 *
 * @module
 */

import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import { GRAMMAR_TOOLS } from "../lib/course/grammar_tools.ts";
import { serve, writeStderr } from "./_mcp_server.ts";

/** The grammar server: its name and version, and its tools. */
export const GRAMMAR = { name: "grammar", version: "1.0.0", tools: GRAMMAR_TOOLS };

/** What the grammar server says on stderr: when it starts, for each call, and when its input ends. */
export const GRAMMAR_NOTES = {
  ready: `grammar: ready with ${GRAMMAR_TOOLS.length} tools`,
  call: (name: string, args: unknown): string => `grammar: call ${name} ${JSON.stringify(args)}`,
  end: "grammar: input ended, exiting",
};

if (import.meta.main) {
  writeStderr(`${GRAMMAR_NOTES.ready}\n`);
  serve({
    ...GRAMMAR,
    onCall: (name: string, args: JsonObject) => writeStderr(`${GRAMMAR_NOTES.call(name, args)}\n`),
    onEnd: () => {
      writeStderr(`${GRAMMAR_NOTES.end}\n`);
      Deno.exit(0);
    },
  });
}
