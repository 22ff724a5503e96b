// `deno run --allow-all tools/suite.ts [deno test arguments]...`: run
// `deno test --allow-all` with those arguments under a new test-run mark
// (MCP_COURSE_SUITE, tools/suite_mark.ts) that everything the tests start
// inherits, then tools/leftovers.ts for that mark alone: the run fails if a
// process it started is still running, and never because of another run's.
// `deno task test` and `deno task test:browser` run the suite this way.
// Under `--parallel`, one test file more than the machine has cores runs at
// a time (`DENO_JOBS`, unless it is set): much of the suite waits on kernels,
// servers and deadlines, and with a file per core the cores stood idle a
// third of the time (20m58s, 2 cores; 18m04s with three files at a time),
// and the longest files start first (tools/suite_order.ts). The run's test
// files share a folder of the run's own (SUITE_SHARED), removed after it.

import { fileURLToPath } from "node:url";
import { SUITE_MARK, SUITE_SHARED } from "./suite_mark.ts";
import { withoutTypedIn } from "./grading/typed_path.ts";
import { suiteArgs } from "./suite_order.ts";

// What the run's test files share (SUITE_SHARED), removed after the run.
const shared = await Deno.makeTempDir({ prefix: "course-suite-" });
// Without `deno task test`'s INIT_CWD: a `deno task` a test runs in a folder of its choosing keeps
// one it inherits, and `deno task grade` would take the test's paths from the repository's root.
const env = {
  ...withoutTypedIn(Deno.env.toObject()),
  [SUITE_MARK]: crypto.randomUUID(),
  [SUITE_SHARED]: shared,
  DENO_JOBS: Deno.env.get("DENO_JOBS") ?? String(navigator.hardwareConcurrency + 1),
};
const run = (args: string[]) =>
  new Deno.Command(Deno.execPath(), {
    args,
    clearEnv: true,
    env,
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status;
const tests = await run(["test", "--allow-all", ...suiteArgs(Deno.args)]);
await Deno.remove(shared, { recursive: true });
const leftovers = await run([
  "run",
  "--allow-all",
  fileURLToPath(new URL("leftovers.ts", import.meta.url)),
]);
Deno.exit(tests.code !== 0 ? tests.code : leftovers.code);
