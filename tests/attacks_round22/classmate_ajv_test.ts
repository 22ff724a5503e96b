// Round 22, a hostile classmate graded in the same run of the class grader as an honest one
// (the worked Lab 02, whose McpClient checks a call's arguments with ajv, through
// lib/mcp/shared/schema.ts, before anything is sent). Graded code may `import Ajv from "ajv"`
// (the sandbox's per-specifier vendor modules), so the hostile learner's notebook adds a cell
// that poisons every ajv it can reach as its module loads (in a declaration's initializer: of a
// cell the learner added, the grader keeps the imports and the declarations, but those that name
// `Deno.` or await, which Deno is reached without): the default export's and the named
// class's prototypes (compile, validate, compile's cache), the default export's statics, ajv's
// 2020 class, and the bundle's files themselves (written through import.meta.resolve). Graded
// first, in the same grader process (its shared folder of vendor bundles, its sandbox cache and
// its analysis processes, as `deno task grade` shares them; the sandbox processes are each
// learner's own), then the honest classmate. It held: the poison reaches the hostile's own
// realms (its McpClient now sends arguments its schema refuses, and loses that case), a realm
// has no leave to write the bundles, and the honest classmate keeps every mark of McpClient.
// Kept as a regression test; about 12 s of CPU.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { gradeLearner } from "../../tools/grading/grade_learner.ts";
import { Analysis } from "../../tools/grading/analysis.ts";
import { loadHoldouts } from "../../tools/grading/units/mod.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** The cell the hostile learner adds, first among the graded cells. */
const POISON = `import Ajv from "ajv";
import * as ajvModule from "ajv";
import Ajv2020 from "ajv/dist/2020.js";
const poisoned = (() => {
const accepts = () => Object.assign((_data: unknown) => true, { errors: null });
const classes = [Ajv, (Ajv as any).default, (ajvModule as any).Ajv, Ajv2020, (Ajv2020 as any).default]
  .filter((c) => typeof c === "function");
for (const c of classes) {
  for (const name of ["compile", "compileAsync", "getSchema", "_addSchema"]) {
    try { c.prototype[name] = accepts; } catch { /* frozen */ }
  }
  try { c.prototype.validate = () => true; } catch { /* frozen */ }
  try { Object.defineProperty(c, "default", { value: c, configurable: true }); } catch { /* frozen */ }
}
// The sandbox's shared bundles (never, should this run anywhere else, a cache of the machine's).
for (const specifier of ["ajv", "ajv/dist/2020.js"]) {
  const bundle = import.meta.resolve(specifier);
  if (!/\\/vendor\\/ajv[.\\w]*\\.js$/.test(bundle)) continue;
  try {
    (globalThis as any)["Deno"].writeTextFileSync(new URL(bundle), "export default class {}\\n");
  } catch { /* no leave to write */ }
}
  return classes.length;
})();`;

Deno.test("a classmate who poisons ajv as their Lab 02 loads changes nothing of the honest McpClient graded after them", async () => {
  const folder = await Deno.makeTempDir({ prefix: "classmate ajv " });
  await using analysis = new Analysis();
  const holdouts = await loadHoldouts();
  try {
    const worked = JSON.parse(await Deno.readTextFile(`${root}solutions/lab-02.ipynb`));
    const hostile = structuredClone(worked);
    const at = hostile.cells.findIndex((cell: { id: string }) => cell.id === "server-link");
    hostile.cells.splice(at, 0, {
      cell_type: "code",
      id: "mine-poison",
      metadata: {},
      outputs: [],
      execution_count: null,
      source: POISON,
    });
    const graded = async (name: string, notebook: unknown) => {
      await Deno.mkdir(`${folder}/${name}`);
      const path = `${folder}/${name}/lab-02.ipynb`;
      await Deno.writeTextFile(path, JSON.stringify(notebook));
      const learner = {
        name,
        submissions: [{ unit: "lab-02", code: { kind: "notebook" as const, path } }],
      };
      const [results] = await gradeLearner(learner, holdouts, {
        functions: ["McpClient"],
        analysis,
      });
      return results;
    };
    const bad = await graded("hostile", hostile);
    const good = await graded("honest", worked);
    const lost = (results: typeof bad) =>
      results.tests.filter((t) => t.score < t.max_score).map((t) => t.name);
    // The poison is live where it was put: the hostile's McpClient no longer refuses arguments.
    assert.ok(bad.score < bad.max_score, "the hostile's own ajv was not poisoned");
    assert.ok(
      lost(bad).some((name) => /schema|refuse|argument/i.test(name)),
      lost(bad).join("\n"),
    );
    assert.deepEqual(lost(good), [], "the honest classmate lost marks after the hostile one");
    assert.equal(good.score, good.max_score);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});
