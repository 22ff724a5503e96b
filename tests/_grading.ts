// Shared by the grader's tests: running `deno task grade` as an instructor
// does, and building learners' folders at test time.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Results } from "../tools/grading/score.ts";
import { CASES } from "../cases/ch14_a.ts";
import { HOLDOUTS } from "../holdouts/ch14_a.ts";

/** The project's root, where `deno task grade` runs. */
export const ROOT = fileURLToPath(new URL("../", import.meta.url));
const scratch = await Deno.makeTempDir({ prefix: "grade-test-" });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));

export type { Results } from "../tools/grading/score.ts";
/** Run the grader (in `cwd`, the project by default); its exit code, what it printed, and the results. */
export async function grade(args: string[], cwd = ROOT) {
  const json = `${scratch}/${crypto.randomUUID()}.json`;
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "grade", ...args, "--json", json],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const results = await Deno.readTextFile(json).then(JSON.parse).catch(() => undefined);
  const list: Results[] = results === undefined ? [] : Array.isArray(results) ? results : [results];
  return {
    code,
    out: new TextDecoder().decode(stdout),
    err: new TextDecoder().decode(stderr),
    list,
  };
}

/** Write `files` (relative path to text) under a new folder; its path. */
export async function tree(files: Record<string, string>): Promise<string> {
  const folder = await Deno.makeTempDir({ dir: scratch });
  for (const [name, text] of Object.entries(files)) {
    const path = `${folder}/${name}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
  return folder;
}

/**
 * Run `script` (Python, given `folder` as its first argument): it makes what a
 * test needs that Deno cannot name or make (names not UTF-8, FIFOs, sockets).
 */
export async function python(script: string, folder: string): Promise<void> {
  const { success, stderr } = await new Deno.Command("python3", {
    args: ["-c", script, folder],
    stderr: "piped",
  }).output();
  assert.ok(success, new TextDecoder().decode(stderr));
}

/**
 * What {@linkcode UNIT_A} earns: a mark for each case of `answerFor` and
 * `authorize`, visible and hidden (counted from the cases, which each red
 * team round adds to).
 */
export const UNIT_A_MARKS = (["answerFor", "authorize"] as const)
  .reduce((sum, fn) => sum + CASES[fn].length + HOLDOUTS[fn].length, 0);

/** Unit A's two graded functions, written right, as a learner's module. */
export const UNIT_A = `
import { ProtocolError } from "../lib/mcp/shared/errors.ts";
export function answerFor(requestId, message) {
  if (message.id !== requestId) throw new ProtocolError("not the reply to " + requestId);
  if ("error" in message) throw new ProtocolError(message.error.message, { code: message.error.code });
  return message.result;
}
export function authorize(name, catalog, allowed) {
  return Object.hasOwn(catalog, name) && allowed.has(name);
}
`;

/** Unit B's saved submission (`tests/grading/`) claiming that every case of both grade tables passed. */
export async function unitBPasses(): Promise<
  { frames: { status: string }[]; transfer: Record<string, unknown>[] }
> {
  const claims = JSON.parse(
    await Deno.readTextFile(`${ROOT}tests/grading/ch14-b-student-submission.json`),
  );
  for (const row of claims.frames) row.status = "PASS";
  claims.transfer = claims.transfer.map((row: Record<string, unknown>) => ({
    ...row,
    passed: true,
  }));
  return claims;
}

/** Whether a unit got every mark. */
export const full = (results: Results): boolean => results.score === results.max_score;

/** Assert that `test` has exactly the fields autograding platforms such as Gradescope read. */
export function assertPlatformTest(test: object): void {
  assert.deepEqual(Object.keys(test).sort(), [
    "max_score",
    "name",
    "output",
    "score",
    "status",
    "visibility",
  ]);
}
