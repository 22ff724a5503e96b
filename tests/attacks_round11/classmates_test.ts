// Round 11 of issue 38's red team: hostile classmates in one class run of
// `deno task grade`, after round 9's defences (submission JSONs kept as text
// and capped at 4 MB, backslashes in names written `\x5c`, 64 MB of course
// files read per learner). Each test names what a hostile learner tried,
// what it got before its defence, and asserts what the defence gives: an
// honest classmate's marks as alone, nothing unearned for the hostile one,
// every learner reported under a name of their own, the class's results
// written. Each attempt here succeeded before its fix, and none still
// does, so there is no OPEN set. Not caught: a name that reads as a
// classmate's through letters of another script (Cyrillic а for Latin a).
// Run:
//   deno test -A tests/attacks_round11/classmates_test.ts

import assert from "node:assert/strict";
import { full, grade, tree, UNIT_A, unitBPasses } from "../_grading.ts";

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

Deno.test("a submission JSON or Lab 02 results.json of rows that each break the schema costs one line of one problem", async () => {
  // Before: the grader checked a learner's JSON naming every problem ajv found, in its own
  // process, before the 4 MB cap: 3.9 MB of Unit B's frames rows, each `{}`, are 2.7 million
  // problems, and the learner's one problem line was 135 MB of the grader's stderr (16 MB
  // of them: 22 s, 3.8 GB, and "Invalid string length"); a Lab 02 results.json of 300,000
  // properties it does not know put as many lines in the class's results file, and a
  // transcript that is not the canonical flow was listed whole, exchange by exchange: 4 MB
  // of a method's name and 100,000 notifications were a 4.5 MB line there.
  const rows = JSON.stringify({ ...await unitBPasses(), frames: "ROWS" })
    .replace('"ROWS"', `[${"{},".repeat(1_300_000)}{}]`);
  const line = (method: string) => `> {"jsonrpc":"2.0","method":${JSON.stringify(method)}}\n`;
  // Lab 02's saved files are read up to 256 KB since round 15 (a larger one is named, not read):
  // these are as large as that lets them be, still of thousands of lines and properties.
  const transcript = line("x".repeat(100 << 10)) + line("y").repeat(4_000);
  const unknown = `{${
    Array.from({ length: 20_000 }, (_, at) => `"p${at}":0`).join(",")
  },"tools_discovered":1,"calls_made":1,"calls_failed":0,"transcript_path":"transcript.txt"}`;
  const { list, err } = await grade([
    await tree({
      "a-rows/ch14-b-submission-v1.json": rows,
      "a-rows/ch14-a.ts": UNIT_A,
      "a-rows/work/lab-02/results.json": unknown,
      "a-rows/work/lab-02/transcript.txt": transcript,
      "b-honest/ch14-a.ts": UNIT_A,
    }),
  ]);
  assert.ok(err.length < 10_000, `${err.length} characters: ${err.slice(0, 500)}`);
  assert.match(
    err,
    /a-rows\/ch14-b-submission-v1\.json: does not match the ch14-b-submission schema: \/frames\/0 must have required property/,
  );
  const filesTest = list.flatMap((r) => r.tests).find((t) =>
    t.name.startsWith("lab-02 files: results.json")
  );
  assert.ok(
    filesTest !== undefined && filesTest.output.length < 1000,
    filesTest?.output.slice(0, 500),
  );
  assert.match(filesTest.output, /must NOT have additional properties/);
  const flowTest = list.flatMap((r) => r.tests).find((t) =>
    t.name.startsWith("lab-02 files: transcript")
  );
  assert.ok(flowTest !== undefined && flowTest.output.length < 2000, `${flowTest?.output.length}`);
  assert.match(flowTest.output, /not the canonical flow: it holds x{100}…, y, .* 3985 more$/);
  const honest = list.find((r) => r.submission.endsWith("/b-honest"));
  assert.ok(honest !== undefined && full(honest));
});
