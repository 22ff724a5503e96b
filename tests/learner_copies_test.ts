// A learner works in their own copies (work/UNIT.ipynb, ignored by git), so a
// `git pull` of a fixed handout never aborts over their changes, and
// `deno task starter` gives a fresh starter without losing the old copy.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { learnerCopies } from "../tools/learner_copies.ts";

const root = fileURLToPath(new URL("../", import.meta.url));

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command("git", {
    args: ["-c", "user.name=course", "-c", "user.email=course@example.invalid", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  assert.equal(code, 0, `git ${args.join(" ")}: ${text}`);
  return text;
}

Deno.test("git pull brings a fixed handout and keeps the learner's copy as it is", async () => {
  const folder = await Deno.makeTempDir({ prefix: "course-pull-" });
  try {
    // The course as published: the handouts and the course's .gitignore.
    const upstream = `${folder}/upstream`;
    await Deno.mkdir(`${upstream}/notebooks`, { recursive: true });
    await Deno.copyFile(`${root}.gitignore`, `${upstream}/.gitignore`);
    await Deno.copyFile(`${root}notebooks/ch14-a.ipynb`, `${upstream}/notebooks/ch14-a.ipynb`);
    await git(upstream, "init", "-q", "-b", "main");
    await git(upstream, "add", ".");
    await git(upstream, "commit", "-q", "-m", "the handout");

    const learner = `${folder}/learner`;
    await git(folder, "clone", "-q", upstream, learner);
    assert.equal((await learnerCopies({ root: learner }))[0].action, "made");
    const mine = `${learner}/work/ch14-a.ipynb`;
    const edited = (await Deno.readTextFile(mine)).replace(
      "NotImplementedError",
      "Error /* mine */",
    );
    await Deno.writeTextFile(mine, edited);
    assert.equal(await git(learner, "status", "--porcelain"), "", "the learner's copy is ignored");

    // The handout is fixed upstream, and the learner pulls.
    const fixed = `${upstream}/notebooks/ch14-a.ipynb`;
    await Deno.writeTextFile(
      fixed,
      (await Deno.readTextFile(fixed)).replace("60 minutes", "70 minutes"),
    );
    await git(upstream, "commit", "-q", "-am", "a fixed handout");
    await git(learner, "pull", "-q");
    assert.match(await Deno.readTextFile(`${learner}/notebooks/ch14-a.ipynb`), /70 minutes/);
    assert.equal(await Deno.readTextFile(mine), edited);
    assert.equal((await learnerCopies({ root: learner }))[0].action, "kept");
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a fresh starter moves the learner's copy aside, never over it", async () => {
  const folder = await Deno.makeTempDir({ prefix: "course-starter-" });
  try {
    await Deno.mkdir(`${folder}/notebooks`);
    await Deno.writeTextFile(`${folder}/notebooks/ch14-b.ipynb`, "starter");
    await learnerCopies({ root: folder });
    await Deno.writeTextFile(`${folder}/work/ch14-b.ipynb`, "my work");
    const now = new Date("2026-11-30T10:20:30Z");
    const [copy] = await learnerCopies({ root: folder, fresh: ["ch14-b"], now });
    assert.deepEqual(copy, {
      unit: "ch14-b",
      copy: "work/ch14-b.ipynb",
      action: "replaced",
      movedTo: "work/ch14-b.before-2026-11-30T10-20-30.ipynb",
    });
    assert.equal(await Deno.readTextFile(`${folder}/work/ch14-b.ipynb`), "starter");
    assert.equal(await Deno.readTextFile(`${folder}/${copy.movedTo}`), "my work");
    await assert.rejects(
      learnerCopies({ root: folder, fresh: ["ch99"] }),
      /No student edition for ch99/,
    );
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a copy of the lab that was Lab 03 (now Lab 04) is moved aside with a note, never overwritten", async () => {
  const folder = await Deno.makeTempDir({ prefix: "course-renumbered-" });
  try {
    await Deno.mkdir(`${folder}/notebooks`);
    await Deno.mkdir(`${folder}/work/lab-03`, { recursive: true });
    await Deno.copyFile(`${root}notebooks/lab-04.ipynb`, `${folder}/notebooks/lab-04.ipynb`);
    const old = (await Deno.readTextFile(`${root}notebooks/lab-04.ipynb`)) + "\n";
    await Deno.writeTextFile(`${folder}/work/lab-03.ipynb`, old);
    await Deno.writeTextFile(`${folder}/work/lab-03/lab-03-submission-v1.json`, "{}");
    const now = new Date("2026-12-02T10:20:30Z");
    const copies = await learnerCopies({ root: folder, now });
    const moved = copies.find((copy) => copy.action === "renamed");
    assert.equal(moved?.movedTo, "work/lab-04.before-2026-12-02T10-20-30.ipynb");
    assert.match(moved?.note ?? "", /now lab-04.*work\/lab-04\.ipynb/);
    assert.equal(await Deno.readTextFile(`${folder}/${moved!.movedTo}`), old);
    assert.equal(
      await Deno.readTextFile(
        `${folder}/work/lab-04.before-2026-12-02T10-20-30/lab-03-submission-v1.json`,
      ),
      "{}",
    );
    assert.equal(copies.find((copy) => copy.unit === "lab-04")?.action, "made");
    // A copy of another notebook under that name is not the old lab, and is left where it is.
    await Deno.writeTextFile(`${folder}/work/lab-03.ipynb`, '{"cells": []}');
    assert.equal(
      (await learnerCopies({ root: folder, now })).some((c) => c.action === "renamed"),
      false,
    );
    assert.equal(await Deno.readTextFile(`${folder}/work/lab-03.ipynb`), '{"cells": []}');
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a copy the learner renamed in work/ is still theirs: no starter is made beside it", async () => {
  // A new learner renamed work/ch14-a.ipynb in JupyterLab, as the README allows ("a new name is
  // fine"); the next `deno task lab` made a fresh starter beside it, said "(edit this one)" and
  // opened it, and `deno task grade work` graded the empty starter, 0/10, skipping their 10/10.
  const folder = await Deno.makeTempDir({ prefix: "course-renamed-" });
  try {
    await Deno.mkdir(`${folder}/notebooks`);
    await Deno.copyFile(`${root}notebooks/ch14-a.ipynb`, `${folder}/notebooks/ch14-a.ipynb`);
    await learnerCopies({ root: folder });
    await Deno.rename(`${folder}/work/ch14-a.ipynb`, `${folder}/work/my unit a.ipynb`);
    const [kept] = await learnerCopies({ root: folder });
    assert.equal(kept.action, "kept");
    assert.equal(kept.copy, "work/my unit a.ipynb");
    assert.match(kept.note ?? "", /^Your copy of ch14-a: work\/my unit a\.ipynb/);
    await assert.rejects(Deno.stat(`${folder}/work/ch14-a.ipynb`), Deno.errors.NotFound);
    // Asked for, a fresh starter comes under the unit's name, the renamed copy left as it is.
    const [fresh] = await learnerCopies({ root: folder, fresh: ["ch14-a"] });
    assert.equal(fresh.action, "made");
    await Deno.stat(`${folder}/work/my unit a.ipynb`);
    // One moved into a sub-folder cannot run there: a starter comes, with a note of where it went.
    await Deno.mkdir(`${folder}/work/sub`);
    await Deno.rename(`${folder}/work/my unit a.ipynb`, `${folder}/work/sub/ch14-a.ipynb`);
    await Deno.remove(`${folder}/work/ch14-a.ipynb`);
    const [moved] = await learnerCopies({ root: folder });
    assert.equal(moved.action, "made");
    assert.match(moved.note ?? "", /work\/sub\/ch14-a\.ipynb is also ch14-a's, in a sub-folder/);
    await Deno.remove(`${folder}/work/sub`, { recursive: true });
    // A copy a fresh starter moved aside is not the learner's copy: a starter comes in its place.
    await Deno.rename(`${folder}/work/ch14-a.ipynb`, `${folder}/work/ch14-a.before-1.ipynb`);
    assert.equal((await learnerCopies({ root: folder }))[0].action, "made");
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});
