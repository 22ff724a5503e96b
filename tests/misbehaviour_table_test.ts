// README.md's table of misbehaviours is generated from tests/misbehaviours.ts:
// it must say what the tests assert, so it fails here when it is out of date.

import assert from "node:assert/strict";
import { END, expectedReadme, replaceSection, START } from "../tools/misbehaviour_table.ts";

Deno.test("README.md's misbehaviour table is what deno task misbehaviour-table writes", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  assert.ok(
    readme === await expectedReadme(readme),
    "README.md's misbehaviour table is out of date: run deno task misbehaviour-table",
  );
});

Deno.test("replaceSection changes only what lies between the markers", () => {
  const readme = `before\n${START}\nold\n${END}\nafter\n`;
  assert.equal(replaceSection(readme, "new"), `before\n${START}\n\nnew\n\n${END}\nafter\n`);
});

Deno.test("replaceSection refuses a README without both markers, in order", () => {
  assert.throws(() => replaceSection(`${START}\n`, "x"), SyntaxError);
  assert.throws(() => replaceSection(`${END}\n${START}\n`, "x"), SyntaxError);
});
