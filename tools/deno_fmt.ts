/**
 * Format text as `deno fmt` would format a file of a kind, under the
 * project's settings, so that generated files and `deno fmt` agree.
 *
 * @module
 */

const root = new URL("../", import.meta.url);

/**
 * `text` formatted by `deno fmt` as a file ending in `.${extension}` would be.
 * Throws when `deno fmt` refuses it, saying why.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(await denoFmt("#  Title\n", "md"), "# Title\n");
 * ```
 */
export async function denoFmt(text: string, extension: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", `--ext=${extension}`, "-"],
    cwd: root,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const { success, stdout, stderr } = await child.output();
  if (!success) throw new Error(`deno fmt refused it: ${new TextDecoder().decode(stderr)}`);
  return new TextDecoder().decode(stdout);
}
