// Round 6 of issue 38's red team: Lab 03 prefixStatus readings the catalogue
// does not hold, graded through `deno task grade` as learners' modules made
// from the worked step. Run:
//   deno test -A tests/attacks_round6/lab03_misreadings_test.ts

import assert from "node:assert/strict";
import { grade, tree } from "../_grading.ts";
import { LAB_03 } from "../catalogue/lab_03.ts";

const worked = LAB_03.find((c) => c.fn === "prefixStatus")!.right["the worked solution's way"];

/** The worked module with `from` (there once) changed to `to`. */
function changed(from: string, to: string): string {
  assert.equal(worked.split(from).length, 2, from);
  return worked.replace(from, () => to);
}

const files = {
  // A property's name written between quotes as it is (the catalogue's), which kept 76/76.
  "keys-unencoded/lab-03.ts": LAB_03.find((c) => c.fn === "prefixStatus")!
    .wrong["a property's name unencoded"],
  // The escapes JSON.stringify writes for lone surrogates (\ud800 to \udfff, since ES2019's
  // well-formed JSON.stringify) taken, each a character: what JSON.stringify writes, which the
  // worked step refused until this round's reading was decided, and takes now (with no escaped
  // low surrogate after an escaped high one, a pair JSON.stringify writes as itself).
  "lone-surrogates-escaped/lab-03.ts": changed(
    String.raw`.concat(['\\"', "\\\\"]);`,
    String
      .raw`.concat(['\\"', "\\\\"], [...Array(0x800).keys()].map((i) => "\\u" + (0xd800 + i).toString(16)));`,
  ),
  "worked/lab-03.ts": worked,
};
const { list } = await grade([await tree(files), "--jobs", "2"]);
const marks = (name: string) => {
  const results = list.find((r) => r.submission.endsWith(`/${name}`))!;
  const tests = results.tests.filter((t) => t.name.startsWith("prefixStatus: "));
  return { earned: tests.filter((t) => t.score === t.max_score).length, of: tests.length };
};

Deno.test("the worked prefixStatus keeps every mark", () => {
  const { earned, of } = marks("worked");
  assert.ok(of > 0 && earned === of, `${earned}/${of}`);
});

Deno.test("prefixStatus with a property's name written unencoded loses marks", () => {
  const { earned, of } = marks("keys-unencoded");
  console.log(`keys-unencoded: prefixStatus ${earned}/${of}`);
  assert.ok(earned < of, `kept ${earned}/${of}`);
});

Deno.test("the worked step and JSON.stringify agree on a lone surrogate: the reading that follows JSON.stringify keeps every mark", () => {
  // JSON.stringify({ name: "\ud800" }) is {"name":"\ud800"} (the escape, six characters), which
  // the worked step now reads as JSON.stringify writes it (ECMA-262's QuoteJSONString).
  const text = JSON.stringify({ name: "\ud800" });
  assert.equal(text, String.raw`{"name":"\ud800"}`);
  const { earned, of } = marks("lone-surrogates-escaped");
  console.log(`lone-surrogates-escaped: prefixStatus ${earned}/${of}`);
  assert.equal(earned, of);
});
