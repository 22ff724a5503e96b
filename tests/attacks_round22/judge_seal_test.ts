// Round 22 of the red team, the judges: Lab 01's dispatcher seal (lib/mcp/server/dispatch.sealed.js,
// the one seal the release still ships) used for handleMessage with its watermark stripped.
// The seal's first line, its refusal where work is graded, is one test in its text that reads
// `typeof{}[...]`: a learner who replaces that with `typeof Object.create(null)[...]` has a seal
// that runs where work is graded, with no interpreter needed. Its helpers (the reply builders, the
// tool helpers) are a few lines a learner writes. Then the watermark is the only line left, and
// handleMessage had one mark, a request whose id is the token (answered with nothing):
// - a wrapper that gives the seal id 7 and puts the request's own back in the reply kept 80 of
//   113 handleMessage marks, unflagged (all of the 2025 era's; today's it does not speak);
// - a new mark, a method named by the token (a right answer has no such method), took that; a
//   wrapper that then answers the methods it does not know itself, and gives the seal the rest
//   with id 7, kept 82 of 113, unflagged;
// - a third mark, a tool named by the token (a right answer: no such tool, -32602), takes it.
// Both now earn nothing for handleMessage. What a wrapper that also checks the tool's name itself
// keeps, and why no mark in a tool's arguments helps, is in the round's report. Run:
//   deno test -A tests/attacks_round22/judge_seal_test.ts

import { assertEarnsNothing, base64, gradeClass } from "../_seals.ts";
import { ROOT } from "../_grading.ts";

/** The seal's helpers it imports, as a learner writes them (Lab 01's realm gives only arguments.ts). */
const HELPERS = `
import { argumentProblems } from "../lib/mcp/server/arguments.ts";
import { GRAMMAR_TOOLS } from "../lib/course/grammar_tools.ts";
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const isRequestId = (v) => typeof v === "string" || Number.isSafeInteger(v);
const ERROR_CODES = { parseError: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internalError: -32603 };
const success = (id, result) => ({ jsonrpc: "2.0", id, result });
const failure = (id, code, message, data) => ({ jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } });
const toolResult = (o) => ({ content: [{ type: "text", text: o.text }], isError: o.isError ?? false });
const advertised = (t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema });
const pageReply = () => ({});
const advertisedPrompt = (p) => p;
const promptReply = () => ({});
const advertisedResource = (r) => r;
const readReply = () => ({});
const SERVER = { name: "grammar", version: "1.0.0", tools: GRAMMAR_TOOLS };
export function negotiateVersion(requested) {
  return ["2025-06-18", "2024-11-05"].includes(requested) ? requested : "2025-06-18";
}`;
const NAMES =
  "isObject,isRequestId,argumentProblems,pageReply,advertisedPrompt,promptReply,advertisedResource,readReply,ERROR_CODES,failure,success,advertised,toolResult";

/** The seal with its refusal where graded taken out by one replacement, carried encoded. */
async function carried(): Promise<string> {
  const sealed = (await Deno.readTextFile(`${ROOT}lib/mcp/server/dispatch.sealed.js`))
    .split("\n").slice(1).join("\n");
  const body = `const {${NAMES}} = deps; const _0x1920ec = ERROR_CODES;\n` +
    sealed.replace(/import\{[^}]*\}from'[^']*';/g, "").replace(/export\{[^}]*\};/, "")
      .replaceAll("typeof{}[", "typeof Object.create(null)[") +
    "\nreturn { handleLine };";
  return `${HELPERS}
const deps = { ${NAMES} };
const { handleLine } = new Function("deps", new TextDecoder().decode(Uint8Array.fromBase64("${
    base64(body)
  }")))(deps);`;
}

/** handleMessage over the seal: each request given the seal with id 7, its own id put back. */
const OVER = (before: string) => `
export function handleMessage(line) {
  let msg;
  try { msg = JSON.parse(line); } catch { return handleLine(line, SERVER); }
  if (isObject(msg) && msg.jsonrpc === "2.0" && isRequestId(msg.id) && typeof msg.method === "string") {
    ${before}
    const out = handleLine(JSON.stringify({ ...msg, id: 7 }), SERVER);
    if (out === undefined) return out;
    const reply = JSON.parse(out);
    if (reply.id === 7) reply.id = msg.id;
    return JSON.stringify(reply);
  }
  return handleLine(line, SERVER);
}`;

const list = await gradeClass({
  "ids-rewritten": { file: "lab-01.ts", module: async () => (await carried()) + OVER("") },
  "unknown-methods-answered": {
    file: "lab-01.ts",
    module: async () =>
      (await carried()) +
      OVER(`if (!["initialize", "ping", "tools/list", "tools/call"].includes(msg.method)) {
      return JSON.stringify(failure(msg.id, -32601, "Method not found"));
    }`),
  },
});

for (const name of ["ids-rewritten", "unknown-methods-answered"]) {
  Deno.test(`Lab 01's seal behind a wrapper (${name}) earns nothing for handleMessage`, () => {
    assertEarnsNothing(list, name, "handleMessage");
  });
}
