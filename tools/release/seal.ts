// `deno task seal [--check]`: seal each library module that holds the
// library's own implementation of a graded function (see `sealed.ts`;
// `seal_module.ts` makes the seal, with the watermark's secrets kept with
// the hidden cases), and write it beside the module as `NAME.sealed.js`,
// headed by the hash of the module and the watermark (`sealHash`). With
// `--check`, write nothing and fail when a seal is missing or stale.

import { sealedPath } from "../grading/library_copies.ts";
import { UNITS } from "../grading/units/mod.ts";
import { loadWatermark } from "../grading/watermark.ts";
import { sealModule } from "./seal_module.ts";
import { sealedModules, sealHash, sealHeader, staleSeals } from "./sealed.ts";

const root = new URL("../../", import.meta.url);

const files = sealedModules(UNITS);
try {
  if (Deno.args.includes("--check")) {
    const problems = await staleSeals(root, files);
    if (problems.length > 0) throw new Error(problems.join("\n"));
    console.log(`seal: ${files.length} seals fresh`);
  } else {
    const watermark = await loadWatermark();
    if (watermark === undefined) {
      throw new Error("holdouts/watermark.ts is missing: the seals' watermark is kept there");
    }
    for (const file of files) {
      const code = await sealModule(file, watermark);
      await Deno.writeTextFile(
        new URL(sealedPath(file), root),
        `${sealHeader(file, await sealHash(root, file))}\n${code}\n`,
      );
      console.log(`seal: ${sealedPath(file)}`);
    }
  }
} catch (error) {
  console.error(`seal: ${(error as Error).message}`);
  Deno.exit(1);
}
