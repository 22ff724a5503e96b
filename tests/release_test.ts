// The learners' release (`deno task release`), built at a path with a space:
// it holds no hidden case, no expected value only a hidden case has, and no
// worked solution; its notebooks run clean under the kernel; and its grader
// grades a completed student edition to full marks on the visible cases.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { parseNotebook, sourceOf } from "../tools/editions/notebook.ts";
import { loadHoldouts, UNITS } from "../tools/grading/units/mod.ts";
import { runNotebook } from "../tools/run_notebook.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const scratch = await Deno.makeTempDir({ prefix: "release test " });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));
const release = `${scratch}/learners' course`;
{
  const built = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "release", release],
    cwd: root,
    stderr: "piped",
  }).output();
  assert.equal(built.code, 0, new TextDecoder().decode(built.stderr));
}

/** Every file of the release, by path relative to it, with its text. */
async function files(folder = release, prefix = ""): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for await (const entry of Deno.readDir(folder)) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory) {
      for (const [name, text] of await files(path, `${prefix}${entry.name}/`)) {
        found.set(name, text);
      }
    } else found.set(`${prefix}${entry.name}`, await Deno.readTextFile(path));
  }
  return found;
}

/** Text with white space removed, so that formatting hides nothing. */
const squeeze = (text: string) => text.replace(/\s+/g, "");

/** The files of the release whose squeezed text holds `needle`'s, with either kind of quotes. */
function holding(all: Map<string, string>, needle: string): string[] {
  const wanted = [squeeze(needle), squeeze(needle).replaceAll('"', "'")];
  return [...all].filter(([, text]) => wanted.some((form) => squeeze(text).includes(form)))
    .map(([name]) => name);
}

Deno.test("the release holds no worked edition, no hidden case and no test", async () => {
  const all = await files();
  const names = [...all.keys()];
  for (const folder of ["solutions/", "holdouts/", "tests/", "bench/"]) {
    assert.ok(!names.some((name) => name.startsWith(folder)), `${folder} is in the release`);
  }
  assert.ok(!names.some((name) => name.endsWith("_test.ts")), "a test is in the release");
  const holdouts = (await loadHoldouts())!;
  const visibleExpected = new Set(
    [...UNITS.values()].flatMap((spec) =>
      spec.functions.flatMap((fn) => fn.cases.map((c) => squeeze(JSON.stringify(c.expected))))
    ),
  );
  for (const [unit, byFunction] of holdouts) {
    for (const [fn, cases] of Object.entries(byFunction)) {
      for (const testCase of cases) {
        assert.deepEqual(holding(all, testCase.label), [], `${unit} ${fn}: "${testCase.label}"`);
        // An expected value a visible case shares, or one as short as `7`, tells nothing.
        const expected = squeeze(JSON.stringify(testCase.expected) ?? "");
        if (visibleExpected.has(expected) || expected.length < 8) continue;
        assert.deepEqual(holding(all, expected), [], `${unit} ${fn}: expected ${expected}`);
      }
    }
  }
});

/** Every worked solution block (between the markers) in the worked editions. */
async function solutionBlocks(): Promise<{ where: string; text: string }[]> {
  const blocks = [];
  for await (const entry of Deno.readDir(`${root}solutions`)) {
    if (!entry.name.endsWith(".ipynb")) continue;
    const notebook = parseNotebook(
      await Deno.readTextFile(`${root}solutions/${entry.name}`),
      entry.name,
    );
    for (const cell of notebook.cells) {
      for (
        const match of sourceOf(cell).matchAll(/BEGIN SOLUTION\n(.*?)\n\s*\/\/ END SOLUTION/gs)
      ) {
        blocks.push({ where: `${entry.name} ${cell.id}`, text: match[1] });
      }
    }
  }
  return blocks;
}

/**
 * Library modules the client itself runs on, which the design ships to
 * learners (DESIGN.md's library contract), and which are one line a unit's
 * text states in words: the allowlist is `Object.hasOwn(catalog, name) &&
 * allowed.has(name)` however it is written.
 */
const LIBRARY_CONTRACT = new Set(["lib/mcp/client/allowlist.ts"]);

Deno.test("no worked solution's text is in the release, but for the library's own allowlist", async () => {
  const all = await files();
  const blocks = await solutionBlocks();
  assert.ok(blocks.length >= 6);
  for (const { where, text } of blocks) {
    const found = holding(all, text).filter((name) => !LIBRARY_CONTRACT.has(name));
    assert.deepEqual(found, [], `${where}'s solution is in ${found.join(", ")}`);
  }
});

Deno.test("the release's student editions run clean under the kernel", async () => {
  const work = await Deno.makeTempDir({ dir: scratch });
  for await (const entry of Deno.readDir(`${release}/notebooks`)) {
    const { text } = await runNotebook(`${release}/notebooks/${entry.name}`, {
      env: { COURSE_WORK: work },
    });
    assert.doesNotMatch(text, /HOLDOUT_RESULT/);
  }
});

/** The release's self-check on its student edition of `unit` with the worked graded cells put back. */
async function selfCheck(unit: string) {
  const worked = parseNotebook(await Deno.readTextFile(`${root}solutions/${unit}.ipynb`), "worked");
  const notebook = parseNotebook(
    await Deno.readTextFile(`${release}/notebooks/${unit}.ipynb`),
    "student",
  );
  const graded = new Set(UNITS.get(unit)!.functions.map((fn) => fn.cell));
  for (const cell of notebook.cells) {
    if (graded.has(cell.id)) cell.source = worked.cells.find((c) => c.id === cell.id)!.source;
  }
  const completed = `${scratch}/${unit}.ipynb`;
  await Deno.writeTextFile(completed, JSON.stringify(notebook));
  const json = `${scratch}/self-check-${unit}.json`;
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "grade", completed, "--json", json],
    cwd: release,
    stderr: "piped",
    stdout: "null",
  }).output();
  assert.equal(code, 0);
  assert.match(new TextDecoder().decode(stderr), /no hidden cases/);
  return JSON.parse(await Deno.readTextFile(json));
}

Deno.test("the release's self-check grades a completed student edition to full marks on the visible cases", async () => {
  const results = await selfCheck("ch14-b");
  assert.equal(results.score, results.max_score);
  const visible = UNITS.get("ch14-b")!.functions.reduce((sum, fn) => sum + fn.cases.length, 0);
  assert.equal(results.max_score, visible, "every visible case, and no other");
  assert.ok(!results.tests.some((t: { name: string }) => t.name.includes("hidden")));
});

Deno.test("without the worked edition, the self-check runs Lab 02's tests against the learner's own client", async () => {
  const results = await selfCheck("lab-02");
  assert.equal(results.score, results.max_score);
  const visible = UNITS.get("lab-02")!.functions.reduce((sum, fn) => sum + fn.cases.length, 0);
  assert.equal(results.max_score, visible);
  assert.ok(
    results.tests.some((t: { name: string }) =>
      t.name.startsWith("testClientCleansUpOnException: ")
    ),
  );
});

Deno.test("the release's set-up refuses the hub, which stays with the instructors, and says so", async () => {
  const setup = await new Deno.Command("sh", {
    args: [`${release}/tools/setup.sh`, "hub"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(setup.code, 1);
  assert.match(new TextDecoder().decode(setup.stderr), /no workshop hub \(tools\/hub\/\)/);
  assert.equal(new TextDecoder().decode(setup.stdout), "", "nothing was installed first");
});
