/**
 * Results for people: a few lines per submission, with the cases that failed.
 * Everything in them that a learner controls (folder names, case labels,
 * what their code returned) is shown with its control characters escaped,
 * so no learner can rewrite the report in a terminal.
 *
 * @module
 */

import type { Results } from "./score.ts";

/**
 * A short text report of `results`: the score, then for each graded function
 * how many cases passed, with each failed visible case and what it observed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const text = textReport({
 *   submission: "alice", unit: "ch14-a", score: 1, max_score: 2, output: "",
 *   tests: [
 *     { name: "authorize: nothing allowed", score: 1, max_score: 1, status: "passed", output: "passed", visibility: "visible" },
 *     { name: "authorize: hidden case 1", score: 0, max_score: 1, status: "failed", output: "failed", visibility: "visible" },
 *   ],
 * });
 * assert.equal(text, "ch14-a  alice  1/2\n  authorize  1 of 2 passed (hidden: 0 of 1)");
 * ```
 */
export function textReport(results: Results): string {
  const lines = [`${results.unit}  ${results.submission}  ${results.score}/${results.max_score}`];
  const functions = new Map<string, Results["tests"]>();
  for (const test of results.tests.filter((test) => test.max_score > 0)) {
    const fn = test.name.split(": ")[0];
    functions.set(fn, [...(functions.get(fn) ?? []), test]);
  }
  const width = Math.max(0, ...[...functions.keys()].map((fn) => fn.length));
  for (const [fn, tests] of functions) {
    const hidden = tests.filter((test) => test.name.startsWith(`${fn}: hidden case`));
    const passed = (list: typeof tests) => list.filter((test) => test.status === "passed").length;
    const hiddenNote = hidden.length > 0 ? ` (hidden: ${passed(hidden)} of ${hidden.length})` : "";
    lines.push(`  ${fn.padEnd(width)}  ${passed(tests)} of ${tests.length} passed${hiddenNote}`);
    for (const test of tests) {
      if (test.status === "failed" && !hidden.includes(test)) {
        lines.push(`    ✗ ${test.name.slice(fn.length + 2)}: ${test.output}`);
      }
    }
  }
  for (const test of results.tests.filter((test) => test.max_score === 0)) {
    lines.push(`  ${test.status === "passed" ? "✓" : "✗"} ${test.name}: ${test.output}`);
  }
  if (results.output !== "") lines.push(`  note: ${results.output}`);
  return lines.map(printable).join("\n");
}

/**
 * `text` with every control character (ANSI escapes, carriage returns,
 * newlines) and every bidirectional override written as a visible `\u{...}`
 * escape.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(printable("24/24\u001b[2K\r"), "24/24\\u{1b}[2K\\u{d}");
 * assert.equal(printable("comió ✓"), "comió ✓");
 * ```
 */
export function printable(text: string): string {
  return text.replace(
    /[\p{Cc}\u202a-\u202e\u2066-\u2069\u200e\u200f\u2028\u2029]/gu,
    (character) => `\\u{${character.codePointAt(0)!.toString(16)}}`,
  );
}
