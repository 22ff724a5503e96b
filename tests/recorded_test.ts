// Lab 03's recording (`lib/course/recorded/lab_03.json`), which the learners'
// release reads in place of the mask's withheld modules: made from the code
// as it is, equal to what the library's mask does now, and refused, by name,
// when it is missing or out of shape.

import assert from "node:assert/strict";
import { fileURLToPath, pathToFileURL } from "node:url";
import { recordedLab03, RecordingError } from "../lib/course/recorded.ts";
import {
  RECORDING,
  recordingFiles,
  recordingSource,
  recordLab03,
  staleRecording,
} from "../tools/release/record_lab_03.ts";

const root = new URL("../", import.meta.url);

Deno.test("Lab 03's recording is what the library's mask does now, but for its milliseconds", async () => {
  const recorded = await recordedLab03();
  const fresh = await recordLab03(root);
  assert.equal(recorded.source, await recordingSource(root), "stale: run `deno task record`");
  assert.deepEqual(recorded.standIn, fresh.standIn);
  const cuts = (masks: typeof fresh.masks) =>
    Object.fromEntries(Object.entries(masks).map(([tool, { cuts }]) => [tool, cuts]));
  assert.deepEqual(cuts(recorded.masks), cuts(fresh.masks));
  // Counts and hashes: no token list.
  assert.ok(
    Object.values(recorded.masks).every(({ cuts }) => cuts.every((cut) => cut.allowed > 0)),
  );
  assert.ok(recorded.standIn.every((row) => row.maskedInvalid === 0));
});

Deno.test("a recording missing, not JSON, edited out of shape or short of a tool is a RecordingError naming the file and deno task record", async () => {
  const folder = await Deno.makeTempDir({ prefix: "recorded test " });
  try {
    const good = JSON.parse(
      await Deno.readTextFile(new URL("lib/course/recorded/lab_03.json", root)),
    );
    const edited = structuredClone(good);
    edited.masks.conjugate.cuts[0].allowed = -1;
    const noTool = structuredClone(good);
    delete noTool.masks.lookup_spanish;
    const cases: [string, string | undefined, RegExp][] = [
      ["missing.json", undefined, /no such file/],
      ["broken.json", "{", /not JSON/],
      ["no-rows.json", JSON.stringify({ ...good, standIn: [] }), /no standIn rows/],
      [
        "edited.json",
        JSON.stringify(edited),
        /conjugate's cut is not a prefix, a count and a hash/,
      ],
      ["no-tool.json", JSON.stringify(noTool), /no masks of lookup_spanish/],
    ];
    for (const [name, text, why] of cases) {
      const file = pathToFileURL(`${folder}/${name}`);
      if (text !== undefined) await Deno.writeTextFile(file, text);
      await assert.rejects(recordedLab03(file), (error: Error) => {
        assert.ok(error instanceof RecordingError, name);
        assert.equal(error.name, "RecordingError");
        assert.ok(error.message.startsWith(`${fileURLToPath(file)}: `), error.message);
        assert.match(error.message, why);
        assert.match(error.message, /`deno task record` writes it$/);
        return true;
      });
    }
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a recording made before the mask changed is stale, and says to run deno task record", async () => {
  const folder = await Deno.makeTempDir({ prefix: "recorded-root-" });
  try {
    const copy = new URL(`file://${folder}/`);
    const files = [...await recordingFiles(root), RECORDING];
    for (const file of files) {
      const to = new URL(file, copy);
      await Deno.mkdir(new URL(".", to), { recursive: true });
      await Deno.copyFile(new URL(file, root), to);
    }
    assert.equal(await staleRecording(copy), undefined);
    await Deno.writeTextFile(new URL("lib/mask/compile.ts", copy), "// changed\n", {
      append: true,
    });
    assert.equal(
      await staleRecording(copy),
      "lib/course/recorded/lab_03.json is stale (the mask or its recorder changed): run `deno task record`",
    );
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});
