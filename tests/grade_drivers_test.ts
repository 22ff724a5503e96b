// The sandbox's drivers and what travels with them: every file the drivers
// and the worker import is copied into the scratch folder, the scratch folder
// holds no worked solution (the reference reaches the sandbox only on its
// stdin, with the hidden cases), and a driver reports what the learner's
// code did without trusting what it says.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { parseNotebook, sourceOf } from "../tools/editions/notebook.ts";
import { localImports } from "../tools/release/contents.ts";
import { drive } from "../tools/grading/drivers/lab_02_client.ts";
import { makeScratch, SANDBOX_FILES } from "../tools/grading/scratch.ts";
import { UNITS } from "../tools/grading/units/mod.ts";

const root = new URL("../", import.meta.url);

Deno.test("every file the sandbox's worker and drivers import is copied to the scratch folder", async () => {
  const needed = await localImports(root, SANDBOX_FILES);
  assert.deepEqual(needed.filter((file) => !SANDBOX_FILES.includes(file)), []);
  for (const fn of [...UNITS.values()].flatMap((spec) => spec.functions)) {
    if (fn.driver !== undefined) assert.ok(SANDBOX_FILES.includes(fn.driver), fn.driver);
  }
});

Deno.test("the sandbox loads each npm package the library names from one bundled module", async () => {
  const path = fileURLToPath(new URL("notebooks/lab-02.ipynb", root));
  await using scratch = await makeScratch(
    [{ unit: "lab-02", code: { kind: "notebook", path } }],
    UNITS,
  );
  const { imports } = JSON.parse(await Deno.readTextFile(scratch.importMap));
  const vendor = `${scratch.base}/vendor`;
  // One ajv, whichever way it is imported: each specifier's module re-exports the one bundle.
  for (const specifier of ["ajv", "ajv/dist/2020.js"]) {
    const text = await Deno.readTextFile(fileURLToPath(imports[specifier]));
    assert.ok(imports[specifier].startsWith(new URL(`file://${vendor}/`).href), specifier);
    assert.match(text, /^export \{[^}]*\} from "\.\/ajv\.js";\n$/, specifier);
  }
  const ajv = await import(imports.ajv);
  const ajv2020 = await import(imports["ajv/dist/2020.js"]);
  assert.equal(new ajv2020.Ajv2020().validate({ type: "integer" }, 1.5), false);
  // Each module's default is its own, as Deno gives a CommonJS module's `module.exports`.
  assert.equal(ajv.default, ajv.Ajv);
  assert.equal(ajv2020.default, ajv2020.Ajv2020);
  assert.notEqual(ajv.Ajv, ajv2020.Ajv2020);
});

/** Every file under `folder`, with its text. */
async function texts(folder: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for await (const entry of Deno.readDir(folder)) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory) { for (const [name, text] of await texts(path)) found.set(name, text); }
    else found.set(path, await Deno.readTextFile(path));
  }
  return found;
}

Deno.test("a Lab 02 scratch folder holds no worked solution: the reference travels only on stdin", async () => {
  const path = fileURLToPath(new URL("notebooks/lab-02.ipynb", root));
  await using scratch = await makeScratch(
    [{ unit: "lab-02", code: { kind: "notebook", path } }],
    UNITS,
  );
  const reference = scratch.references.get("lab-02");
  assert.ok(reference?.includes("class McpClient extends ListingClient"), "the reference is there");
  const worked = parseNotebook(
    await Deno.readTextFile(new URL("solutions/lab-02.ipynb", root)),
    "worked",
  );
  const solutions = worked.cells.flatMap((cell) =>
    [...sourceOf(cell).matchAll(/BEGIN SOLUTION\n(.*?)\n\s*\/\/ END SOLUTION/gs)].map((m) => m[1])
  );
  assert.ok(solutions.length >= 10);
  for (const [file, text] of await texts(scratch.folder)) {
    for (const solution of solutions) {
      assert.ok(!text.includes(solution.trim()), `${file} holds a worked solution`);
    }
  }
});

Deno.test("the client driver reports what the server received, whatever the client says it sent", async () => {
  // A client that records "initialize" in its transcript but never writes it.
  class Boaster {
    constructor(
      readonly server: unknown,
      readonly options: { transcript: (d: string, l: string) => void },
    ) {}
    initialize() {
      this.options.transcript(">", '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}');
      return Promise.resolve({ capabilities: { tools: {} } });
    }
  }
  const scenario = {
    steps: [{ call: "initialize", show: "keys" as const }],
    observe: ["sent" as const, "steps" as const],
  };
  assert.deepEqual(await drive(Boaster, [scenario], { graded: {} }), {
    sent: [],
    steps: [{ returned: ["capabilities"] }],
  });
});
