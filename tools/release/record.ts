// `deno task record [--check]`: record what the library's mask did in Lab 03
// (`record_lab_03.ts`) into `lib/course/recorded/lab_03.json`, which the
// learners' release reads in place of the mask's withheld modules. With
// `--check`, write nothing and fail when the recording is missing, malformed,
// or made from code that has changed since.

import { fileURLToPath } from "node:url";
import { RECORDED_LAB_03, recordedLab03 } from "../../lib/course/recorded.ts";
import { recordingSource, recordLab03 } from "./record_lab_03.ts";

const root = new URL("../../", import.meta.url);
const shown = fileURLToPath(RECORDED_LAB_03).slice(fileURLToPath(root).length);

try {
  if (Deno.args.includes("--check")) {
    const { source } = await recordedLab03();
    if (source !== await recordingSource(root)) {
      throw new Error(
        `${shown} is stale (the mask or its recorder changed): run \`deno task record\``,
      );
    }
    console.log(`record: ${shown} fresh`);
  } else {
    await Deno.mkdir(new URL(".", RECORDED_LAB_03), { recursive: true });
    await Deno.writeTextFile(
      RECORDED_LAB_03,
      JSON.stringify(await recordLab03(root), null, 2) + "\n",
    );
    console.log(`record: ${shown}`);
  }
} catch (error) {
  console.error(`record: ${(error as Error).message}`);
  Deno.exit(1);
}
