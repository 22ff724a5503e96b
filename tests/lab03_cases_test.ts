// Lab 03's visible cases against the rules Block B states: each rule has a
// visible case that a step breaking it fails, so that the notebook's table
// (and `deno task grade`'s self-check) never says DONE to code the hidden
// cases then fail (issue 40, item 5: a step that ignored maxLength and
// walked UTF-16 units passed every visible case).

import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { CASES } from "../cases/lab_03.ts";
import { HOLDOUTS } from "../holdouts/lab_03.ts";
import { gradeCases } from "../lib/grading/grading.ts";
import { LAB_03 } from "./catalogue/lab_03.ts";

const scratch = await Deno.makeTempDir({ prefix: "lab03-cases-" });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));

/** The catalogue's `prefixStatus` written as `label` (right or wrong), imported. */
async function prefixStatusOf(label: string): Promise<(...args: unknown[]) => unknown> {
  const catalogue = LAB_03.find((c) => c.fn === "prefixStatus")!;
  const source = catalogue.wrong[label] ?? catalogue.right[label];
  assert.ok(source !== undefined, `the catalogue has no prefixStatus named ${label}`);
  const path = `${scratch}/${crypto.randomUUID()}.ts`;
  await Deno.writeTextFile(path, source);
  return (await import(pathToFileURL(path).href)).prefixStatus;
}

/** Block B's rules, each by the catalogue's answers that break it. */
const BROKEN_RULES: Record<string, string[]> = {
  "maxLength bounds a string": ["maxLength ignored"],
  "a character is a code point": ["length in UTF-16 units", "text[i] splits surrogate pairs"],
  "both at once, as the issue found them": ["maxLength ignored, lengths in UTF-16 units"],
  "a value may be an object of its own": ["any closing brace ends the call"],
  "an escape is one character": ["an escape counts as its written length"],
};

for (const [rule, labels] of Object.entries(BROKEN_RULES)) {
  Deno.test(`a step that breaks "${rule}" fails a visible case of Lab 03`, async () => {
    for (const label of labels) {
      const rows = gradeCases(await prefixStatusOf(label), CASES.prefixStatus);
      assert.ok(
        rows.some((row) => row.status === "FAIL"),
        `${label} passes every visible case of prefixStatus`,
      );
    }
  });
}

Deno.test("the worked step passes every case of prefixStatus, visible and hidden", async () => {
  const rows = gradeCases(await prefixStatusOf("the worked solution's way"), [
    ...CASES.prefixStatus,
    ...HOLDOUTS.prefixStatus,
  ]);
  assert.deepEqual(rows.filter((row) => row.status !== "PASS"), []);
});
