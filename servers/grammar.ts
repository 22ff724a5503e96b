/**
 * The grammar server of Lab 02 as a process: the tools of `grammar_tools.ts`
 * over stdio. It needs no permissions, and says on stderr what it does, so
 * that a client can show the server's side of the conversation.
 *
 *     deno run servers/grammar.ts
 *
 * @module
 */

import { serve, writeStderr } from "./_mcp_server.ts";
import { callLine, END_LINE, GRAMMAR, READY_LINE } from "./grammar_tools.ts";

if (import.meta.main) {
  writeStderr(`${READY_LINE}\n`);
  serve({
    ...GRAMMAR,
    onCall: (name, args) => writeStderr(`${callLine(name, args)}\n`),
    onEnd: () => {
      writeStderr(`${END_LINE}\n`);
      Deno.exit(0);
    },
  });
}
