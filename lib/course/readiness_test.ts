import assert from "node:assert/strict";
import { gradeCases } from "../grading/grading.ts";
import { NotImplementedError } from "../grading/not_implemented.ts";
import { ready } from "./readiness.ts";

const CASES = [{ label: "two", args: [2], expected: 4 }];

/** What `fn` prints on stdout while it runs. */
async function printed(fn: () => Promise<unknown>): Promise<[unknown, string]> {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...parts: unknown[]) => lines.push(parts.join(" "));
  try {
    return [await fn(), lines.join("\n")];
  } finally {
    console.log = log;
  }
}

Deno.test("a step grades its needs when it runs: the work as it is now, not as it was", async () => {
  let double = (n: number) => n * 3;
  const need = { name: "double", cell: "the ✏️ cell", grade: () => gradeCases(double, CASES) };
  const [before, said] = await printed(() => ready("This step", [need]));
  assert.equal(before, false);
  assert.match(
    said,
    /^↷ This step waits for double \(0 of 1 cases pass; "two" does not: it returned 6, in the ✏️ cell\)/,
  );
  double = (n: number) => n * 2; // the learner fixes it and runs only the step again
  const [after, quiet] = await printed(() => ready("This step", [need]));
  assert.equal(after, true);
  assert.equal(quiet, "");
});

Deno.test("unwritten work, and grading that fails, are each named", async () => {
  const unwritten = () => {
    throw new NotImplementedError("f");
  };
  const [, said] = await printed(() =>
    ready("This step", [
      { name: "f", cell: "cell 1", grade: () => gradeCases(unwritten, CASES) },
      {
        name: "g",
        cell: "cell 2",
        grade: () => {
          throw new Error("no server");
        },
      },
    ])
  );
  assert.match(
    said,
    /f \(not written yet, in cell 1\) and g \(its grading failed: no server, in cell 2\)/,
  );
  assert.match(said, /Finish them, run their cells, then run this cell again\.$/);
});

Deno.test("a case that throws is named with what was thrown and said, as the learner would ask", async () => {
  const typo = (_n: number): number => {
    throw new ReferenceError("dobule is not defined");
  };
  const need = { name: "double", cell: "the ✏️ cell", grade: () => gradeCases(typo, CASES) };
  const [, said] = await printed(() => ready("This step", [need]));
  assert.match(
    said,
    /\(0 of 1 cases pass; "two" does not: it threw ReferenceError \(dobule is not defined\), in the ✏️ cell\)/,
  );
});
