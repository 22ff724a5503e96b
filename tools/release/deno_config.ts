/**
 * The learners' `deno.json` and `deno.lock`: the instructors' ones with only
 * the tasks a learner's copy can run, and without the packages only the
 * instructors' own tools use.
 *
 * @module
 */

import { type DenoLock, prunedLock } from "../autograder/pruned_lock.ts";

/** The tasks a learner's copy keeps: those whose files it holds. */
const LEARNER_TASKS = ["grade", "lab", "starter"];

/** Packages only the instructors' tools use (`deno task seal`'s obfuscator), by the name `deno.json` imports them by. */
const INSTRUCTORS_PACKAGES = ["javascript-obfuscator"];

/**
 * `config` with its tasks narrowed to the learners' ones and the instructors'
 * own packages left out of its imports; every other setting (formatting,
 * linting) as it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const config = {
 *   tasks: { grade: "deno run tools/grade.ts", test: "deno test" },
 *   imports: { ajv: "npm:ajv@8.20.0", "javascript-obfuscator": "npm:javascript-obfuscator@5.8.0" },
 * };
 * assert.deepEqual(learnersConfig(config).tasks, { grade: "deno run tools/grade.ts" });
 * assert.deepEqual(learnersConfig(config).imports, { ajv: "npm:ajv@8.20.0" });
 * ```
 */
export function learnersConfig(config: Record<string, unknown>): Record<string, unknown> {
  const tasks = (config.tasks ?? {}) as Record<string, string>;
  const imports = (config.imports ?? {}) as Record<string, string>;
  return {
    ...config,
    tasks: Object.fromEntries(
      Object.entries(tasks).filter(([name]) => LEARNER_TASKS.includes(name)),
    ),
    imports: Object.fromEntries(
      Object.entries(imports).filter(([name]) => !INSTRUCTORS_PACKAGES.includes(name)),
    ),
  };
}

/**
 * `lock` for the learners' `deno.json` (`learnersConfig(config)`): every
 * package it imports, and what those need, but none only the instructors' use.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const config = { imports: { a: "npm:a@1.0.0", "javascript-obfuscator": "npm:javascript-obfuscator@5.8.0" } };
 * const lock = {
 *   version: "5",
 *   specifiers: { "npm:a@1.0.0": "1.0.0", "npm:javascript-obfuscator@5.8.0": "5.8.0" },
 *   npm: { "a@1.0.0": {}, "javascript-obfuscator@5.8.0": {} },
 *   workspace: { dependencies: ["npm:a@1.0.0", "npm:javascript-obfuscator@5.8.0"] },
 * };
 * assert.deepEqual(Object.keys(learnersLock(lock, config).npm!), ["a@1.0.0"]);
 * ```
 */
export function learnersLock(lock: DenoLock, config: Record<string, unknown>): DenoLock {
  const imports = (config.imports ?? {}) as Record<string, string>;
  const dropped = new Set(INSTRUCTORS_PACKAGES.map((name) => imports[name]));
  return prunedLock(
    lock,
    (lock.workspace?.dependencies ?? []).filter((specifier) => !dropped.has(specifier)),
  );
}
