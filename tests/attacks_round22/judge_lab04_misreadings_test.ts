// Round 22 of the red team, the judges: four readings of Lab 04's decisions that kept every mark
// through `deno task grade`: originAllowed with a "*" in the list read as CORS's wildcard, with a
// subdomain of an allowed origin let in, and with default ports (:80, :443) dropped before the
// comparison (the lesson asks for an origin that is one of the list "character for character");
// and replyKind with 410 Gone read as the end of a session, where only a 404 ends one. The
// catalogue now holds them; the hidden cases that take their marks are in holdouts/lab_04.ts.
// What held, tried the same way and kept out of here: origins compared as URLs, progressOf with
// a message turned into text, its params assumed, a total below the progress or under 1 dropped;
// replyKind with +json or text/json taken for JSON, a notification read by its media type, a 400
// ending a session; sseData with a space before the colon, empty data lines or empty events
// dropped, CR alone no line end, another field ending the event. Run:
//   deno test -A tests/attacks_round22/judge_lab04_misreadings_test.ts

import assert from "node:assert/strict";
import { grade, tree } from "../_grading.ts";
import { LAB_04 } from "../catalogue/lab_04.ts";

const READINGS: readonly [fn: string, reading: string][] = [
  ["originAllowed", "a * in the list allows all"],
  ["originAllowed", "subdomains of an allowed origin"],
  ["originAllowed", "default ports dropped"],
  ["replyKind", "410 Gone ends the session too"],
];
const catalogue = (fn: string) => LAB_04.find((c) => c.fn === fn)!;

const files: Record<string, string> = {};
for (const fn of new Set(READINGS.map(([fn]) => fn))) {
  files[`worked-${fn}/lab-04.ts`] = catalogue(fn).right["the worked solution's way"];
}
READINGS.forEach(([fn, reading], index) =>
  files[`reading-${index}/lab-04.ts`] = catalogue(fn).wrong[reading]
);
const { list } = await grade([await tree(files), "--jobs", "2", "--unit", "lab-04"]);

/** A folder's marks for `fn`: the cases it passed, and how many there were. */
function marks(folder: string, fn: string) {
  const results = list.find((r) => r.submission.endsWith(`/${folder}`))!;
  const tests = results.tests.filter((t) => t.name.startsWith(`${fn}: `));
  return { earned: tests.filter((t) => t.score === t.max_score).length, of: tests.length };
}

for (const fn of new Set(READINGS.map(([fn]) => fn))) {
  Deno.test(`the worked ${fn} keeps every mark`, () => {
    const { earned, of } = marks(`worked-${fn}`, fn);
    assert.ok(of > 0 && earned === of, `${earned}/${of}`);
  });
}

READINGS.forEach(([fn, reading], index) => {
  Deno.test(`${fn} with "${reading}" loses marks`, () => {
    const { earned, of } = marks(`reading-${index}`, fn);
    assert.ok(of > 0 && earned < of, `kept ${earned}/${of}`);
  });
});
