import assert from "node:assert/strict";
import { CallArguments, htmlTable, textTable } from "./tables.ts";
import { nameValue } from "./value_names.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("a table shows inputs and values as TypeScript, never JSON inside JSON", () => {
  const rows = [{
    case: "one frame",
    input: new CallArguments([bytes('{"a":1}\n'), 64]),
    expected: [['{"a":1}'], ""],
  }];
  // The HTML table's values hold <wbr>, places to break a line that show nothing.
  for (const table of [textTable(rows), htmlTable(rows).replaceAll("<wbr>", "")]) {
    assert.ok(table.includes(`bytes('{"a":1}\\n') = 8 bytes, 64`), table);
    assert.ok(table.includes(`[ [ '{"a":1}' ], "" ]`), table);
    assert.ok(!table.includes('\\"') && !table.includes("&amp;quot;"), table);
  }
});

Deno.test("bytes show their length, and a run of one character is counted", () => {
  const rows = [{
    input: new CallArguments([bytes("x".repeat(16) + "\n"), 16]),
    expected: [["x".repeat(15)], ""],
  }];
  const [, line] = textTable(rows).split("\n");
  assert.equal(line, 'bytes(16 × "x" + "\\n") = 17 bytes, 16  [ [ 15 × "x" ], "" ]');
  assert.ok(
    htmlTable(rows).replaceAll("<wbr>", "").includes('bytes("xxxxxxxxxxxxxxxx\\n")'),
    "the whole value a click away",
  );
});

Deno.test("a long value is shown briefly, by its name where it has one, the whole a click away", () => {
  const schema = nameValue("the test's schema", {
    type: "object",
    properties: { order_id: { type: "string" }, tubs: { type: "integer" } },
    required: ["order_id", "tubs"],
  });
  const rows = [{ input: new CallArguments([structuredClone(schema), { tubs: 2 }]) }];
  assert.equal(textTable(rows).split("\n")[1], "the test's schema, { tubs: 2 }");
  const html = htmlTable(rows).replaceAll("<wbr>", "");
  assert.ok(html.includes("<summary") && html.includes("the test's schema, { tubs: 2 }"), html);
  assert.ok(html.includes("order_id"), "the whole value is in the page, behind the summary");
});

Deno.test("no cell shows more than 160 characters", () => {
  const rows = [{ text: "word ".repeat(100), list: Array.from({ length: 50 }, (_, i) => i) }];
  for (const line of textTable(rows).split("\n")) {
    for (const cell of line.split(/\s{2,}/)) assert.ok(cell.length <= 160, cell);
  }
});

Deno.test("undefined is shown as undefined, a missing key as a blank", () => {
  const table = textTable([{ case: "a", observed: undefined }, { case: "b" }]);
  assert.deepEqual(table.split("\n").map((line) => line.trimEnd()), [
    "case  observed",
    "a     undefined",
    "b",
  ]);
});

Deno.test("the status column is marked, and a table fits the notebook's width", () => {
  const html = htmlTable([{ case: "c", status: "FAIL", input: [1] }, {
    case: "d",
    status: "UNFINISHED",
  }]);
  assert.ok(html.includes("✗ FAIL") && html.includes("… UNFINISHED"));
  assert.ok(html.startsWith('<table style="max-width:100%'));
  assert.ok(html.includes("overflow-wrap:break-word") && !html.includes("overflow-wrap:anywhere"));
});

Deno.test("a value breaks between its words, never inside one", () => {
  // overflow-wrap:anywhere let a narrow column cut "ProtocolError" in two.
  const html = htmlTable([{ expected: { throws: "ProtocolError" }, observed: "ProtocolError" }]);
  assert.ok(!html.includes("anywhere") && !html.includes("break-all"), html);
  // A line of JSON, which has no space, may break after its commas and colons instead.
  const json = htmlTable([{ line: ['{"jsonrpc":"2.0","id":1}'] }]);
  assert.ok(json.includes('{"jsonrpc":<wbr>"2.0",<wbr>"id":<wbr>1}'), json);
});

Deno.test("tables keep their columns in the order their keys first appear", () => {
  const table = textTable([{ mode: "hang", outcome: "TimeoutError", verdict: "as expected" }]);
  assert.equal(table.split("\n")[0], "mode  outcome       verdict");
});
