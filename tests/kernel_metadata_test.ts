// The notebooks name the kernel and its language exactly as the Deno kernel
// reports them. JupyterLab writes the kernel's `language_info` into a
// notebook when the kernel starts, and a notebook that held anything else
// opened modified, before the learner had touched it (every notebook of the
// course did: none held the TypeScript version the kernel reports).

import assert from "node:assert/strict";
import { runNotebook } from "../tools/run_notebook.ts";
import { DENO_KERNELSPEC, DENO_LANGUAGE_INFO } from "../tools/editions/kernel_metadata.ts";

const root = new URL("../", import.meta.url);

Deno.test("the Deno kernel reports the language_info the notebooks hold", async () => {
  const folder = await Deno.makeTempDir({ prefix: "kernel-metadata-" });
  try {
    const path = `${folder}/empty.ipynb`;
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        nbformat: 4,
        nbformat_minor: 5,
        metadata: { kernelspec: DENO_KERNELSPEC },
        cells: [{
          id: "one",
          cell_type: "code",
          source: "1",
          metadata: {},
          outputs: [],
          execution_count: null,
        }],
      }),
    );
    // The executor writes the kernel's own kernel_info reply into the notebook it ran.
    const { notebook } = await runNotebook(path, { cellTimeoutSeconds: 120 });
    assert.deepEqual(notebook.metadata.language_info, DENO_LANGUAGE_INFO);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("every edition of every unit names the kernel and its language as the kernel does", async () => {
  for (const folder of ["solutions", "notebooks"]) {
    for (const { name } of Deno.readDirSync(new URL(`${folder}/`, root))) {
      if (!name.endsWith(".ipynb")) continue;
      const { metadata } = JSON.parse(await Deno.readTextFile(new URL(`${folder}/${name}`, root)));
      assert.deepEqual(metadata.language_info, DENO_LANGUAGE_INFO, `${folder}/${name}`);
      assert.deepEqual(metadata.kernelspec, DENO_KERNELSPEC, `${folder}/${name}`);
    }
  }
});
