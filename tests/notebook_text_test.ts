// What the units say to a learner, read from the worked editions (the
// student editions are built from them): one way to mark the learner's part
// (✏️), at least one hint for every exercise, hints that say they open, no
// text that describes results a learner may not have, and no answer in the
// text beside a step before the learner has predicted it.

import assert from "node:assert/strict";
import { type Cell, parseNotebook, sourceOf } from "../tools/editions/notebook.ts";
import { UNITS } from "../tools/grading/units/mod.ts";

const NOTEBOOKS = ["ch14-a", "ch14-b", "ch15", "lab-01", "lab-02", "lab-03", "lab-04"];

async function cells(unit: string) {
  const path = `solutions/${unit}.ipynb`;
  return parseNotebook(await Deno.readTextFile(new URL(`../${path}`, import.meta.url)), path).cells;
}

/** Whether a cell holds a learner's part: a solution that is more than the edition's name. */
function isLearners(cell: Cell): boolean {
  const solutions = sourceOf(cell).split("// BEGIN SOLUTION").slice(1)
    .map((part) => part.split("// END SOLUTION")[0].trim());
  return cell.cell_type === "code" &&
    solutions.some((solution) => !/^const EDITION = "instructor";$/.test(solution));
}

/** The Markdown between `cell` and the code cell before it. */
function textBefore(all: Cell[], cell: Cell): string {
  const before: string[] = [];
  for (let i = all.indexOf(cell) - 1; i >= 0 && all[i].cell_type === "markdown"; i--) {
    before.unshift(sourceOf(all[i]));
  }
  return before.join("\n");
}

/** The cells that hold a graded function, or part of one, by unit. */
function gradedCells(unit: string): string[] {
  const spec = UNITS.get(unit)!;
  return [...new Set([...spec.functions.map((fn) => fn.cell), ...spec.supportCells ?? []])];
}

Deno.test("every cell a learner writes in is marked ✏️, and so is the text that asks for it", async () => {
  for (const unit of NOTEBOOKS) {
    const all = await cells(unit);
    const learners = all.filter(isLearners);
    assert.ok(learners.length >= 3, unit);
    for (const cell of learners) {
      assert.match(sourceOf(cell), /^\/\/ ✏️ Your turn(, [^:]+)?: /, `${unit} ${cell.id}`);
      const asked = all.slice(0, all.indexOf(cell)).filter((c) => c.cell_type === "markdown")
        .at(-1)!;
      assert.match(sourceOf(asked), /✏️ \*\*Your turn:\*\*/, `${unit}: the text before ${cell.id}`);
    }
    const text = all.map(sourceOf).join("\n");
    assert.ok(!/\*\*Do:\*\*/.test(text), `${unit} still marks a part with "Do:"`);
  }
});

Deno.test("every exercise has a ☞ hint just before it", async () => {
  for (const unit of NOTEBOOKS) {
    const all = await cells(unit);
    for (const id of gradedCells(unit)) {
      const cell = all.find((c) => c.id === id)!;
      if (!isLearners(cell)) continue; // given code, such as Lab 01's reply helpers
      assert.match(textBefore(all, cell), /<summary>☞ <b>Hint/, `${unit} ${id} has no hint`);
    }
  }
});

/** The summary of the fold that holds what a step that reveals a prediction showed, and why. */
const SEE = "👁 <b>See</b>: what the step above shows, and why (click to open once it has run)";

Deno.test("hints, and what a step shows, say they open when clicked", async () => {
  for (const unit of NOTEBOOKS) {
    const text = (await cells(unit)).map(sourceOf).join("\n");
    const summaries = [...text.matchAll(/<summary>(.*)<\/summary>/g)].map((match) => match[1]);
    assert.ok(summaries.length >= 3, unit);
    for (const summary of summaries) {
      if (summary === SEE) continue;
      assert.match(summary, /^☞ <b>Hint( \d)?<\/b>: .* \(click to open\)$/, `${unit}: ${summary}`);
    }
  }
});

Deno.test("the text after a step that reveals a prediction keeps what it showed folded", async () => {
  for (const unit of NOTEBOOKS) {
    const all = await cells(unit);
    const revealing = all.filter((cell) =>
      cell.cell_type === "code" && sourceOf(cell).includes("predictions.reveal(")
    );
    assert.ok(revealing.length >= 1, unit);
    for (const cell of revealing) {
      const next = all.slice(all.indexOf(cell) + 1).find((c) => c.cell_type === "markdown");
      if (next === undefined) continue;
      // What the learner reads as soon as the step has run (or before): up to the next heading,
      // or the next question, everything outside a fold.
      const opening = sourceOf(next).split(/^#+ |^\*\*Predict/m)[0];
      const unfolded = opening.replace(/<details>[\s\S]*?<\/details>/g, "").trim();
      assert.equal(unfolded, "", `${unit}: the text after ${cell.id} says what it showed unfolded`);
      if (opening.includes("<details>")) assert.ok(opening.includes(SEE), `${unit} ${next.id}`);
    }
  }
});

Deno.test("the text claims no result the learner may not have", async () => {
  const a = (await cells("ch14-a")).map(sourceOf).join("\n");
  const b = (await cells("ch14-b")).map(sourceOf).join("\n");
  const lab02 = (await cells("lab-02")).map(sourceOf).join("\n");
  assert.ok(!a.includes("Unit B starts from what you observed here"));
  assert.match(a, /Unit B can start from it: set `LEARNER_HANDOFF`/);
  assert.ok(!b.includes("Every failure ended in an exception"));
  assert.match(b, /\*\*What you should see\*\*, once your `splitFrames` passes/);
  for (const unit of [a, b]) assert.match(unit, /\*\*When you are stuck:\*\*/);
  // Lab 02 runs the learner's own Lab 01 server, which may write nothing on stderr.
  assert.ok(!lab02.includes("said so on stderr"), "Lab 02 claims what the server wrote");
  assert.ok(!lab02.includes("as Unit B's tests do"), "Unit B's learner wrote no tests");
});

Deno.test("the text names no file of the course that the learners' release does not hold", async () => {
  const { releaseFiles } = await import("../tools/release/contents.ts");
  const held = new Set(await releaseFiles(new URL("../", import.meta.url)));
  const folders = new Set([...held].map((file) => file.split("/")[0]));
  for (const unit of NOTEBOOKS) {
    const text = (await cells(unit)).filter((cell) => cell.cell_type === "markdown")
      .map(sourceOf).join("\n");
    const named = [
      ...text.matchAll(/`([A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*\.(?:md|ts|json|txt))`/g),
    ]
      .map((match) => match[1])
      // What the learner's own work makes (work/...) is not the course's to ship.
      .filter((path) => path === "BENCHMARKS.md" || folders.has(path.split("/")[0]))
      .filter((path) => !path.startsWith("work/"));
    const missing = named.filter((path) => !held.has(path));
    assert.deepEqual(missing, [], `${unit} sends the learner to files the release does not hold`);
  }
});

Deno.test("Lab 03 qualifies its claims, and asks each prediction once what it needs is taught", async () => {
  const all = await cells("lab-03");
  const text = all.map(sourceOf).join("\n");
  // The unmasked failure rate is the stand-in's, and "exact" says over what.
  assert.match(text, /its own rate, not a real model's/);
  assert.match(text, /exact for the four tools' schemas, over whole characters/);
  const at = (pattern: RegExp) => all.findIndex((cell) => pattern.test(sourceOf(cell)));
  assert.ok(
    at(/trie_gains_most: "conjugate"/) > at(/A \*\*prefix tree\*\* \(a trie\)/),
    "the prefix-tree question is asked before prefix trees are taught",
  );
});

Deno.test("Lab 03's Block B says which schema parts the four tools use, and a visible case tries every part it teaches", async () => {
  const { GRAMMAR_TOOLS } = await import("../lib/course/grammar_tools.ts");
  const { CASES } = await import("../cases/lab_03.ts");
  const blockB = sourceOf((await cells("lab-03")).find((cell) => cell.id === "block-b")!);
  /** Every keyword a schema uses, and "nested" for an object inside an object. */
  const keywords = (schema: unknown, inside = false): string[] => {
    if (typeof schema !== "object" || schema === null) return [];
    const own = schema as Record<string, unknown>;
    const properties = Object.values((own.properties ?? {}) as Record<string, unknown>);
    return [
      ...Object.keys(own),
      ...(inside && own.type === "object" ? ["nested"] : []),
      ...properties.flatMap((property) => keywords(property, true)),
    ];
  };
  const used = new Set(GRAMMAR_TOOLS.flatMap((tool) => keywords(tool.inputSchema)));
  const said = /four tools use ([^.]*)\./.exec(blockB.replaceAll("\n", " "));
  assert.ok(said !== null, "Block B says which parts the four tools use");
  const named = [...said[1].matchAll(/`(\w+)`/g)].map((match) => match[1]);
  assert.deepEqual(named.filter((keyword) => !used.has(keyword)), [], "named but not used");
  // The parts the lesson teaches, each tried by a visible case of prefixStatus.
  const tried = new Set(CASES.prefixStatus.flatMap((c) => keywords(c.args[0])));
  for (const part of ["required", "enum", "minLength", "maxLength", "nested"]) {
    assert.ok(tried.has(part), `no visible case of prefixStatus tries ${part}`);
  }
  assert.ok(
    CASES.prefixStatus.some((c) => [...String(c.args[1])].length < String(c.args[1]).length),
    "no visible case holds a character outside the BMP",
  );
});

Deno.test("Lab 03's Block G teaches the multi round-trip request, sampling as deprecated, a person's review and requestState as the attacker's", async () => {
  const all = await cells("lab-03");
  const text = all.map(sourceOf).join("\n").replaceAll(/\s+/g, " ");
  assert.match(text, /resultType: "input_required"/);
  // Deprecated, and why (SEP-2577).
  assert.match(text, /\*\*Sampling itself is deprecated\*\* since 2026-07-28 \(SEP-2577\)/);
  assert.match(text, /a server that needs a model can call a model provider's API itself/);
  // The human in the loop, taught and shown: the model is asked only once the person approves.
  assert.match(text, /"a human in the loop with the ability to deny sampling requests"/);
  assert.match(text, /prompt injection/);
  const retry = sourceOf(all.find((cell) => cell.id === "mrtr-retry")!);
  assert.match(retry, /if \(await approve\(request\)\) answers\[key\] = /);
  // The stand-in's answer explained, not shown without a word.
  assert.match(text, /The stand-in's answer to "what is this text about\?" is no answer/);
  assert.match(text, /A real model would answer in words/);
  // The server's side: requestState is attacker-controlled, and the refusals are shown.
  assert.match(text, /"MUST treat `requestState` as an attacker-controlled input"/);
  assert.match(text, /it does not make a state single-use/);
});

Deno.test("Lab 04 asks no prediction it does not record: each question is answered in a ✏️ cell first", async () => {
  // Issue 40, item 2: Block K's question (what a resumed stream carries) and the progress step's
  // were asked as predictions, and answered by the output beside them with nothing recorded.
  const all = await cells("lab-04");
  for (const cell of all.filter((c) => c.cell_type === "markdown")) {
    if (!/\*\*Predict/.test(sourceOf(cell))) continue;
    const next = all.slice(all.indexOf(cell) + 1).find((c) => c.cell_type === "code")!;
    assert.match(sourceOf(next), /predictions\.record\(/, `lab-04 ${cell.id} asks, unrecorded`);
  }
});

/**
 * What Lab 04's time plan says each part takes, by the rule it states: its text read at 120 words
 * a minute; each function 5 minutes and a minute for each line of a right answer (closing brackets
 * and continued conditions aside); 2 minutes for each step run and read, and for each prediction;
 * each part rounded to 5 minutes, and never under 5. A part begins at a block's heading, the
 * versions' or the evidence's, and runs to the next.
 */
function estimatedMinutes(all: Cell[]): Map<string, number> {
  const parts = new Map<string, number>();
  let part: string | undefined;
  let minutes = 0;
  const close = () => {
    if (part !== undefined) parts.set(part, Math.max(5, 5 * Math.round(minutes / 5)));
  };
  for (
    const cell of all.filter((c) => !(c.metadata?.tags as string[] | undefined)?.includes("hidden"))
  ) {
    const source = sourceOf(cell);
    const heading = /^## (Block [A-K]:|How the protocol moved|The evidence)/.exec(source);
    if (cell.cell_type === "markdown" && heading !== null) {
      close();
      [part, minutes] = [heading[1], 0];
    }
    if (part === undefined) continue;
    if (cell.cell_type === "markdown") {
      minutes += source.replace(/<[^>]+>/g, " ").split(/\s+/).filter(Boolean).length / 120;
      continue;
    }
    const solution = source.split("// BEGIN SOLUTION")[1]?.split("// END SOLUTION")[0];
    if (/const EDITION = /.test(solution ?? "")) continue;
    if (solution !== undefined && source.includes("predictions.record(")) {
      minutes += 2 * solution.split("\n").filter((line) => /^\s*\w+:/.test(line)).length;
    } else if (solution !== undefined) {
      const lines = solution.split("\n").map((line) => line.trim()).filter((line) =>
        line !== "" && !line.startsWith("//") && !/^[\])}];?,?$/.test(line) && !/^[:?]/.test(line)
      );
      minutes += 5 + lines.length;
    } else if (!/\.grade\(\)/.test(source)) minutes += 2;
  }
  close();
  return parts;
}

Deno.test("Lab 04's time plan is what its blocks ask, and the submission, the schema and the README say it", async () => {
  // Issue 40, item 7: "Lab 04's 3 hours is generous for its eight small functions".
  const all = await cells("lab-04");
  const estimated = estimatedMinutes(all);
  const plan = sourceOf(all[0]);
  const rows = [...plan.matchAll(/^\| ([A-K]|the versions)[ ,][^|]*\|[^|]*\| (\d+) min +\|$/gm)];
  const planned = new Map(rows.map(([, part, minutes]) => [part, Number(minutes)]));
  const part = (name: string) =>
    [...estimated].filter(([heading]) => heading.startsWith(name)).map(([, m]) => m)[0];
  for (const letter of "ABCDEFGHIJ") {
    assert.equal(planned.get(letter), part(`Block ${letter}:`), `Block ${letter}'s minutes`);
  }
  const last = part("How the protocol moved") + part("Block K:") + part("The evidence");
  assert.equal(planned.get("the versions"), last, "the versions, the judge and the evidence");
  const total = [...planned.values()].reduce((sum, minutes) => sum + minutes, 0);
  assert.match(plan, new RegExp(`about ${Math.floor(total / 60)} hours ${total % 60} minutes`));
  const evidence = sourceOf(all.find((cell) => cell.id === "evidence")!);
  assert.match(evidence, new RegExp(`planned_minutes: ${total},`));
  const schema = JSON.parse(
    await Deno.readTextFile(new URL("../schemas/lab-04-submission.schema.json", import.meta.url)),
  );
  assert.equal(schema.properties.planned_minutes.const, total);
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  assert.match(
    readme,
    new RegExp(`\\| Lab 04 · Phase 33: many requests at once, and HTTP \\(${total} min\\)`),
  );
});

/** The most characters a line of the course's code may take: the notebook's page shows them all. */
const PAGE_WIDTH = 100;

/** The units whose worked editions, hidden cells included, are held to the page's width too. */
const WORKED_WITHIN_PAGE = ["ch14-a", "lab-01", "lab-02", "lab-03", "lab-04"];

Deno.test("no code line a learner is given runs off the page: every student edition's lines, and all of Unit A's and Labs 01 to 04's", async () => {
  // Issue 40, item 8: "long code cells of the course's own run off the right of the page".
  const long: string[] = [];
  const lines = async (path: string) => {
    const notebook = parseNotebook(
      await Deno.readTextFile(new URL(`../${path}`, import.meta.url)),
      path,
    );
    for (const cell of notebook.cells.filter((c) => c.cell_type === "code")) {
      sourceOf(cell).split("\n").forEach((line, i) => {
        if (line.length > PAGE_WIDTH) long.push(`${path} ${cell.id}:${i + 1} (${line.length})`);
      });
    }
  };
  for (const unit of NOTEBOOKS) await lines(`notebooks/${unit}.ipynb`);
  for (const unit of WORKED_WITHIN_PAGE) await lines(`solutions/${unit}.ipynb`);
  assert.deepEqual(long, []);
});

Deno.test("Lab 04 says truthfully what comes after it: no phase an earlier unit taught", async () => {
  // Issue 40, item 8: it ended "Next: Phase 32 (sampling)", which Lab 03 had taught.
  const next = sourceOf((await cells("lab-04")).find((cell) => cell.id === "next")!);
  assert.doesNotMatch(next, /\*\*Next:\*\* Phase 32/);
  assert.match(next, /\*\*Next:\*\* this is the course's last lab/);
  assert.match(next, /Phase 32,[^]*was Lab 03's/);
});

Deno.test("no list item of the text begins in the middle of a line, where Markdown runs it into the item before", async () => {
  // Lab 04's instructor notes held "…not a missing one.- **"The session goes on every POST."**":
  // two misconceptions shown as one.
  for (const unit of NOTEBOOKS) {
    for (const [index, cell] of (await cells(unit)).entries()) {
      if (cell.cell_type !== "markdown") continue;
      const joined = sourceOf(cell).split("\n").filter((line) => /[.:;)]- \*\*/.test(line));
      assert.deepEqual(joined, [], `${unit}, cell ${index}`);
    }
  }
});

Deno.test("Lab 01 does not say every result of 2026-07-28 is complete: a result may be a question back first", async () => {
  // "Every result of today says that it is the whole answer" was Lab 01's; 2026-07-28 has a
  // second resultType, input_required, which Lab 03 teaches.
  const text = (await cells("lab-01")).filter((cell) => cell.cell_type === "markdown")
    .map(sourceOf).join("\n").replace(/\s+/g, " ");
  const claim = /every result of today says that it is the whole answer/i;
  assert.ok(!claim.test(text), "Lab 01 says every result of today is the whole answer");
  assert.ok(text.includes("input_required"), "Lab 01 never names input_required");
});
