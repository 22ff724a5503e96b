// `deno task record [--check]`: record what the library's mask did in Lab 03
// (`record_lab_03.ts`) into `lib/course/recorded/lab_03.json`, which the
// learners' release reads in place of the mask's withheld modules. With
// `--check`, write nothing and fail when the recording is missing, malformed,
// or made from code that has changed since.

import { RECORDING, recordLab03, staleRecording } from "./record_lab_03.ts";

const root = new URL("../../", import.meta.url);

try {
  if (Deno.args.includes("--check")) {
    const stale = await staleRecording(root);
    if (stale !== undefined) throw new Error(stale);
    console.log(`record: ${RECORDING} fresh`);
  } else {
    const file = new URL(RECORDING, root);
    await Deno.mkdir(new URL(".", file), { recursive: true });
    await Deno.writeTextFile(file, JSON.stringify(await recordLab03(root), null, 2) + "\n");
    console.log(`record: ${RECORDING}`);
  }
} catch (error) {
  console.error(`record: ${(error as Error).message}`);
  Deno.exit(1);
}
