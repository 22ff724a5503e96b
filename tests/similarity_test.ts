// `deno task similarity` as an instructor runs it on a class folder: a copy
// with every name changed, the code reformatted and a statement added is
// paired with its source; learners who wrote the same answer independently,
// or the same short function, are not.

import assert from "node:assert/strict";
import { ROOT, tree } from "./_grading.ts";
import { CATALOGUES } from "./catalogue/mod.ts";

const style = (fn: string, name: string) =>
  CATALOGUES.find((catalogue) => catalogue.unit === "ch14-a" && catalogue.fn === fn)!.right[name];
/** Alice's own answerFor, and the same short authorize every careful learner writes. */
const ALICE = style("answerFor", "type and value, then a switch") + `
export function authorize(name, catalog, allowed) {
  return Object.hasOwn(catalog, name) && allowed.has(name);
}`;
/** Bob's copy of Alice's: every name changed, reformatted, other quotes, a statement added. */
const BOB = `import { ProtocolError } from "../lib/mcp/shared/errors.ts";
export function answerFor(wanted, reply)
{
    const idMatches = typeof reply.id === typeof wanted && reply.id === wanted
    const checked = true
    switch (true)
    {
        case !idMatches: throw new ProtocolError('not the reply I asked for')
        case Object.hasOwn(reply, 'error'): throw new ProtocolError('refused by the server')
        default: return reply.result
    }
}
export function authorize(tool, listed, permitted) {
  return Object.hasOwn(listed, tool) && permitted.has(tool);
}`;
/** Carol and Dave each wrote answerFor their own way, and the same authorize as Alice. */
const CAROL = style("answerFor", "Object.is and an early return") +
  ALICE.slice(ALICE.indexOf("\nexport function authorize"));
const DAVE = style("answerFor", "the error first, ids compared as JSON") +
  ALICE.slice(ALICE.indexOf("\nexport function authorize"));

Deno.test("a renamed, reformatted copy is paired with its source; independent answers are not", async () => {
  const folder = await tree({
    "alice/ch14-a.ts": ALICE,
    "bob/ch14-a.ts": BOB,
    "carol/ch14-a.ts": CAROL,
    "dave/ch14-a.ts": DAVE,
  });
  const json = `${folder}/pairs.json`;
  const { code, stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "similarity", folder, "--json", json],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
  }).output();
  const said = new TextDecoder().decode(stdout);
  assert.equal(code, 0, said);
  const { pairs } = JSON.parse(await Deno.readTextFile(json));
  assert.deepEqual(pairs.map((pair: { a: string; b: string }) => [pair.a, pair.b]), [[
    "alice",
    "bob",
  ]]);
  const [pair] = pairs;
  assert.ok(pair.similarity >= 0.65 && pair.similarity <= 1);
  assert.deepEqual(pair.functions.map((fn: { name: string }) => fn.name), ["answerFor"]);
  const [answerFor] = pair.functions;
  assert.equal(answerFor.unit, "ch14-a");
  assert.ok(answerFor.lines.a.length > 0 && answerFor.lines.b.length > 0);
  assert.match(said, /4 learners, 1 similar pairs/);
  assert.match(said, /alice ~ bob/);
});

Deno.test("a threshold that is not a number between 0 and 1 is refused, saying so", async () => {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "similarity", ROOT, "--threshold", "2"],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
  }).output();
  assert.equal(code, 2);
  assert.match(new TextDecoder().decode(stderr), /--threshold must be a number above 0, at most 1/);
});
