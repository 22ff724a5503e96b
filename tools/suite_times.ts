// `deno run --allow-read tools/suite_times.ts FILE [--top N]`: the time the
// suite spent in each test file, from the JUnit report `deno task test
// --junit-path=FILE` writes (a file's documentation examples count as its
// own), longest first, with the total. BENCHMARKS.md's table of the suite's
// time per file is made with it.

import { parseArgs } from "node:util";

/**
 * The seconds spent in each test file of a JUnit report, longest first: the
 * time of each test case, summed by the file its suite names (`./a.ts#3-9.ts`,
 * a documentation example, counts as `./a.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const xml = `<testsuites><testsuite name="./a_test.ts"><testcase name="x" time="1.5"/>
 * <testcase name="y" time="0.5"/></testsuite><testsuite name="./b.ts#3-9.ts">
 * <testcase name="z" time="3"/></testsuite></testsuites>`;
 * assert.deepEqual(timesByFile(xml), [
 *   { file: "./b.ts", seconds: 3, tests: 1 },
 *   { file: "./a_test.ts", seconds: 2, tests: 2 },
 * ]);
 * ```
 */
export function timesByFile(xml: string): { file: string; seconds: number; tests: number }[] {
  const files = new Map<string, { seconds: number; tests: number }>();
  for (const [, attributes, body] of xml.matchAll(/<testsuite\b([^>]*)>([\s\S]*?)<\/testsuite>/g)) {
    const name = /\bname="([^"]*)"/.exec(attributes)?.[1] ?? "?";
    const file = name.split("#")[0];
    const entry = files.get(file) ?? { seconds: 0, tests: 0 };
    for (const [, time] of body.matchAll(/<testcase\b[^>]*\btime="([\d.]+)"/g)) {
      entry.seconds += Number(time);
      entry.tests++;
    }
    files.set(file, entry);
  }
  return [...files].map(([file, entry]) => ({ file, ...entry }))
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: { top: { type: "string", default: "20" } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) {
    console.error("usage: deno run --allow-read tools/suite_times.ts FILE [--top N]");
    Deno.exit(2);
  }
  const rows = timesByFile(await Deno.readTextFile(positionals[0]));
  const total = rows.reduce((sum, row) => sum + row.seconds, 0);
  console.log("| test file | tests | seconds |\n| --- | ---: | ---: |");
  for (const row of rows.slice(0, Number(values.top))) {
    console.log(
      `| \`${row.file.replace(/^\.\//, "")}\` | ${row.tests} | ${row.seconds.toFixed(1)} |`,
    );
  }
  const rest = rows.slice(Number(values.top));
  if (rest.length > 0) {
    const seconds = rest.reduce((sum, row) => sum + row.seconds, 0);
    const tests = rest.reduce((sum, row) => sum + row.tests, 0);
    console.log(`| the other ${rest.length} files | ${tests} | ${seconds.toFixed(1)} |`);
  }
  console.log(`| all ${rows.length} files | | ${total.toFixed(1)} |`);
}
