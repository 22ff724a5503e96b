import assert from "node:assert/strict";
import { formatGrades, gradeCases } from "./grade_table.ts";
import { NotImplementedError } from "./not_implemented.ts";
import { ProtocolError } from "./errors.ts";

Deno.test("gradeCases reports a starter's NotImplementedError as unfinished, not failed", () => {
  const starter = (_: number): number => {
    throw new NotImplementedError("double");
  };
  const grades = gradeCases(starter, [{ name: "two", args: [2], expected: { returns: 4 } }]);
  assert.equal(grades.rows[0].status, "UNFINISHED");
  assert.equal(grades.verdict, "UNFINISHED");
});

Deno.test("gradeCases fails a wrong value, a wrong error class and a missing error field", () => {
  const refuse = (code: number) => {
    throw new ProtocolError("no", { code });
  };
  const grades = gradeCases(refuse, [
    { name: "wrong class", args: [1], expected: { throws: "ToolError" } },
    { name: "wrong code", args: [1], expected: { throws: "ProtocolError", with: { code: 2 } } },
    { name: "right code", args: [2], expected: { throws: "ProtocolError", with: { code: 2 } } },
    { name: "a value was expected", args: [3], expected: { returns: 3 } },
  ]);
  assert.deepEqual(grades.rows.map((row) => row.status), ["FAIL", "FAIL", "PASS", "FAIL"]);
  assert.equal(grades.rows[1].expected, "throws ProtocolError with code 2");
  assert.equal(grades.verdict, "NEEDS_WORK");
});

Deno.test("gradeCases fails a function that changes its arguments, and keeps the table's", () => {
  const cases = [{
    name: "sorts",
    args: [[3, 1, 2]] as [number[]],
    expected: { returns: [1, 2, 3] },
  }];
  const grades = gradeCases((list: number[]) => list.sort(), cases);
  assert.equal(grades.rows[0].status, "FAIL");
  assert.match(grades.rows[0].observed, /changed its arguments/);
  assert.deepEqual(cases[0].args, [[3, 1, 2]]);
});

Deno.test("formatGrades shows what was expected under each failed row", () => {
  const grades = gradeCases((n: number) => n, [{
    name: "one",
    args: [1],
    expected: { returns: 2 },
  }]);
  assert.equal(
    formatGrades("TABLE", grades),
    "FAIL        one -> returns 1\n            expected: returns 2\nTABLE NEEDS_WORK",
  );
});
