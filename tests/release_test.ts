// The learners' release (`deno task release`), built at a path with a space:
// it holds no hidden case, no expected value only a hidden case has, and no
// worked solution; its notebooks run clean under the kernel; and its grader
// grades a completed student edition to full marks on the visible cases.

import assert from "node:assert/strict";
import { fileURLToPath, pathToFileURL as toFileUrl } from "node:url";
import { parseNotebook, sourceOf } from "../tools/editions/notebook.ts";
import { loadHoldouts, UNITS } from "../tools/grading/units/mod.ts";
import { loadWatermark } from "../tools/grading/watermark.ts";
import { runNotebook } from "../tools/run_notebook.ts";
import { blockForms, bodyForm, MIN_TOKENS } from "../tools/grading/code_form.ts";
import { packageOf } from "../tools/autograder/pruned_lock.ts";
import { certificateSettings, setUpCourse } from "./_gradescope.ts";
import { sealedModules } from "../tools/release/sealed.ts";
import { WITHHELD } from "../tools/release/withheld.ts";
import { STARTER_HUSK } from "../tools/grading/library_copies.ts";

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

/**
 * `all` with each seal's text replaced by the module it seals: a seal holds
 * what its module holds, obfuscated, and its own text is letters at random,
 * where a short label (`id 0`) turns up by chance.
 */
async function unsealed(all: Map<string, string>): Promise<Map<string, string>> {
  const found = new Map(all);
  for (const name of all.keys()) {
    if (!name.endsWith(".sealed.js")) continue;
    found.set(name, await Deno.readTextFile(`${root}${name.replace(/\.sealed\.js$/, ".ts")}`));
  }
  return found;
}

/** The release as built, before any test runs its notebooks (which add work/ and node_modules/). */
const released = await files();
// Set up, as far as this machine is not already (Deno's cache, JupyterLab): the pins in place.
await Deno.copyFile(`${release}/tools/deno.lock`, `${release}/deno.lock`);

Deno.test("the release holds no worked edition, no hidden case and no test", async () => {
  const all = await unsealed(await files());
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

Deno.test("the release holds none of the seals' watermark's secrets in readable form", async () => {
  const watermark = (await loadWatermark())!;
  for (const secret of [watermark.probe, watermark.token, watermark.control]) {
    assert.deepEqual(holding(released, secret), [], secret);
    assert.deepEqual(holding(released, secret.slice(-12)), [], secret.slice(-12));
  }
});

Deno.test("no worked solution's text is in the release, the allowlist's one line included", async () => {
  const all = await files();
  const blocks = await solutionBlocks();
  assert.ok(blocks.length >= 6);
  for (const { where, text } of blocks) {
    const found = holding(all, text);
    assert.deepEqual(found, [], `${where}'s solution is in ${found.join(", ")}`);
  }
});

/**
 * Each graded function's body, as the worked edition writes it (its cell and
 * the cells of its later steps) and as the library's own copy of it does.
 */
async function gradedBodies(): Promise<{ where: string; body: string | undefined }[]> {
  const bodies = [];
  for (const spec of UNITS.values()) {
    const worked = parseNotebook(
      await Deno.readTextFile(`${root}solutions/${spec.unit}.ipynb`),
      spec.unit,
    );
    for (const fn of spec.functions) {
      const cells = [fn.cell, ...fn.parts ?? []];
      const source = worked.cells.filter((cell) => cells.includes(cell.id)).map(sourceOf)
        .join("\n");
      bodies.push({ where: `${spec.unit} ${fn.name} (worked)`, body: bodyForm(source, fn.name) });
      for (const { file, name } of fn.library ?? []) {
        bodies.push({
          where: `${spec.unit} ${fn.name} (${file}'s ${name})`,
          body: bodyForm(await Deno.readTextFile(`${root}${file}`), name),
        });
      }
    }
  }
  return bodies;
}

/** The code of a release file: a module's text, or a notebook's code cells. */
function codeOf(name: string, text: string): string | undefined {
  if (/\.(ts|mts|js|mjs)$/.test(name)) return text;
  if (name.endsWith(".ipynb")) {
    return parseNotebook(text, name).cells.filter((cell) => cell.cell_type === "code")
      .map(sourceOf).join("\n");
  }
  return undefined;
}

Deno.test("no graded function's body, in any formatting, is in the release", async () => {
  const forms = new Map<string, string[]>();
  for (const [name, text] of await files()) {
    const code = codeOf(name, text);
    if (code === undefined) continue;
    for (const form of blockForms(code)) forms.set(form, [...forms.get(form) ?? [], name]);
  }
  const found = [];
  for (const { where, body } of await gradedBodies()) {
    assert.ok(body !== undefined, `${where}: no body found to look for`);
    // A body shorter than this is the rule stated in words (the allowlist's one line).
    if (body.split(" ").length < MIN_TOKENS) continue;
    if (forms.has(body)) found.push(`${where} is in ${forms.get(body)!.join(", ")}`);
  }
  assert.deepEqual(found, []);
});

Deno.test("the release's self-check of a learner's copy not made yet says what makes it", async () => {
  // Before `deno task lab` had run, `deno task grade work/ch14-b.ipynb`, as the README says it,
  // said only "no such file or folder".
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "grade", "work/ch14-b.ipynb"],
    cwd: release,
    stderr: "piped",
    stdout: "null",
  }).output();
  assert.equal(code, 2);
  assert.match(
    new TextDecoder().decode(stderr),
    /^grade: work\/ch14-b\.ipynb: no such file or folder; `deno task lab` makes your copy of each unit in work\/, or `deno task starter ch14-b` this one$/m,
  );
});

Deno.test("the release's student editions run clean under the kernel, revealing no answer before its prediction", async () => {
  const work = await Deno.makeTempDir({ dir: scratch });
  for await (const entry of Deno.readDir(`${release}/notebooks`)) {
    const { text } = await runNotebook(`${release}/notebooks/${entry.name}`, {
      env: { COURSE_WORK: work },
    });
    assert.doesNotMatch(text, /HOLDOUT_RESULT/);
    // Run All of an untouched copy: every step that shows a predicted answer waits for it.
    assert.doesNotMatch(text, /You wrote no prediction first/, entry.name);
  }
});

/**
 * The release's self-check on its student edition of `unit` with the worked
 * graded cells put back, but for those `cells` gives (by id).
 */
async function selfCheck(unit: string, cells: Record<string, string> = {}) {
  const worked = parseNotebook(await Deno.readTextFile(`${root}solutions/${unit}.ipynb`), "worked");
  const notebook = parseNotebook(
    await Deno.readTextFile(`${release}/notebooks/${unit}.ipynb`),
    "student",
  );
  const graded = new Set(UNITS.get(unit)!.functions.map((fn) => fn.cell));
  for (const cell of notebook.cells) {
    if (Object.hasOwn(cells, cell.id)) cell.source = cells[cell.id];
    else if (graded.has(cell.id)) {
      cell.source = worked.cells.find((c) => c.id === cell.id)!.source;
    }
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

Deno.test("the release holds Unit A's answerFor and authorize withheld: no seal of either, its Client works with the learner's own and names the option without", async () => {
  // The release held both seals: pasted behind a type guard or a rethrow, a seal kept full marks.
  for (const file of ["lib/mcp/client/answer", "lib/mcp/client/allowlist"]) {
    assert.ok(!released.has(`${file}.sealed.js`), file);
  }
  const outcomes = await evalInRelease(`
    import { Client } from "./lib/mcp/client/client.ts";
    import { answerFor } from "./lib/mcp/client/answer.ts";
    import { authorize } from "./lib/mcp/client/allowlist.ts";
    import { freshLog, serverCommand } from "./lib/course/course.ts";
    import * as yours from ${JSON.stringify(UNIT_A)};
    const outcomes = {};
    const said = (error) => error.name + ": " + error.message;
    for (const [name, run] of [
      ["answerFor", () => answerFor(1, { jsonrpc: "2.0", id: 1, result: {} })],
      ["authorize", () => authorize("word_count", { word_count: {} }, new Set(["word_count"]))],
    ]) {
      try {
        outcomes[name] = run();
      } catch (error) {
        outcomes[name] = error.name;
      }
    }
    // The learner's own, as Unit A has them written (the library's are withheld).
    const mine = { answer: yours.answerFor, authorize: yours.authorize };
    async function calls(mode, checks, ...texts) {
      const client = new Client(serverCommand(mode, await freshLog("release-" + mode)), {
        allowed: ["word_count"],
        ...checks,
      });
      const answers = [];
      try {
        await client.initialize();
        await client.listTools();
        for (const text of texts) answers.push(await client.callTool("word_count", { text }));
      } catch (error) {
        answers.push(said(error));
      } finally {
        await client.close();
      }
      return answers;
    }
    outcomes.neither = await calls("normal", {}, "one two");
    outcomes.answerOnly = await calls("normal", { answer: mine.answer }, "one two");
    outcomes.both = await calls("normal", mine, "one two");
    outcomes.stale = await calls("stale", mine, "vanilla stock needs review", "one two three");
    const purchase = new Client(serverCommand("normal", await freshLog("release-purchase")), {
      allowed: ["word_count"],
      ...mine,
    });
    try {
      await purchase.initialize();
      await purchase.listTools();
      await purchase.callTool("place_purchase", { flavor: "vanilla", tubs: 1 });
      outcomes.purchase = "sent";
    } catch (error) {
      outcomes.purchase = said(error);
    } finally {
      await purchase.close();
    }
    console.log(JSON.stringify(outcomes));
  `) as Record<string, string | string[]>;
  assert.equal(outcomes.answerFor, "WithheldError");
  assert.equal(outcomes.authorize, "WithheldError");
  // With no answer, the first reply is refused, in one line naming the option; nothing is accepted.
  assert.equal(outcomes.neither.length, 1);
  assert.match(
    outcomes.neither[0],
    /^ProtocolError: A reply cannot be checked: answerFor \(lib\/mcp\/client\/answer\.ts\) is withheld from the learners' release: Unit A has you write it; .*; pass your answerFor as the Client's answer option$/,
  );
  // With no authorize, no tool is called, and the refusal names the option.
  assert.match(
    outcomes.answerOnly[0],
    /^PermissionDenied: No tool is called: authorize \(lib\/mcp\/client\/allowlist\.ts\) is withheld .*; pass your authorize as the Client's authorize option$/,
  );
  assert.ok(![outcomes.neither, outcomes.answerOnly].flat().some((line) => line.includes("\n")));
  // With both, it answers, refuses the stale reply with the learner's check, and the purchase.
  assert.deepEqual(outcomes.both, ["2"]);
  assert.deepEqual(outcomes.stale, [
    "4",
    "ProtocolError: The reply's id 3 does not match the request's id 4",
  ]);
  assert.match(
    outcomes.purchase as string,
    /^PermissionDenied: The tool place_purchase is advertised but not allowed/,
  );
  // The learners' README says where a Client of their own takes them.
  assert.match(
    released.get("README.md")!,
    /a `Client` of your own takes them as its `answer` and `authorize` options/,
  );
  // The self-check takes a completed Unit A for the learner's own, with no seal to compare it to.
  const results = await selfCheck("ch14-a");
  assert.equal(results.score, results.max_score);
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

Deno.test("the release imports only packages its code names, so a learner's first deno task fetches no other", () => {
  // It imported every package of the instructors' deno.json (StrykerJS, playwright-core,
  // fast-check, the obfuscator...): a fresh `deno task lab` fetched 151 packages, 111 MB, first.
  const { imports } = JSON.parse(released.get("import_map.json")!);
  const code = [...released].filter(([name]) => /\.(ts|mts|js|ipynb)$/.test(name));
  // A prefix entry (`ajv/`) is the one `deno.json` implies for its package.
  const unnamed = Object.keys(imports).filter((name) =>
    !name.endsWith("/") && !code.some(([, text]) => text.includes(name))
  );
  assert.deepEqual(unnamed, []);
  const lock = JSON.parse(released.get("tools/deno.lock")!);
  const imported = Object.values(imports as Record<string, string>).map(packageOf);
  assert.deepEqual(lock.workspace.dependencies, [...new Set(imported)].sort());
});

Deno.test("a learner who is not root, where npm's global folder is root's, is told set-up needs root for Deno", async () => {
  // npm install -g wrote to /usr/lib/node_modules as the learner: npm's EACCES and its stack.
  const machine = await Deno.makeTempDir({ dir: "/tmp", prefix: "not root " });
  try {
    await Deno.chmod(machine, 0o755);
    // Debian's programs, but no Deno yet and no sudo to become root with.
    await Deno.mkdir(`${machine}/bin`);
    for await (const { name } of Deno.readDir("/usr/bin")) {
      if (name !== "deno" && name !== "sudo") {
        await Deno.symlink(`/usr/bin/${name}`, `${machine}/bin/${name}`);
      }
    }
    await Deno.mkdir(`${machine}/course/tools`, { recursive: true });
    await Deno.copyFile(`${release}/tools/setup.sh`, `${machine}/course/tools/setup.sh`);
    await Deno.mkdir(`${machine}/home`);
    await Deno.chown(`${machine}/home`, 65534, 65534);
    const setup = await new Deno.Command("setpriv", {
      args: ["--reuid=65534", "--regid=65534", "--clear-groups", "sh", "course/tools/setup.sh"],
      cwd: machine,
      env: { HOME: `${machine}/home`, PATH: `${machine}/bin`, LANG: "C.UTF-8" },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const said = new TextDecoder().decode(setup.stdout) + new TextDecoder().decode(setup.stderr);
    assert.equal(setup.code, 1, said);
    assert.match(said, /^setup: need root for: npm install -g .*deno@2\.9\.6$/m);
    assert.doesNotMatch(said, /npm error/);
  } finally {
    await Deno.remove(machine, { recursive: true });
  }
});

/** A Python 3.10, Ubuntu 22.04's, from the image's pyenv, when it has one. */
const python310 = await (async () => {
  const versions = `${Deno.env.get("HOME")}/.pyenv/versions`;
  const found = await Array.fromAsync(Deno.readDir(versions)).catch(() => []);
  const version = found.map(({ name }) => name).find((name) => name.startsWith("3.10."));
  return version === undefined ? undefined : `${versions}/${version}/bin/python3`;
})();

Deno.test({
  name: "on a machine whose Python is older than JupyterLab's pins ask, set-up says so",
  ignore: python310 === undefined,
  async fn() {
    // On Ubuntu 22.04's Python 3.10, pip failed to resolve the pins and printed its conflict.
    const machine = await Deno.makeTempDir({ prefix: "old python " });
    try {
      const course = `${machine}/course`;
      await Deno.mkdir(course);
      await new Deno.Command("cp", { args: ["-R", `${release}/.`, course] }).output();
      // The Inspector as set-up installs it, so that this run fetches nothing.
      await Deno.remove(`${course}/tools/inspector/node_modules`, { recursive: true })
        .catch(() => {});
      await Deno.symlink(
        `${root}tools/inspector/node_modules`,
        `${course}/tools/inspector/node_modules`,
      );
      await Deno.mkdir(`${machine}/bin`);
      for await (const { name } of Deno.readDir("/usr/bin")) {
        if (!["apt-get", "sudo", "python3", "deno"].includes(name)) {
          await Deno.symlink(`/usr/bin/${name}`, `${machine}/bin/${name}`);
        }
      }
      await Deno.symlink(python310!, `${machine}/bin/python3`);
      await Deno.symlink(Deno.execPath(), `${machine}/bin/deno`);
      const { said } = await setUpCourse(course, {
        HOME: machine,
        PATH: `${machine}/bin`,
        DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
        ...certificateSettings(),
      });
      assert.match(
        said,
        /^setup: warning: JupyterLab's pins need Python 3\.11 or later, and python3 here is Python 3\.10\.\d+: deno task lab needs a newer one/m,
      );
      assert.doesNotMatch(said, /ResolutionImpossible|installing JupyterLab/);
    } finally {
      await Deno.remove(machine, { recursive: true });
    }
  },
});

/**
 * The course paths a shell script names (`"$COURSE/…"`, or a variable set to
 * one, alone or with a path after it), and the folders it checks for first
 * (`[ -d … ]`), which a copy of the course may lack.
 */
function scriptPaths(script: string): { named: string[]; checkedFirst: string[] } {
  const folders = new Map([["COURSE", ""]]);
  for (const [, name, path] of script.matchAll(/^\s*(\w+)="\$COURSE\/([^"$]*)"$/gm)) {
    folders.set(name, `${path}/`);
  }
  const paths = (pattern: RegExp) =>
    [...script.matchAll(pattern)].filter(([, name]) => folders.has(name))
      .map(([, name, rest = ""]) => `${folders.get(name)}${rest.slice(1)}`.replace(/\/$/, ""))
      .filter((path) => path !== "");
  return {
    named: paths(/\$\{?(\w+)\}?(\/[\w.@/-]*)?/g),
    checkedFirst: paths(/-d "\$\{?(\w+)\}?(\/[\w.@/-]*)?"/g),
  };
}

Deno.test("the release holds every file of the course that its set-up names", async () => {
  // tools/setup.sh copied tools/jupyter/overrides.json and ran tools/jupyter/register_kernel.sh,
  // which the release did not hold: on a fresh machine, set-up stopped after JupyterLab.
  const { named, checkedFirst } = scriptPaths(released.get("tools/setup.sh")!);
  assert.ok(named.includes("tools/jupyter/register_kernel.sh"), named.join(", "));
  const { stdout } = await new Deno.Command("git", { args: ["ls-files", "-z"], cwd: root })
    .output();
  const tracked = new TextDecoder().decode(stdout).split("\0").filter((file) => file !== "");
  const under = (file: string, path: string) => file === path || file.startsWith(`${path}/`);
  const missing = named.filter((path) => !checkedFirst.some((folder) => under(path, folder)))
    .flatMap((path) => tracked.filter((file) => under(file, path) && !released.has(file)));
  assert.deepEqual([...new Set(missing)], []);
});

Deno.test("the release names no file or folder it does not hold, and how it was handed out", () => {
  // cases/ pointed to holdouts/, and the README said `git pull`, which an unpacked archive has not.
  const all = released;
  const named =
    /`((?:lib|servers|schemas|cases|holdouts|solutions|tests|tools|notebooks|bench)\/[\w./-]*)`/g;
  const missing: string[] = [];
  for (const [name, text] of all) {
    if (name.endsWith(".sealed.js") || name.endsWith("deno.lock")) continue;
    for (const [, path] of text.matchAll(named)) {
      // MCP's methods (`tools/list`) are not files; nor are patterns (`notebooks/UNIT.ipynb`).
      if (/^tools\/(list|call)$/.test(path) || /\b[A-Z]{3,}\b/.test(path)) continue;
      const held = [...all.keys()].some((file) =>
        file === path || file.startsWith(path.replace(/\/?$/, "/"))
      );
      if (!held) missing.push(`${name}: ${path}`);
    }
  }
  assert.deepEqual([...new Set(missing)], []);
  const readme = all.get("README.md")!;
  for (const way of ["git clone", "nbgitpuller", "archive"]) {
    assert.ok(readme.includes(way), `the README does not say what to do with ${way}`);
  }
});

Deno.test("a clone of the release shows nothing set-up, JupyterLab or the units put in the course folder", async () => {
  // A new learner's clone, set up and run through Chapter 15, showed `node_modules/` (84 MB, the
  // filesystem server's packages) and `tools/inspector/node_modules/` as untracked: the release's
  // .gitignore named only work/ and .venv/, so `git add -A` took them in.
  const clone = await Deno.makeTempDir({ dir: scratch, prefix: "clone " });
  await Deno.copyFile(`${release}/.gitignore`, `${clone}/.gitignore`);
  const written = [
    "work/.gitkeep",
    "work/ch14-a.ipynb",
    "work/ch14-a/ch14-unit-a-handoff-v1.json",
    "deno.lock", // tools/setup.sh: the pins in place
    ".venv/bin/python", // tools/setup.sh
    "tools/inspector/node_modules/@modelcontextprotocol/inspector/package.json", // tools/setup.sh
    "node_modules/@modelcontextprotocol/server-filesystem/package.json", // Chapter 15
    "notebooks/.ipynb_checkpoints/ch14-a-checkpoint.ipynb", // JupyterLab, a handout opened
    "notebooks/.your-unit-a-1a2b3c.mts", // a handout's kernel, killed as it loaded Unit A
  ];
  for (const path of written) {
    await Deno.mkdir(`${clone}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${clone}/${path}`, "");
  }
  const git = (...args: string[]) =>
    new Deno.Command("git", { args, cwd: clone, stdout: "piped" }).output();
  assert.ok((await git("init", "-q")).success);
  const { stdout } = await git("status", "--porcelain", "--untracked-files=all");
  assert.deepEqual(new TextDecoder().decode(stdout).trim().split("\n").sort(), [
    "?? .gitignore",
    "?? work/.gitkeep",
  ]);
});

Deno.test("the release's set-up never has npm advise updating npm itself", () => {
  // A new learner's set-up printed npm's "New minor version of npm available! ... To update run:
  // npm install -g npm@11.21.3" (npm shows it, --loglevel=error or not, in a new HOME): advice to
  // change the machine's npm, which the course neither needs nor asks for.
  const commands = released.get("tools/setup.sh")!.split("\n")
    .filter((line) => /^\s*(as_root )?npm (install|ci)\b/.test(line));
  assert.ok(commands.length >= 2, commands.join("\n"));
  assert.deepEqual(commands.filter((line) => !line.includes("--no-update-notifier")), []);
});

Deno.test("the release's README says what to hand in: the saved notebook, with its submission JSON", () => {
  // A new learner who followed the README to the end found no word of what to hand in: not the
  // notebook, nor that the grader reads it as saved, nor that the submission JSON alone earns nothing.
  const readme = released.get("README.md")!;
  const section = readme.split(/^### /m).find((part) => part.startsWith("Handing in"));
  assert.ok(section !== undefined, "the README has no section on handing in");
  assert.match(section, /`work\/UNIT\.ipynb`/);
  assert.match(section, /`work\/lab-01\.ipynb`/);
  assert.match(section, /saved first \(File → Save Notebook/);
  assert.match(section, /`work\/lab-01\/lab-01-submission-v1\.json`/);
  assert.match(section, /The JSON alone earns nothing/);
});

Deno.test("the release's README says which Client options take your splitFrames and your sseData", () => {
  // A new learner using the release's Client over HTTP met a ProtocolError naming the withheld SSE
  // reader, and over stdio read a 200,000-byte line whole: the README said the starter reads with
  // no byte limit "until you pass yours" and that the SSE reader is withheld, but not where to pass.
  const readme = released.get("README.md")!;
  assert.match(
    readme,
    /no byte limit until you pass yours \(the `Client`'s `splitFrames` option\)/,
  );
  assert.match(readme, /only with your Lab 04 `sseData`, passed as its `sseData` option/);
});

Deno.test("the release's README says what to do with a notebook moved out of work/, or worked in as a handout", () => {
  // A learner's copy moved into work/sub/ stopped at its first cell with Deno's
  // `Module not found ".../work/cases/ch14_a.ts"`, and the README said nothing of it, nor of work
  // typed into notebooks/, which the grader never reads.
  const readme = released.get("README.md")!;
  assert.match(readme, /Module not found/);
  assert.match(readme, /drag it back into `work\/`/);
  assert.match(
    readme,
    /What you write in a handout, `notebooks\/ch14-b\.ipynb` say, is graded by nobody/,
  );
});

Deno.test("the release's README says how to stop JupyterLab, and how to serve it on another port", () => {
  // A new learner who followed the README found no word of how to stop `deno task lab` once done
  // (Jupyter's own log says Control-C, among forty lines), nor of how to serve on a port other than
  // 8888 when it is taken; and its ssh forward named 8888 where JupyterLab, finding its port taken,
  // had moved to the next one.
  const readme = released.get("README.md")!;
  const learners = readme.slice(readme.indexOf("## Learners:"));
  assert.match(
    learners,
    /\*\*To stop it\*\*, press Ctrl-C in the terminal where `deno task lab` runs/,
  );
  assert.match(learners, /Closing the browser.s tab leaves it running/);
  assert.match(learners, /`deno task lab --port=8899`/);
  assert.match(learners, /the address it prints is the one to open, and to forward/);
});

Deno.test("the release's README asks for git only of a learner who clones the course", () => {
  // A new learner with the release's archive read that set-up needs git, which nothing of an
  // unpacked archive runs (tools/setup.sh calls no git).
  const readme = released.get("README.md")!;
  const learners = readme.slice(readme.indexOf("## Learners:"));
  const needs = learners.match(/^On a .* machine with (.*?), in the course folder/m);
  assert.ok(needs, "the README does not say what set-up needs");
  assert.doesNotMatch(needs[1], /\bgit\b/);
  assert.match(
    learners,
    /an unpacked archive needs nothing more; git only if you clone the course/,
  );
  assert.doesNotMatch(released.get("tools/setup.sh")!, /^\s*git\b/m);
});

Deno.test("each sealed module in the release shows what it exports, with its documentation", async () => {
  // The stub held one line, `export * from "./framing.sealed.js"`: the lessons name readFrames and
  // schemaProblems, whose documentation a learner could not read.
  const all = released;
  const stubs = [...all].filter(([name]) =>
    name.endsWith(".ts") && all.has(name.replace(/\.ts$/, ".sealed.js"))
  );
  // Each module of a graded function's library copy that the release does not withhold.
  const shipped = sealedModules(UNITS).filter((file) => !(file in WITHHELD));
  assert.deepEqual(stubs.map(([name]) => name).sort(), shipped);
  for (const [name, stub] of stubs) {
    const source = await Deno.readTextFile(`${root}${name}`);
    for (
      const [, exported] of source.matchAll(
        /^export (?:async )?(?:function\*?|class|const) (\w+)/gm,
      )
    ) {
      assert.ok(stub.includes(exported), `${name} does not show ${exported}`);
    }
  }
  // The framing ships readable: Unit B's splitFrames is a module of its own.
  assert.match(all.get("lib/mcp/shared/framing.ts")!, /^export async function\* readFrames\(/m);
  assert.ok(!all.has("lib/mcp/shared/framing.sealed.js"));
  // The client's ajv check ships readable: Unit B's check by hand is a module of its own.
  assert.match(all.get("lib/mcp/shared/schema.ts")!, /^export function schemaProblems\(/m);
  assert.ok(!all.has("lib/mcp/shared/schema.sealed.js"));
});

/** What `code` prints when `deno eval` runs it in the release's folder, as JSON. */
async function evalInRelease(code: string): Promise<unknown> {
  const { code: exit, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    cwd: release,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(exit, 0, new TextDecoder().decode(stderr));
  return JSON.parse(new TextDecoder().decode(stdout));
}

/**
 * The worked Unit A's `answerFor` and `authorize`, as a module of a learner's
 * own beside the release (which holds neither): its URL, for the release's
 * `Client`'s `answer` and `authorize` options.
 */
const UNIT_A = await (async () => {
  const worked = parseNotebook(await Deno.readTextFile(`${root}solutions/ch14-a.ipynb`), "worked");
  const cell = (id: string) =>
    sourceOf(worked.cells.find((cell) => cell.id === id)!).replace(
      /^function /m,
      "export function ",
    );
  const errors = toFileUrl(`${release}/lib/mcp/shared/errors.ts`).href;
  const module = `${scratch}/unit a.ts`;
  await Deno.writeTextFile(
    module,
    [
      `import { ProtocolError } from ${JSON.stringify(errors)};`,
      cell("answer-for"),
      cell("authorize"),
    ]
      .join("\n"),
  );
  return toFileUrl(module).href;
})();

Deno.test("the release's course serves a request of today with no Deno.serve warning for a learner to read", async () => {
  // Lab 04's probes cell showed a learner Deno's own notice, "Deno.serve: request.signal aborts on
  // successful responses (legacy behavior)...", which said nothing of their work: serveHttp reads a
  // request's signal to learn that its client went away, which the corrected behaviour tells.
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `
      import { Client } from "./lib/mcp/client/client.ts";
      import { serveHttp } from "./lib/mcp/server/http_server.ts";
      import { MCP_VERSIONS } from "./lib/mcp/shared/versions.ts";
      import { answerFor } from ${JSON.stringify(UNIT_A)};
      await using server = serveHttp({ name: "s", version: "1.0.0", tools: [] });
      await using client = new Client(server.url, { versions: MCP_VERSIONS, answer: answerFor });
      await client.initialize();
      await client.listTools();
    `,
    ],
    cwd: release,
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(new TextDecoder().decode(stderr), "");
  assert.equal(code, 0);
});

Deno.test("the release holds Lab 03's mask withheld: no seal of it, and no Lab 03 case's schema, visible or hidden, compiles", async () => {
  // The release held lib/mask/object_grammar.sealed.js and json_chars.sealed.js: a learner could
  // run them where Lab 03 is graded, and every case of its four mask functions was answered.
  for (const file of Object.keys(WITHHELD)) {
    assert.ok(
      !released.has(file.replace(/\.ts$/, ".sealed.js")),
      `${file}'s seal is in the release`,
    );
  }
  const holdouts = (await loadHoldouts())!.get("lab-03")!;
  const schemas = new Set<string>();
  for (const fn of UNITS.get("lab-03")!.functions) {
    if (fn.library === undefined) continue;
    for (const testCase of [...fn.cases, ...holdouts[fn.name] ?? []]) {
      schemas.add(JSON.stringify(testCase.args[0]));
    }
  }
  const json = `${scratch}/lab-03 schemas.json`;
  await Deno.writeTextFile(json, JSON.stringify([...schemas].map((text) => JSON.parse(text))));
  const outcomes = await evalInRelease(`
    import { compileJsonSchema, o200kVocabulary } from "./lib/mask/mod.ts";
    const vocabulary = o200kVocabulary();
    const outcomes = [];
    for (const schema of JSON.parse(await Deno.readTextFile(${JSON.stringify(json)}))) {
      try {
        compileJsonSchema(schema, vocabulary);
        outcomes.push("compiled " + JSON.stringify(schema));
      } catch (error) {
        outcomes.push(error.name);
      }
    }
    console.log(JSON.stringify(outcomes));
  `) as string[];
  assert.ok(schemas.size >= 10, `${schemas.size} schemas`);
  assert.deepEqual(outcomes, Array(schemas.size).fill("WithheldError"));
});

Deno.test("the release holds Unit B's transferProblems, which nothing in it runs, withheld: no seal of it, and it throws", async () => {
  // The release held it in the seal of lib/mcp/shared/schema.ts, the ajv wrapper the client uses.
  const file = "lib/mcp/shared/transfer_problems.ts";
  assert.ok(!released.has(file.replace(/\.ts$/, ".sealed.js")));
  assert.ok(
    ![...released.keys()].some((name) =>
      name.startsWith("lib/mcp/shared/schema.") &&
      name.endsWith(".sealed.js")
    ),
  );
  const outcome = await evalInRelease(`
    import { transferProblems } from "./lib/mcp/mod.ts";
    const schema = { type: "object", required: ["verb"] };
    try {
      console.log(JSON.stringify(transferProblems(schema, {})));
    } catch (error) {
      console.log(JSON.stringify(error.name));
    }
  `);
  assert.equal(outcome, "WithheldError");
});

Deno.test("the release holds Lab 04's SSE reader withheld: no seal of it, and its HTTP Client reads an event stream only with the learner's sseData", async () => {
  // The release held lib/mcp/shared/sse.sealed.js: behind a type guard, the seal earned sseData 11/12.
  assert.ok(
    ![...released.keys()].some((name) => /^lib\/mcp\/shared\/.*sse.*\.sealed\.js$/.test(name)),
  );
  const outcomes = await evalInRelease(`
    import { Client } from "./lib/mcp/client/client.ts";
    import { serveHttp } from "./lib/mcp/server/http_server.ts";
    import { readSseEvents, sseEvent } from "./lib/mcp/shared/sse.ts";
    import { answerFor, authorize } from ${JSON.stringify(UNIT_A)};
    const outcomes = {};
    const text = sseEvent({ id: "e1", data: "one" });
    try {
      await Array.fromAsync(readSseEvents(ReadableStream.from([new TextEncoder().encode(text)])));
      outcomes.readSseEvents = "read";
    } catch (error) {
      outcomes.readSseEvents = error.name;
    }
    // A call that reports progress is answered with an event stream.
    const tool = {
      name: "slow",
      description: "Reports progress, then answers.",
      inputSchema: { type: "object", properties: {} },
      run: (_args, context) => {
        context.progress(1, 2);
        return { content: [{ type: "text", text: "done" }], isError: false };
      },
    };
    await using server = serveHttp({ name: "s", version: "1.0.0", tools: [], sessionTools: [tool] });
    // A learner's sseData, as Lab 04's worked edition writes it (event data, one line each).
    const sseData = (text) => {
      const lines = text.split(/\\r\\n|\\r|\\n/);
      lines.pop();
      const events = [];
      let data = [];
      for (const line of lines) {
        if (line === "") {
          if (data.length > 0) events.push(data.join("\\n"));
          data = [];
        } else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      return events;
    };
    for (const [how, options] of [["without", {}], ["with", { sseData }]]) {
      const client = new Client(server.url, {
        allowed: ["slow"],
        timeoutMs: 5000,
        answer: answerFor,
        authorize,
        ...options,
      });
      try {
        await client.initialize();
        await client.listTools();
        const progress = [];
        const answer = await client.callTool("slow", {}, { onProgress: (p) => progress.push(p.progress) });
        outcomes[how] = answer + " after progress " + progress.join();
      } catch (error) {
        outcomes[how] = error.name + ": " + error.message;
      } finally {
        await client.close();
      }
    }
    console.log(JSON.stringify(outcomes));
  `) as Record<string, string>;
  assert.equal(outcomes.readSseEvents, "WithheldError");
  assert.match(
    outcomes.without,
    /^ProtocolError: .*An event stream cannot be read: readSseEvents \(lib\/mcp\/shared\/read_sse_events\.ts\) is withheld .* Lab 04 has you write it; the course runs your sseData in its place; pass your sseData as the Client's sseData option$/,
  );
  assert.equal(outcomes.with, "done after progress 1");
});

Deno.test("each withheld module in the release exports its module's names, each a function that throws a WithheldError naming it", async () => {
  // A module withheld with its unit's starter as its husk runs: see Unit B's splitFrames below.
  for (const file of Object.keys(WITHHELD).filter((file) => !WITHHELD[file].starter)) {
    const names = Object.keys(await import(`${root}${file}`)).sort();
    const thrown = await evalInRelease(`
      const module = await import("./${file}");
      const thrown = {};
      for (const name of Object.keys(module).sort()) {
        try {
          module[name]();
          thrown[name] = "returned";
        } catch (error) {
          thrown[name] = error.name + ": " + error.message;
        }
      }
      console.log(JSON.stringify(thrown));
    `) as Record<string, string>;
    assert.deepEqual(Object.keys(thrown), names, file);
    const { unit, recorded, yours } = WITHHELD[file];
    for (const name of names) {
      const why = `WithheldError: ${name} (${file}) is withheld from the learners' release: ` +
        `${unit} has you write it; `;
      assert.ok(thrown[name].startsWith(why), thrown[name]);
      const instead = recorded ??
        (yours === undefined ? "nothing in the course runs" : `your ${yours}`);
      assert.ok(thrown[name].includes(instead), thrown[name]);
    }
    assert.match(released.get(file)!, /What it exports, as `deno doc` shows it/, file);
  }
});

/**
 * `deno task grade` of each of `notebooks` (ch14-b, by path) run in `folder`
 * (the release, or the instructors' repository): for each, its splitFrames
 * rows, `{ name, score, output }`.
 */
async function splitFramesRows(folder: string, notebooks: string[]) {
  const json = `${scratch}/split-frames-${crypto.randomUUID()}.json`;
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "grade", ...notebooks, "--json", json],
    cwd: folder,
    stderr: "piped",
    stdout: "null",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  // One object for one submission, an array for several.
  const results: { tests: { name: string; score: number; output: string }[] }[] = [
    JSON.parse(await Deno.readTextFile(json)),
  ].flat();
  return results.map(({ tests }) => tests.filter((t) => t.name.startsWith("splitFrames: ")));
}

/** The sum of `rows`' scores. */
const scored = (rows: { score: number }[]) => rows.reduce((sum, row) => sum + row.score, 0);

Deno.test("the release holds Unit B's splitFrames as the unit's starter, no seal of it", async () => {
  // The release held framing.sealed.js, splitFrames with readFrames: a learner pasted the seal into
  // the ✏️ cell and kept splitFrames 17/17 (issue 38, item 8).
  const file = "lib/mcp/shared/split_frames.ts";
  assert.ok(!released.has(file.replace(/\.ts$/, ".sealed.js")));
  const husk = released.get(file)!;
  assert.ok(husk.startsWith(STARTER_HUSK), husk);
  // Graded as a learner's answer where the marks are given (the instructors' grader, hidden cases
  // included), the husk earns what the untouched student edition's starter earns, and no more.
  const student = await Deno.readTextFile(`${release}/notebooks/ch14-b.ipynb`);
  const pasted = parseNotebook(student, "pasted");
  pasted.cells.find((cell) => cell.id === "split-frames")!.source = husk.replace(/^export /gm, "");
  await Deno.mkdir(`${scratch}/starter`);
  await Deno.mkdir(`${scratch}/husk`);
  await Deno.writeTextFile(`${scratch}/starter/ch14-b.ipynb`, student);
  await Deno.writeTextFile(`${scratch}/husk/ch14-b.ipynb`, JSON.stringify(pasted));
  const notebooks = [`${scratch}/starter/ch14-b.ipynb`, `${scratch}/husk/ch14-b.ipynb`];
  const [starter, pastedHusk] = await splitFramesRows(root, notebooks);
  assert.ok(starter.some((row) => /hidden/.test(row.name)));
  assert.ok(scored(pastedHusk) <= scored(starter), JSON.stringify(pastedHusk));
  assert.ok(scored(starter) < starter.length, "the starter checks no limit: it loses marks");
  // The release's self-check takes the starter for the learner's own, as it is, and not for a
  // copy of the library's (which every learner would be told before writing a line).
  const [selfChecked] = await splitFramesRows(release, [notebooks[0]]);
  assert.ok(scored(selfChecked) > 0);
  for (const row of selfChecked) assert.doesNotMatch(row.output, /copy of the library/, row.name);
});

Deno.test("the release's client is bounded only with your splitFrames: the oversized reply is a ProtocolError with the worked one", async () => {
  const worked = parseNotebook(await Deno.readTextFile(`${root}solutions/ch14-b.ipynb`), "worked")
    .cells.find((cell) => cell.id === "split-frames")!;
  const module = `${scratch}/worked split frames.ts`;
  await Deno.writeTextFile(module, sourceOf(worked).replace(/^function /m, "export function "));
  const outcomes = await evalInRelease(`
    import { tryMode } from "./lib/course/failure_modes.ts";
    import { splitFrames } from ${JSON.stringify(toFileUrl(module).href)};
    import { answerFor, authorize } from ${JSON.stringify(UNIT_A)};
    const outcomes = [];
    for (const options of [{ splitFrames }, {}]) {
      const { outcome, leftRunning } = await tryMode("oversized", {
        ...options,
        answer: answerFor,
        authorize,
      });
      outcomes.push(outcome, leftRunning);
    }
    console.log(JSON.stringify(outcomes));
  `);
  // Without yours, the release's library reads the 200,000-byte reply whole (the starter).
  assert.deepEqual(outcomes, ["ProtocolError", 0, "answered 4 and 3", 0]);
});

/**
 * The release's Lab 04 with every ✏️ cell written: `right`, as the worked
 * edition writes it; `wrong`, each function returning nothing useful and
 * each prediction a guess that cannot match. Returns the copy's path.
 */
async function lab04Written(how: "right" | "wrong"): Promise<string> {
  const worked = parseNotebook(await Deno.readTextFile(`${root}solutions/lab-04.ipynb`), "worked");
  const path = `${release}/notebooks/lab-04`;
  const student = parseNotebook(await Deno.readTextFile(`${path}.ipynb`), "student");
  for (const cell of student.cells) {
    const source = worked.cells.find((c) => c.id === cell.id);
    const text = source === undefined ? "" : sourceOf(source);
    if (cell.id === "evidence" || !text.includes("// BEGIN SOLUTION")) continue;
    const prediction = text.includes("predictions.record(");
    cell.source = text
      .replace(/\s*\/\/ BEGIN STARTER\n[\s\S]*?\/\/ END STARTER/, "")
      .replace(
        /\/\/ BEGIN SOLUTION\n([\s\S]*?)\n(\s*)\/\/ END SOLUTION/,
        (_, solution, indent) =>
          how === "right"
            ? solution
            : prediction
            ? solution.replace(/^(\s*\w+): .*,$/gm, '$1: "a guess that cannot match",')
            : `${indent}return undefined as never;`,
      );
  }
  const copy = `${path}.${how}-${crypto.randomUUID()}.ipynb`;
  await Deno.writeTextFile(copy, JSON.stringify(student));
  return copy;
}

Deno.test("the release's Lab 04, written wrong and then right, runs every step, and each prediction checks what it asks", async () => {
  // Before, Block J ran commands the release does not hold, and `streamed` marked a right answer ✗.
  const work = await Deno.makeTempDir({ dir: scratch });
  const predicted = /^[✓✗] .* You predicted /gm;
  const wrong = await lab04Written("wrong");
  try {
    // Every cell runs (runNotebook fails on a cell that ends in an error); the steps that need
    // passing work wait for it, and each prediction that is shown is ✗.
    const { text } = await runNotebook(wrong, { env: { COURSE_WORK: work } });
    assert.match(text, /LAB_04 NOT DONE YET/);
    const checked = text.match(predicted) ?? [];
    assert.ok(checked.length >= 1 && checked.every((line) => line.startsWith("✗")), text);
  } finally {
    await Deno.remove(wrong);
  }
  const right = await lab04Written("right");
  try {
    const { text } = await runNotebook(right, { env: { COURSE_WORK: work } });
    assert.match(text, /LAB_04 DONE/);
    assert.doesNotMatch(text, /You wrote no prediction first/);
    const checked = text.match(predicted) ?? [];
    assert.ok(checked.length >= 4 && checked.every((line) => line.startsWith("✓")), text);
  } finally {
    await Deno.remove(right);
  }
});
