// Round 11 of issue 38's red team: hostile classmates in one class run of
// `deno task grade`, after round 9's defences (submission JSONs kept as text
// and capped at 4 MB, backslashes in names written `\x5c`, 64 MB of course
// files read per learner). Each test names what a hostile learner tried,
// what it got before its defence, and asserts what the defence gives: an
// honest classmate's marks as alone, nothing unearned for the hostile one,
// every learner reported under a name of their own, the class's results
// written. Attempts that still succeed are in OPEN, skipped unless
// ROUND11_OPEN=1, each with what it got. Run:
//   deno test -A tests/attacks_round11/classmates_test.ts

import assert from "node:assert/strict";
import { full, grade, tree, UNIT_A } from "../_grading.ts";

/** Unit A that authorizes everything and answers 1: what a learner earns with no right code. */
const WRONG_A = "export function authorize() { return true; }\n" +
  "export function answerFor() { return 1; }\n";

/** Make folders under `folder` whose names are `names` (bytes, not UTF-8 as the case may be), each holding `ch14-a.ts`. */
async function foldersByBytes(folder: string, names: [number[], string][]): Promise<void> {
  const { success, stderr } = await new Deno.Command("python3", {
    args: [
      "-c",
      "import json, os, sys\n" +
      "for name, text in json.loads(sys.argv[2]):\n" +
      "  p = os.path.join(sys.argv[1].encode(), bytes(name))\n" +
      "  os.makedirs(p)\n" +
      "  open(p + b'/ch14-a.ts', 'w').write(text)",
      folder,
      JSON.stringify(names),
    ],
    stderr: "piped",
  }).output();
  assert.ok(success, new TextDecoder().decode(stderr));
}

/** `text` as its UTF-8 bytes. */
const utf8 = (text: string) => [...new TextEncoder().encode(text)];

Deno.test("two folders whose names are not UTF-8 in the same place are two learners, each graded as their own", async () => {
  // Before: the grader found a name that is not UTF-8 by the name Deno gives it (U+FFFD for
  // the bad byte), and Latin-1's `café` and a classmate's `cafè` are both `caf\uFFFD`: one of
  // them was graded twice under one name and the other never (no problem reported), so a
  // hostile classmate could have their own work reported twice in an honest one's place. A
  // third folder named with U+FFFD itself, which is UTF-8, was taken for one of them too.
  const folder = await tree({});
  await foldersByBytes(folder, [
    [[...utf8("caf"), 0xe9], UNIT_A],
    [[...utf8("caf"), 0xe8], WRONG_A],
    [utf8("caf\uFFFD"), WRONG_A],
  ]);
  const { list, err } = await grade([folder]);
  const scores = Object.fromEntries(
    list.map((r) => [r.submission.slice(folder.length + 1), full(r) ? "full" : "not full"]),
  );
  assert.deepEqual(
    scores,
    { "caf\\xe8": "not full", "caf\\xe9": "full", "caf\uFFFD": "not full" },
    err,
  );
});

Deno.test("a folder named as a classmate's with an invisible or decomposed character is reported under a name that shows it", async () => {
  // Before: `printable` wrote control and bidirectional characters as escapes, but not a
  // zero-width space, a word joiner or a byte-order mark; and `José` decomposed (NFD: e and a
  // combining accent) is shown as `José` composed. Each hostile folder was reported under
  // what reads as the honest classmate's name, its 0 beside their full marks, with nothing to
  // tell whose is whose.
  const names = ["bob\u200b", "bo\u2060b", "\ufeffbob", "bob\u00ad", "Jose\u0301", "\u212bsa"];
  const files: Record<string, string> = {
    "bob/ch14-a.ts": UNIT_A,
    "José/ch14-a.ts": UNIT_A,
    "Åsa/ch14-a.ts": UNIT_A,
  };
  for (const name of names) files[`${name}/ch14-a.ts`] = WRONG_A;
  const folder = await tree(files);
  const { list, out } = await grade([folder]);
  assert.equal(list.length, 3 + names.length);
  const shown = out.split("\n").filter((line) => line.startsWith("ch14-a  "))
    .map((line) => line.split("  ")[1].slice(folder.length + 1));
  const seen = (text: string) => text.normalize("NFC").replace(/[\p{Cf}]/gu, "");
  for (const honest of ["bob", "José", "Åsa"]) {
    assert.deepEqual(shown.filter((name) => seen(name) === honest), [honest], shown.join(" | "));
    const results = list.find((r) => r.submission === `${folder}/${honest}`);
    assert.ok(results !== undefined && full(results), honest);
  }
});
