/**
 * The learners' `deno.json` and `deno.lock`: the instructors' ones with only
 * the tasks a learner's copy can run, and only the packages the release's
 * files use.
 *
 * @module
 */

import { type DenoLock, packageOf, prunedLock } from "../autograder/pruned_lock.ts";
import { importMap } from "../grading/scratch.ts";

/** The tasks a learner's copy keeps: those whose files it holds. */
const LEARNER_TASKS = ["grade", "lab", "starter"];

/**
 * `config` with its tasks narrowed to the learners' ones, and its imports to
 * those whose name `named` says a file of the release names: a learner's
 * first `deno task` fetches every package the imports hold, and those only
 * the instructors' tools use (StrykerJS, playwright, the obfuscator) are
 * half of them. Every other setting (formatting, linting) as it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const config = {
 *   tasks: { grade: "deno run tools/grade.ts", test: "deno test" },
 *   imports: { ajv: "npm:ajv@8.20.0", "javascript-obfuscator": "npm:javascript-obfuscator@5.8.0" },
 * };
 * const learners = learnersConfig(config, (name) => name === "ajv");
 * assert.deepEqual(learners.tasks, { grade: "deno run tools/grade.ts" });
 * assert.deepEqual(learners.imports, { ajv: "npm:ajv@8.20.0" });
 * ```
 */
export function learnersConfig(
  config: Record<string, unknown>,
  named: (name: string) => boolean,
): Record<string, unknown> {
  const tasks = (config.tasks ?? {}) as Record<string, string>;
  const imports = (config.imports ?? {}) as Record<string, string>;
  return {
    ...config,
    tasks: Object.fromEntries(
      Object.entries(tasks).filter(([name]) => LEARNER_TASKS.includes(name)),
    ),
    imports: Object.fromEntries(Object.entries(imports).filter(([name]) => named(name))),
  };
}

/**
 * `lock` for the learners' `deno.json` (`learners`, as `learnersConfig`
 * makes it): every npm package it imports, and what those need, and no other.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const lock = {
 *   version: "5",
 *   specifiers: { "npm:a@1.0.0": "1.0.0", "npm:javascript-obfuscator@5.8.0": "5.8.0" },
 *   npm: { "a@1.0.0": {}, "javascript-obfuscator@5.8.0": {} },
 *   workspace: { dependencies: ["npm:a@1.0.0", "npm:javascript-obfuscator@5.8.0"] },
 * };
 * const learners = { imports: { a: "npm:a@1.0.0", "a/": "npm:/a@1.0.0/" } };
 * assert.deepEqual(Object.keys(learnersLock(lock, learners).npm!), ["a@1.0.0"]);
 * ```
 */
export function learnersLock(lock: DenoLock, learners: Record<string, unknown>): DenoLock {
  const imports = Object.values((learners.imports ?? {}) as Record<string, string>);
  const used = new Set(imports.filter((value) => value.startsWith("npm:")).map(packageOf));
  return prunedLock(lock, [...used].sort());
}

/**
 * The learners' `deno.json` as the release ships it, from `learners` (as
 * `learnersConfig` makes it): its imports in an import map of their own
 * (`import_map.json`, with the prefix entries `deno.json` implies), and each
 * task run after `tools/set_up_first.ts`, which says to run set-up until it
 * has. With its imports in `deno.json`, or a `deno.lock` beside it, `deno
 * task` fetches every npm package they name before it runs any task.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const { config, map } = releaseConfig({
 *   tasks: { grade: "deno run tools/grade.ts" },
 *   imports: { ajv: "npm:ajv@8.20.0" },
 * });
 * assert.deepEqual(config, {
 *   tasks: {
 *     grade: "deno run -q --allow-read --allow-run tools/set_up_first.ts grade && deno run tools/grade.ts",
 *   },
 *   importMap: "./import_map.json",
 * });
 * assert.deepEqual(map.imports, { ajv: "npm:ajv@8.20.0", "ajv/": "npm:/ajv@8.20.0/" });
 * ```
 */
export function releaseConfig(
  learners: Record<string, unknown>,
): { config: Record<string, unknown>; map: { imports: Record<string, string> } } {
  const { imports = {}, tasks = {}, ...rest } = learners as {
    imports?: Record<string, string>;
    tasks?: Record<string, string>;
  };
  const guarded = Object.entries(tasks).map(([name, command]) => [
    name,
    `deno run -q --allow-read --allow-run tools/set_up_first.ts ${name} && ${command}`,
  ]);
  return {
    config: { ...rest, tasks: Object.fromEntries(guarded), importMap: "./import_map.json" },
    map: importMap(imports),
  };
}
