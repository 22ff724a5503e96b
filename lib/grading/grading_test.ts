import assert from "node:assert/strict";
import { ProtocolError } from "../mcp/shared/errors.ts";
import { gradeCases, verdict } from "./grading.ts";
import { NotImplementedError } from "./not_implemented.ts";

Deno.test("gradeCases reports a starter's NotImplementedError as unfinished, not failed", () => {
  const starter = (_: number): number => {
    throw new NotImplementedError("double");
  };
  const rows = gradeCases(starter, [{ label: "two", args: [2], expected: 4 }]);
  assert.deepEqual(rows, [
    {
      case: "two",
      input: [2],
      expected: 4,
      observed: "not written yet",
      status: "UNFINISHED",
      message: "",
    },
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
  assert.equal(rows[4].message, "no");
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
  const pass = {
    case: "a",
    input: [],
    expected: 1,
    observed: 1,
    status: "PASS" as const,
    message: "",
  };
  assert.equal(verdict([pass, pass]), "PASSED");
  assert.equal(verdict([pass, { ...pass, status: "UNFINISHED" }]), "NEEDS_WORK");
  assert.equal(verdict([]), "NEEDS_WORK");
});

Deno.test("gradeCases never takes a returned value for the error a case expects", () => {
  // A learner's answerFor that returns the refusal instead of throwing it.
  const returnsRefusal = () => ({ throws: "ProtocolError" });
  const returnsWithFields = () => ({ throws: "ProtocolError", with: { code: -32602 } });
  const rows = gradeCases(returnsRefusal, [
    { label: "refuses", args: [], expected: { throws: "ProtocolError" } },
  ]).concat(gradeCases(returnsWithFields, [
    {
      label: "keeps the code",
      args: [],
      expected: { throws: "ProtocolError", with: { code: -32602 } },
    },
  ]));
  assert.deepEqual(rows.map((row) => row.status), ["FAIL", "FAIL"]);
  assert.deepEqual(rows[0].observed, { returned: { throws: "ProtocolError" } });
});

Deno.test("gradeCases never takes a thrown error for a value a case expects", () => {
  const throwsObject = () => {
    throw Object.assign(new Error("x"), { ok: true });
  };
  const rows = gradeCases(throwsObject, [{
    label: "a value",
    args: [],
    expected: { throws: "Error", ok: true },
  }]);
  assert.equal(rows[0].status, "FAIL");
});

Deno.test("gradeCases keeps a thrown error's message and the case's input for the table", () => {
  const tooLong = (limit: number) => {
    throw new RangeError(`over ${limit}`);
  };
  const [row] = gradeCases(tooLong, [{ label: "a value", args: [16], expected: 1 }]);
  assert.deepEqual(row.input, [16]);
  assert.equal(row.message, "over 16");
});

Deno.test("gradeCases survives whatever is thrown: a string, null, an error whose name throws", () => {
  const odd = [
    "text",
    null,
    Object.defineProperty(new Error("m"), "name", {
      get() {
        throw new Error("no name");
      },
    }),
  ];
  for (const value of odd) {
    const [row] = gradeCases(() => {
      throw value;
    }, [{ label: "refuses", args: [], expected: { throws: "ProtocolError" } }]);
    assert.equal(row.status, "FAIL");
  }
});

Deno.test("a normalizer's refusal fails the case and says why", () => {
  const bytesOnly = (value: unknown) => {
    if (!(value instanceof Uint8Array)) throw new TypeError("a frame must be a Uint8Array");
    return [...value];
  };
  const [row] = gradeCases(() => new ArrayBuffer(1), [{
    label: "a frame",
    args: [],
    expected: [0],
  }], {
    normalize: bytesOnly,
  });
  assert.equal(row.status, "FAIL");
  assert.equal(row.message, "a frame must be a Uint8Array");
});
