/**
 * A path as the learner typed it. `deno task` runs its program in the course's
 * folder, wherever it was typed, and says where it was typed in `INIT_CWD`:
 * `deno task grade ch14-a.ipynb`, typed in `work/`, means `work/ch14-a.ipynb`.
 *
 * @module
 */

import { isAbsolute, relative, resolve } from "node:path";

/** Where a path was typed, and where the program runs. */
export interface TypedIn {
  /** The folder the command was typed in (`INIT_CWD`); none when not run by `deno task`. */
  typedIn?: string;
  /** The folder the program runs in. */
  runIn: string;
}

/**
 * `path` as a path from `runIn`: a relative one taken from `typedIn`, and
 * shown from `runIn` when it lies inside it (absolute otherwise); any path
 * unchanged when it was typed in `runIn`, or in no known folder.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const folders = { typedIn: "/course/work", runIn: "/course" };
 * assert.equal(typedPath("ch14-a.ipynb", folders), "work/ch14-a.ipynb");
 * assert.equal(typedPath(".", { typedIn: "/course/work/mine", runIn: "/course" }), "work/mine");
 * assert.equal(typedPath("..", folders), ".");
 * assert.equal(typedPath("a.ipynb", { typedIn: "/tmp/x", runIn: "/course" }), "/tmp/x/a.ipynb");
 * assert.equal(typedPath("/abs/a.ipynb", folders), "/abs/a.ipynb");
 * assert.equal(typedPath("work/a.ipynb", { runIn: "/course" }), "work/a.ipynb");
 * ```
 */
export function typedPath(path: string, { typedIn, runIn }: TypedIn): string {
  if (typedIn === undefined || isAbsolute(path) || resolve(typedIn) === resolve(runIn)) {
    return path;
  }
  const meant = resolve(typedIn, path);
  const inside = relative(runIn, meant);
  if (inside === "") return ".";
  return inside.startsWith("..") || isAbsolute(inside) ? meant : inside;
}

/**
 * `env` without `INIT_CWD`, for a program started from this one: a `deno task`
 * it runs keeps an INIT_CWD it inherits, and would take its paths from there.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(withoutTypedIn({ INIT_CWD: "/course/lib", HOME: "/h" }), { HOME: "/h" });
 * ```
 */
export function withoutTypedIn(env: Record<string, string>): Record<string, string> {
  const { INIT_CWD: _typedIn, ...rest } = env;
  return rest;
}
