// `deno task editions`: build each student edition in notebooks/ from its
// worked edition in solutions/, and store the worked editions without
// outputs. `deno task editions --check` changes nothing and exits 1 when any
// file differs from what the build would write.

import { denoFmt } from "../deno_fmt.ts";
import { dropHidden } from "./drop_hidden.ts";
import { kernelMetadata } from "./kernel_metadata.ts";
import { markEdition } from "./mark_edition.ts";
import { apply, formatNotebook, NotebookError, parseNotebook, type Transform } from "./notebook.ts";
import { replaceSolutions } from "./replace_solutions.ts";
import { stripOutputs } from "./strip_outputs.ts";

/** How the worked edition of `unit` is stored: as written, never run. */
export function worked(unit: string): Transform[] {
  return [stripOutputs, kernelMetadata, markEdition(unit, "worked")];
}

/** How the student edition of `unit` is made from its worked edition. */
export function student(unit: string): Transform[] {
  return [dropHidden, replaceSolutions, stripOutputs, kernelMetadata, markEdition(unit, "student")];
}

const root = new URL("../../", import.meta.url);

/** Every file the build writes, by path relative to the project, with its text. */
export async function buildEditions(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const names = [...Deno.readDirSync(new URL("solutions/", root))]
    .map((entry) => entry.name)
    .filter((name) => name.endsWith(".ipynb") && !name.startsWith("."))
    .sort();
  for (const name of names) {
    const source = `solutions/${name}`;
    try {
      const notebook = parseNotebook(await Deno.readTextFile(new URL(source, root)), source);
      const unit = name.replace(/\.ipynb$/, "");
      files.set(source, await denoFmt(formatNotebook(apply(notebook, worked(unit))), "ipynb"));
      files.set(
        `notebooks/${name}`,
        await denoFmt(formatNotebook(apply(notebook, student(unit))), "ipynb"),
      );
    } catch (error) {
      if (error instanceof NotebookError) throw new NotebookError(`${source}: ${error.message}`);
      throw error;
    }
  }
  return files;
}

if (import.meta.main) {
  const check = Deno.args.includes("--check");
  let files: Map<string, string>;
  try {
    files = await buildEditions();
  } catch (error) {
    if (!(error instanceof NotebookError)) throw error;
    console.error(`editions: ${error.message}`);
    Deno.exit(1);
  }
  const stale: string[] = [];
  for (const [path, text] of files) {
    const current = await Deno.readTextFile(new URL(path, root)).catch(() => undefined);
    if (current === text) continue;
    stale.push(path);
    if (!check) await Deno.writeTextFile(new URL(path, root), text);
  }
  if (check && stale.length > 0) {
    console.error(`editions: out of date (run deno task editions): ${stale.join(", ")}`);
    Deno.exit(1);
  }
  console.log(
    check ? `editions: ${files.size} files up to date` : `editions: wrote ${stale.length} file(s)`,
  );
}
