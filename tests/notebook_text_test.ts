// What Units A and B say to a learner, read from the worked editions (the
// student editions are built from them): exercises marked, hints that say
// they open, and no text that describes results a learner may not have.

import assert from "node:assert/strict";
import { parseNotebook, sourceOf } from "../tools/editions/notebook.ts";

const UNITS = ["ch14-a", "ch14-b"];

async function cells(unit: string) {
  const path = `solutions/${unit}.ipynb`;
  return parseNotebook(await Deno.readTextFile(new URL(`../${path}`, import.meta.url)), path).cells;
}

Deno.test("every exercise cell is marked, and so is the text before it", async () => {
  for (const unit of UNITS) {
    const all = await cells(unit);
    const exercises = all.filter((cell) =>
      cell.cell_type === "code" && cell.id !== "setup" &&
      sourceOf(cell).includes("// BEGIN SOLUTION")
    );
    assert.ok(exercises.length >= 2, unit);
    for (const cell of exercises) {
      assert.match(sourceOf(cell), /^\/\/ ✏️ Your turn: /, `${unit} ${cell.id}`);
      const before = all[all.indexOf(cell) - 1];
      const intro = before.cell_type === "markdown"
        ? sourceOf(before)
        : sourceOf(all[all.indexOf(cell) - 2]);
      assert.match(intro, /✏️ \*\*Your turn:\*\*/, `${unit}: the text before ${cell.id}`);
    }
  }
});

Deno.test("hints say they open when clicked", async () => {
  const text = (await cells("ch14-b")).map(sourceOf).join("\n");
  const summaries = [...text.matchAll(/<summary>(.*)<\/summary>/g)].map((match) => match[1]);
  assert.equal(summaries.length, 2);
  for (const summary of summaries) {
    assert.match(summary, /^☞ <b>Hint \d<\/b>: .* \(click to open\)$/);
  }
});

Deno.test("the text claims no result the learner may not have", async () => {
  const a = (await cells("ch14-a")).map(sourceOf).join("\n");
  const b = (await cells("ch14-b")).map(sourceOf).join("\n");
  assert.ok(!a.includes("Unit B starts from what you observed here"));
  assert.match(a, /Unit B can start from it: set `LEARNER_HANDOFF`/);
  assert.ok(!b.includes("Every failure ended in an exception"));
  assert.match(b, /\*\*What you should see\*\*, once your `splitFrames` passes/);
  for (const unit of [a, b]) assert.match(unit, /\*\*When you are stuck:\*\*/);
});
