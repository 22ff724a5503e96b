/**
 * What a learner is told when their code imports an npm package the
 * grading sandbox does not give: Deno's own words ("The lockfile is out of
 * date. Run `deno install --frozen=false`...") tell them to change a lock
 * file that is the grader's.
 *
 * @module
 */

const SDK = /^npm:\/?@modelcontextprotocol\//;

/**
 * The line for a module that failed to load, or code that failed, because
 * of an npm package the sandbox does not give (a bare name the import map
 * does not give, or an `npm:` specifier its frozen lock file does not name:
 * an MCP SDK, a package without an exports map, or one the course has not);
 * `undefined` when `message` says something else.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const message = 'The lockfile is out of date.\n  |   + "npm:ajv-formats@3.0.1": "3.0.1",';
 * assert.equal(npmRefusal(message), "it imports npm:ajv-formats@3.0.1, an npm package the course does not give");
 * assert.equal(npmRefusal("x is not defined"), undefined);
 * ```
 */
export function npmRefusal(message: string): string | undefined {
  const npm = npmImport(message);
  if (npm === undefined) return undefined;
  return (SDK.test(npm) || npm.startsWith("@modelcontextprotocol/")
    ? `it imports ${npm}, an MCP SDK: graded code may import none, since their clients do what the units have you write`
    : `it imports ${npm}, an npm package the course does not give`)
    .slice(0, 300);
}

/** The npm package `message` says a module failed to load for, if it says so. */
function npmImport(message: string): string | undefined {
  const bare = /Import "([^"./][^"]*)" not a dependency and not in import map/.exec(message);
  if (bare !== null) return bare[1];
  if (!message.includes("The lockfile is out of date")) return undefined;
  // The lines the lock would gain name the packages it would add: an MCP SDK among them first.
  const added = [...message.matchAll(/\|\s*\+\s*"(npm:[^"]+)"/g)].map((match) => match[1]);
  return added.find((name) => SDK.test(name)) ?? added[0] ?? "a package";
}
