/**
 * The course's reference grammar server (Labs 01 and 02): the four tools of
 * `lib/server/grammar_tools.ts` over stdio. It needs no permissions, and says
 * on stderr what it does, so that a client can show the server's side of the
 * conversation.
 *
 *     deno run servers/grammar.ts
 *
 * Lab 01's learners build their own; this one is what Lab 02 starts unless a
 * learner's own server has passed Lab 01.
 *
 * @module
 */

import { GRAMMAR_TOOLS } from "../lib/server/grammar_tools.ts";
import { serve, writeStderr } from "./_mcp_server.ts";

if (import.meta.main) {
  writeStderr(`grammar: ready with ${GRAMMAR_TOOLS.length} tools\n`);
  serve({
    name: "grammar",
    version: "1.0.0",
    tools: GRAMMAR_TOOLS,
    onCall: (name, args) => writeStderr(`grammar: call ${name} ${JSON.stringify(args)}\n`),
    onEnd: () => {
      writeStderr("grammar: input ended, exiting\n");
      Deno.exit(0);
    },
  });
}
