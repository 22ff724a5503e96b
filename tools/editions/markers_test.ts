import assert from "node:assert/strict";
import { replaceMarked } from "./markers.ts";
import { NotebookError } from "./notebook.ts";
import { replaceSolutions } from "./replace_solutions.ts";

const lines = (...text: string[]) => text.join("\n");

Deno.test("replaceMarked leaves unmarked code alone", () => {
  const code = lines("const a = 1;", "// an ordinary comment", "a;");
  assert.equal(replaceMarked(code), code);
});

Deno.test("replaceMarked keeps the starter's own indentation under the markers'", () => {
  const worked = lines(
    "function f(x) {",
    "    // BEGIN SOLUTION",
    "    return x * 2;",
    "    // END SOLUTION",
    "    // BEGIN STARTER",
    "    // if (x) {",
    "    //   return x;",
    "    // }",
    "    //",
    "    // return 0;",
    "    // END STARTER",
    "}",
  );
  assert.equal(
    replaceMarked(worked),
    lines("function f(x) {", "    if (x) {", "      return x;", "    }", "", "    return 0;", "}"),
  );
});

Deno.test("replaceMarked replaces several regions in one cell", () => {
  const worked = lines(
    "// BEGIN SOLUTION",
    "const EDITION = 'worked';",
    "// END SOLUTION",
    "// BEGIN STARTER",
    "// const EDITION = 'student';",
    "// END STARTER",
    "f();",
    "  // BEGIN SOLUTION",
    "  g();",
    "  // END SOLUTION",
  );
  assert.equal(
    replaceMarked(worked),
    lines("const EDITION = 'student';", "f();", "  throw new NotImplementedError();"),
  );
});

const BROKEN: [string, string, RegExp][] = [
  [
    "an end without a beginning",
    lines("x;", "// END SOLUTION"),
    /line 2: "\/\/ END SOLUTION" without/,
  ],
  [
    "a beginning without an end",
    lines("// BEGIN SOLUTION", "x;"),
    /line 1: .* has no "\/\/ END SOLUTION"/,
  ],
  [
    "a nested beginning",
    lines("// BEGIN SOLUTION", "// BEGIN SOLUTION"),
    /line 2: .* inside a solution/,
  ],
  [
    "a starter that never ends",
    lines("// BEGIN SOLUTION", "// END SOLUTION", "// BEGIN STARTER", "// x;"),
    /line 3: .* has no "\/\/ END STARTER"/,
  ],
  [
    "a starter line that is not a comment",
    lines("// BEGIN SOLUTION", "// END SOLUTION", "// BEGIN STARTER", "x;", "// END STARTER"),
    /line 4: a starter line must be a comment/,
  ],
  ["a stray starter", lines("// BEGIN STARTER", "// END STARTER"), /line 1:/],
];

for (const [label, source, message] of BROKEN) {
  Deno.test(`replaceMarked fails loudly on ${label}`, () => {
    assert.throws(() => replaceMarked(source), (error: Error) => {
      assert.ok(error instanceof NotebookError);
      assert.match(error.message, message);
      return true;
    });
  });
}

Deno.test("replaceSolutions names the cell with a broken marker", () => {
  const cell = (id: string, source: string) => ({
    cell_type: "code" as const,
    id,
    metadata: {},
    source,
  });
  const notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: [cell("fine", "1"), cell("broken", "// END SOLUTION")],
  };
  assert.throws(() => replaceSolutions(notebook), /cell 1 \(broken\), line 1:/);
});

Deno.test("replaceSolutions never changes the notebook it is given", () => {
  const notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: [{
      cell_type: "code" as const,
      id: "a",
      metadata: {},
      source: "// BEGIN SOLUTION\n// END SOLUTION",
    }],
  };
  const before = structuredClone(notebook);
  replaceSolutions(notebook);
  assert.deepEqual(notebook, before);
});
