// Round 22 of the red team, the judges: five readings of what JSON.stringify escapes in Lab 03's
// character step, each of which kept every prefixStatus mark (117/117) through `deno task grade`:
// C1 controls, U+FEFF or the slash refused written as themselves, the quote and the backslash
// taken as \u0022 and \u005c as well, and a raw carriage return taken. The catalogue now holds
// them; the hidden cases that take their marks are in holdouts/lab_03.ts. Run:
//   deno test -A tests/attacks_round22/judge_lab03_stringify_test.ts

import assert from "node:assert/strict";
import { grade, tree } from "../_grading.ts";
import { LAB_03 } from "../catalogue/lab_03.ts";

const catalogue = LAB_03.find((c) => c.fn === "prefixStatus")!;
const READINGS = [
  "C1 controls refused written as themselves",
  "U+FEFF refused written as itself",
  "a slash refused written as itself",
  "the quote and the backslash as \\u escapes too",
  "a raw carriage return taken",
];

const files: Record<string, string> = {
  "worked/lab-03.ts": catalogue.right["the worked solution's way"],
};
READINGS.forEach((reading, index) =>
  files[`reading-${index}/lab-03.ts`] = catalogue.wrong[reading]
);
const { list } = await grade([await tree(files), "--jobs", "2"]);

/** A folder's prefixStatus marks: the cases it passed, and how many there were. */
function marks(folder: string) {
  const results = list.find((r) => r.submission.endsWith(`/${folder}`))!;
  const tests = results.tests.filter((t) => t.name.startsWith("prefixStatus: "));
  return { earned: tests.filter((t) => t.score === t.max_score).length, of: tests.length };
}

Deno.test("the worked prefixStatus keeps every mark", () => {
  const { earned, of } = marks("worked");
  assert.ok(of > 0 && earned === of, `${earned}/${of}`);
});

READINGS.forEach((reading, index) => {
  Deno.test(`prefixStatus with "${reading}" loses marks`, () => {
    const { earned, of } = marks(`reading-${index}`);
    assert.ok(of > 0 && earned < of, `kept ${earned}/${of}`);
  });
});
