// A notebook of many cells is judged as one of few: the check named each cell's file on deno fmt's
// command line, and 40,000 cells (a notebook of 6.7 MB) passed the kernel's limit on one (E2BIG):
// "Failed to spawn '/usr/bin/setsid': Argument list too long", and the learner was not graded.

import assert from "node:assert/strict";
import { unparsedCells } from "../tools/grading/unparsed_cells.ts";

Deno.test("the cells' check judges a notebook of 50,000 cells", async () => {
  const cells = Array.from({ length: 50_000 }, (_, at) => ({ id: `c${at}`, source: "1;" }));
  cells.push({ id: "broken", source: "function f() {\n  return [[1];\n}" });
  // Time enough for a busy machine: what is judged here is the count, not the speed.
  assert.deepEqual(await unparsedCells(cells, 120_000), {
    broken: "SyntaxError: Expected ',', got ';', in: return [[1];",
  });
});
