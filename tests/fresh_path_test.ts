// CI runs the tests on a fresh machine's PATH (.ci/fresh_path.ts): the image's
// own programs and what tools/setup.sh installs, and nothing installed by hand.

import assert from "node:assert/strict";
import { freshPrograms } from "../.ci/fresh_path.ts";

const read = (path: string) => Deno.readTextFile(new URL(`../${path}`, import.meta.url));

Deno.test("a program no package of the image or of set-up holds is left off the fresh PATH", async () => {
  const folder = await Deno.makeTempDir({ prefix: "by hand " });
  try {
    for (const name of ["jupyter", "deno"]) {
      await Deno.writeTextFile(`${folder}/${name}`, "#!/bin/sh\n", { mode: 0o755 });
    }
    const { kept, left } = await freshPrograms({
      path: [folder, "/usr/bin"],
      packaged: ["/usr/bin/sh"],
    });
    assert.ok(left.includes("jupyter"));
    assert.ok(!kept.has("jupyter"));
    assert.equal(kept.get("deno"), `${folder}/deno`, "tools/setup.sh installs Deno");
    assert.equal(kept.get("sh"), "/usr/bin/sh");
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("CI runs the README's test command on the fresh PATH", async () => {
  const ci = (await read(".ci/run")).split("\n");
  const made = ci.findIndex((line) => line.startsWith("deno run --allow-all .ci/fresh_path.ts"));
  const path = ci.findIndex((line) => /^PATH="\$fresh\/bin"$/.test(line));
  const test = ci.indexOf("sh tools/setup.sh test && deno task test");
  assert.ok(made !== -1 && made < path && path < test, ci.join("\n"));
});
