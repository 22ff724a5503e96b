import assert from "node:assert/strict";
import { ProtocolError } from "./errors.ts";
import { gradeCases, verdict } from "./grading.ts";
import { NotImplementedError } from "./not_implemented.ts";

Deno.test("gradeCases reports a starter's NotImplementedError as unfinished, not failed", () => {
  const starter = (_: number): number => {
    throw new NotImplementedError("double");
  };
  const rows = gradeCases(starter, [{ label: "two", args: [2], expected: 4 }]);
  assert.deepEqual(rows, [
    { case: "two", expected: 4, observed: "not written yet", status: "UNFINISHED" },
  ]);
  assert.equal(verdict(rows), "NEEDS_WORK");
});

Deno.test("gradeCases fails a wrong value, a wrong error class and a wrong or missing field", () => {
  const refuse = (code?: number) => {
    throw new ProtocolError("no", { code });
  };
  const rows = gradeCases(refuse, [
    { label: "wrong class", args: [2], expected: { throws: "ToolError" } },
    { label: "wrong code", args: [1], expected: { throws: "ProtocolError", with: { code: 2 } } },
    { label: "no code", args: [], expected: { throws: "ProtocolError", with: { code: 2 } } },
    { label: "right code", args: [2], expected: { throws: "ProtocolError", with: { code: 2 } } },
    { label: "a value was expected", args: [3], expected: 3 },
  ]);
  assert.deepEqual(rows.map((row) => row.status), ["FAIL", "FAIL", "FAIL", "PASS", "FAIL"]);
  assert.deepEqual(rows[1].observed, { throws: "ProtocolError", with: { code: 1 } });
  assert.deepEqual(rows[4].observed, { throws: "ProtocolError" });
  assert.equal(verdict(rows), "NEEDS_WORK");
});

Deno.test("gradeCases compares an error's fields deeply, and only when the case lists them", () => {
  const busy = () => {
    throw new ProtocolError("busy", { code: -32000, data: { retry: 1 } });
  };
  const rows = gradeCases(busy, [
    { label: "the class alone", args: [], expected: { throws: "ProtocolError" } },
    {
      label: "code and data",
      args: [],
      expected: { throws: "ProtocolError", with: { code: -32000, data: { retry: 1 } } },
    },
    {
      label: "other data",
      args: [],
      expected: { throws: "ProtocolError", with: { data: { retry: 2 } } },
    },
  ]);
  assert.deepEqual(rows.map((row) => row.status), ["PASS", "PASS", "FAIL"]);
});

Deno.test("gradeCases fails a function that changes its arguments, and keeps the table's", () => {
  const cases = [{ label: "sorts", args: [[3, 1, 2]], expected: [1, 2, 3] }];
  const rows = gradeCases((list: number[]) => list.sort(), cases);
  assert.equal(rows[0].status, "FAIL");
  assert.equal(rows[0].observed, "changed its input");
  assert.deepEqual(cases[0].args, [[3, 1, 2]]);
});

Deno.test("verdict is PASSED only for a table of passes, and never for an empty one", () => {
  const pass = { case: "a", expected: 1, observed: 1, status: "PASS" as const };
  assert.equal(verdict([pass, pass]), "PASSED");
  assert.equal(verdict([pass, { ...pass, status: "UNFINISHED" }]), "NEEDS_WORK");
  assert.equal(verdict([]), "NEEDS_WORK");
});
