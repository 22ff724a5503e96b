// JupyterLab saves checkpoints in .ipynb_checkpoints/ beside a notebook a
// learner saves; `deno fmt --check` and `deno lint` (and so `deno task test`)
// must not trip over them, nor over the course's virtual environment.

import assert from "node:assert/strict";

const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));

async function deno(cwd: string, ...args: string[]): Promise<number> {
  const { code } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    stdout: "null",
    stderr: "null",
  })
    .output();
  return code;
}

Deno.test("checkpoints and .venv/ are neither formatted nor linted", async () => {
  const folder = await Deno.makeTempDir({ prefix: "course-checkpoints-" });
  try {
    // The course's fmt and lint settings, over files that break both.
    const { fmt, lint, exclude } = config;
    await Deno.writeTextFile(
      `${folder}/deno.json`,
      JSON.stringify({ fmt, lint, exclude }, null, 2) + "\n",
    );
    const messy = "const  unused =  1\n";
    for (const dir of ["notebooks/.ipynb_checkpoints", "work/.ipynb_checkpoints", ".venv/lib"]) {
      await Deno.mkdir(`${folder}/${dir}`, { recursive: true });
      await Deno.writeTextFile(`${folder}/${dir}/messy.ts`, messy);
    }
    await Deno.writeTextFile(`${folder}/clean.ts`, "export const used = 1;\n");
    assert.equal(await deno(folder, "fmt", "--check"), 0, "deno fmt --check");
    assert.equal(await deno(folder, "lint"), 0, "deno lint");
    // The control: the same file outside those folders is caught.
    await Deno.writeTextFile(`${folder}/messy.ts`, messy);
    assert.notEqual(await deno(folder, "fmt", "--check"), 0);
    assert.notEqual(await deno(folder, "lint"), 0);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});
