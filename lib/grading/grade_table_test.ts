import assert from "node:assert/strict";
import { ProtocolError } from "../mcp/shared/errors.ts";
import { gradeCases } from "./grading.ts";
import { gradeTable, whatDiffers } from "./grade_table.ts";

const differs = (fn: (...args: never[]) => unknown, args: unknown[], expected: unknown) =>
  whatDiffers(gradeCases(fn, [{ label: "c", args, expected }])[0]);

Deno.test("a grade table reads case, status, what differs, then input, expected, observed", () => {
  const rows = gradeCases((n: number) => n, [
    { label: "passes", args: [1], expected: 1 },
    { label: "fails", args: [2], expected: 3 },
  ]);
  const table = gradeTable(rows);
  assert.deepEqual(Object.keys(table[0]), [
    "case",
    "status",
    "what differs",
    "input",
    "expected",
    "observed",
  ]);
  assert.deepEqual(table.map((row) => row["what differs"]), ["", "expected 3, got 2"]);
  assert.ok(!("what differs" in gradeTable(rows.slice(0, 1))[0]), "no column when all pass");
  assert.deepEqual(Object.keys(gradeTable(rows, { brief: true })[1]), [
    "case",
    "status",
    "what differs",
  ]);
});

Deno.test("what differs is a sentence with the error's own message", () => {
  const broken = () => {
    throw new TypeError("buffer.indexOf is not a function");
  };
  assert.equal(differs(broken, [], 1), "threw TypeError: buffer.indexOf is not a function");
  assert.equal(
    differs(broken, [], { throws: "RangeError" }),
    "threw TypeError: buffer.indexOf is not a function: it should throw RangeError",
  );
  assert.equal(
    differs(() => [[], ""], [], { throws: "RangeError" }),
    'returned [ [], "" ]: it should throw RangeError',
  );
  const refuse = () => {
    throw new ProtocolError("no", { code: -32601 });
  };
  assert.equal(
    differs(refuse, [], { throws: "ProtocolError", with: { code: -32602 } }),
    "threw ProtocolError with code -32601: it should carry code -32602",
  );
});

Deno.test("what differs names the first difference, and how many more there are", () => {
  assert.equal(
    differs(() => ({ a: 1, b: [2, 3] }), [], { a: 2, b: [2, 4] }),
    "a: expected 2, got 1 (and 1 more)",
  );
  assert.equal(differs(() => undefined, [], { a: 1 }), "expected { a: 1 }, got undefined");
  assert.equal(differs(() => "went", [], "ate"), 'expected "ate", got "went"');
});

Deno.test("a list of plain values says what it lacks, what it has too, or that its order is wrong", () => {
  assert.equal(
    differs(() => ({ limits: ["as 1", "cpu 1"] }), [], { limits: ["cpu 1", "data 1"] }),
    'limits lacks "data 1"; limits has "as 1", which it should not',
  );
  assert.equal(
    differs(() => ["unexpected b", "missing a"], [], ["missing a", "unexpected b"]),
    'the list holds the right items in the wrong order: [ "unexpected b", "missing a" ]',
  );
});

Deno.test("a changed input, a line on stdout and unwritten work each say so", () => {
  assert.match(differs((list: number[]) => list.push(1), [[]], 1), /changed the arguments/);
  const rows = gradeCases(
    () => {
      console.log("got a request");
      return 1;
    },
    [{ label: "c", args: [], expected: 1 }],
    { quiet: true },
  );
  assert.match(whatDiffers(rows[0]), /printed "got a request\\n" on stdout/);
});

Deno.test("no sentence is longer than 160 characters", () => {
  const text = differs(() => "y".repeat(500), [], "x".repeat(500));
  assert.ok(text.length <= 160, text);
  assert.match(text, /500 × "x"/);
});

Deno.test("a value its table cannot read is shown as written, with one sentence on why", () => {
  // It said "returned something its table cannot read: --allow-write=: an empty entry, which Deno
  // refuses (a path with a comma cannot be named in a flag)", and showed the list of flags joined
  // with commas, as one flag.
  const flags = () => ["--no-remote", "--allow-write="];
  const grants = (value: unknown) => {
    if ((value as string[]).includes("--allow-write=")) {
      throw new TypeError("--allow-write= has an empty entry, which Deno refuses");
    }
    return value;
  };
  const [row] = gradeCases(flags, [{ label: "writes", args: [], expected: {} }], {
    normalize: grants,
  });
  assert.deepEqual(row.observed, { returned: ["--no-remote", "--allow-write="] });
  assert.equal(whatDiffers(row), "--allow-write= has an empty entry, which Deno refuses");
});

Deno.test("what differs names a key that holds undefined where none is expected", () => {
  const headers = (session: { id?: string }) => ({ accept: "*/*", "mcp-session-id": session.id });
  assert.equal(
    differs(headers, [{}], { accept: "*/*" }),
    '["mcp-session-id"]: expected nothing, got undefined',
  );
});
