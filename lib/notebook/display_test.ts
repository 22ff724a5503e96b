import assert from "node:assert/strict";
import { htmlTable, textTable } from "./display.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

// A grade row as lib/grading/grading.ts gives it, with the case's inputs and a thrown error's message.
const rows = [
  {
    case: "one frame",
    expected: [['{"a":1}'], ""],
    observed: [['{"a":1}'], ""],
    status: "PASS",
    args: [bytes('{"a":1}\n'), 64],
  },
  {
    case: "a frame beyond the limit",
    expected: { throws: "RangeError" },
    observed: { throws: "TypeError" },
    status: "FAIL",
    args: [bytes("x".repeat(16) + "\n"), 16],
    message: "buffer.indexOf is not a function",
  },
];

Deno.test("a grade table reads case, input, expected, observed, status", () => {
  const [heading] = textTable(rows).split("\n");
  assert.deepEqual(heading.split(/\s{2,}/), ["case", "input", "expected", "observed", "status"]);
  const headings = [...htmlTable(rows).matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]);
  assert.deepEqual(headings, ["case", "input", "expected", "observed", "status"]);
});

Deno.test("a grade table shows inputs and values as TypeScript, never JSON inside JSON", () => {
  const text = textTable(rows);
  assert.ok(text.includes(`bytes('{"a":1}\\n'), 64`), text);
  assert.ok(text.includes(`[ [ '{"a":1}' ], "" ]`), text);
  assert.ok(!text.includes('\\"'), text);
  const html = htmlTable(rows);
  assert.ok(html.includes(`bytes('{"a":1}\\n'), 64`), html);
  assert.ok(!html.includes('\\"') && !html.includes("&amp;quot;"), html);
});

Deno.test("a thrown error is shown with its message", () => {
  const line = textTable(rows).split("\n")[2];
  assert.match(
    line,
    /throws RangeError +throws TypeError: buffer\.indexOf is not a function +FAIL/,
  );
  assert.ok(htmlTable(rows).includes("throws TypeError: buffer.indexOf is not a function"));
});

Deno.test("other tables keep their own columns and order", () => {
  const table = textTable([{ mode: "hang", outcome: "TimeoutError", verdict: "as expected" }]);
  assert.equal(table.split("\n")[0], "mode  outcome       verdict");
});
