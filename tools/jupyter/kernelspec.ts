/**
 * A Deno kernelspec of the course's own, in a temporary folder put first on
 * `JUPYTER_PATH`, naming the very `deno` that runs this code: notebooks run
 * by the course's tools and tests find it before the user's, so a test run
 * neither needs nor rewrites `~/.local/share/jupyter`. The folder is removed
 * when this process ends.
 *
 * @module
 */

/** The folder made for this process, once. */
let made: Promise<string> | undefined;

/**
 * The environment under which Jupyter starts this `deno` as its `deno`
 * kernel: `JUPYTER_PATH` naming a temporary folder whose `kernels/deno/`
 * holds the kernelspec, ahead of any `JUPYTER_PATH` already set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const { JUPYTER_PATH } = await denoKernelEnv();
 * const folder = JUPYTER_PATH.split(":")[0];
 * const spec = JSON.parse(await Deno.readTextFile(`${folder}/kernels/deno/kernel.json`));
 * assert.equal(spec.argv[0], Deno.execPath());
 * ```
 */
export async function denoKernelEnv(): Promise<{ JUPYTER_PATH: string }> {
  made ??= makeKernelspec();
  const folder = await made;
  const outer = Deno.env.get("JUPYTER_PATH");
  return { JUPYTER_PATH: outer ? `${folder}:${outer}` : folder };
}

/** Write the kernelspec into a new temporary folder, removed when this process ends. */
async function makeKernelspec(): Promise<string> {
  const folder = await Deno.makeTempDir({ prefix: "deno-kernelspec-" });
  globalThis.addEventListener("unload", () => {
    try {
      Deno.removeSync(folder, { recursive: true });
    } catch {
      // Already gone.
    }
  });
  await Deno.mkdir(`${folder}/kernels/deno`, { recursive: true });
  const spec = {
    argv: [Deno.execPath(), "jupyter", "--kernel", "--conn", "{connection_file}"],
    display_name: "Deno",
    language: "typescript",
  };
  await Deno.writeTextFile(`${folder}/kernels/deno/kernel.json`, JSON.stringify(spec, null, 2));
  return folder;
}
