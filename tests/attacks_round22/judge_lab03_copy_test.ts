// Round 22 of the red team, the judges: a copy of Lab 03's mask, lightly disguised. The copy
// check (tools/grading/copied.ts) fingerprints runs of eight tokens (winnowing), and takes a
// block for a copy of a readable module's when 90 % of their fingerprints agree: a statement
// put after every one of the library's (`void 0;`, a dead `let _d1 = 0;`, a counter `_n++;`)
// breaks every run that crosses a statement's end, and a copy of each of the mask's modules so
// disguised was taken for no copy (string_grammar, compile, grammar_matcher, byte_dfa,
// minimize, regions, number_grammar, array_grammar). Statements that do nothing are now left
// out before fingerprinting, and a block is also a copy when it holds 90 % of the library
// block's statements, each whole (`pieceForms`). Here the worked prefixStatus carries
// lib/mask/string_grammar.ts so disguised (its imports left out), graded through
// `deno task grade`; without a disguise the copy was found before and is now. Run:
//   deno test -A tests/attacks_round22/judge_lab03_copy_test.ts

import assert from "node:assert/strict";
import { grade, ROOT, tree } from "../_grading.ts";
import { LAB_03 } from "../catalogue/lab_03.ts";

const worked = LAB_03.find((c) => c.fn === "prefixStatus")!.right["the worked solution's way"];
const library = (await Deno.readTextFile(`${ROOT}lib/mask/string_grammar.ts`))
  .replace(/^import[^;]*;\n/gm, "");

let dead = 0;
const { list } = await grade([
  await tree({
    "plain/lab-03.ts": `${worked}\n${library}`,
    "voids/lab-03.ts": `${worked}\n${library.replace(/;\n/g, ";void 0;\n")}`,
    "dead-declarations/lab-03.ts": `${worked}\n${
      library.replace(/;\n/g, () => `;let _d${dead++} = 0;\n`)
    }`,
    "counters/lab-03.ts": `${worked}\nlet _n = 0;\n${library.replace(/;\n/g, ";_n++;\n")}`,
  }),
  "--jobs",
  "2",
  "--unit",
  "lab-03",
]);

/** A folder's prefixStatus marks, and whether it was told a graded function is not its own. */
function graded(folder: string) {
  const results = list.find((r) => r.submission.endsWith(`/${folder}`))!;
  const tests = results.tests.filter((t) => t.name.startsWith("prefixStatus: "));
  const own = results.tests.find((t) => t.name === "every graded function is the learner's own");
  return {
    earned: tests.filter((t) => t.score === t.max_score).length,
    of: tests.length,
    said: own?.output ?? "",
  };
}

for (const folder of ["plain", "voids", "dead-declarations", "counters"]) {
  Deno.test(`a copy of the mask's string grammar (${folder}) earns nothing for prefixStatus`, () => {
    const { earned, of, said } = graded(folder);
    assert.ok(of > 0 && earned === 0, `kept ${earned}/${of}: ${said}`);
    assert.match(said, /prefixStatus.*lib\/mask\/string_grammar\.ts/);
  });
}
