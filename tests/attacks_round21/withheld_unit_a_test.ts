// Round 21 of the red team, as a learner who holds the learners' release of
// slice 4, which withholds Unit A's answerFor and authorize (no seal of
// either) and has every later unit's Client run the learner's own, loaded
// from their saved Unit A by tools/grading/your_functions.ts: can Unit A's
// marks be had from what the release still holds runnable, without writing
// either function? Each attempt is graded with the class, by `deno task
// grade`, beside an honest classmate who keeps every mark.
// - The course's own loader, pointed at a Unit A that passes (the worked
//   edition's, where the grader's machine holds one): the sandbox gives
//   graded code none of tools/, so it does not load, and earns nothing.
// - The Client's own id check (PendingRequests.take, which finds the request
//   a reply answers by its exact id when two are in flight) with the error
//   branch around it: the sandbox gives none of the Client's modules.
// - The release's withheld stubs, pasted: they throw WithheldError.
// And the instructor's side: an honest Unit B whose negative control waited
// for Unit A (its submission's negative_control null, as slice 4 saves it)
// keeps every mark, its claims compared with the re-run, none taken for an
// over-claim.

import assert from "node:assert/strict";
import { grade, ROOT, tree, unitBPasses } from "../_grading.ts";
import { AUTHORIZE, gradedMarks, report } from "../_seals.ts";

/** The answerFor of the worked Unit A, taken by the course's own loader: Unit A's module. */
const BY_YOUR_FUNCTIONS = `import { YourUnitA } from "../tools/grading/your_functions.ts";
const unitA = new YourUnitA({
  folder: decodeURIComponent(new URL("../solutions/", import.meta.url).href.slice("file://".length)),
});
await unitA.needs();
export function answerFor(requestId, message) {
  return unitA.options.answer(requestId, message);
}
export function authorize(name, catalog, allowed) {
  return unitA.options.authorize(name, catalog, allowed);
}`;

/** answerFor over the Client's own id check: two requests in flight, so a reply's id must match one exactly. */
const BY_PENDING_REQUESTS =
  `import { PendingRequests } from "../lib/mcp/client/pending_requests.ts";
import { ProtocolError } from "../lib/mcp/shared/errors.ts";
export function answerFor(requestId, message) {
  const pending = new PendingRequests(60_000, () => {});
  const quiet = () => {};
  for (const id of [requestId, Symbol()]) {
    pending.add({ id, method: "tools/call", cancellable: false, deadline: Infinity, resolve: quiet, reject: quiet });
  }
  try {
    pending.take(message.id);
  } finally {
    pending.stop();
  }
  if ("error" in message) throw new ProtocolError(message.error.message, { code: message.error.code });
  return message.result;
}
${AUTHORIZE}`;

/** The release's withheld stubs, pasted as Unit A. */
const STUBS = (() => {
  const stub = (fn: string, file: string) =>
    `export function ${fn}(..._args) {
  throw new (class WithheldError extends Error { name = "WithheldError"; })("${fn} (${file}) is withheld");
}`;
  return `${stub("answerFor", "lib/mcp/client/answer.ts")}\n${
    stub("authorize", "lib/mcp/client/allowlist.ts")
  }`;
})();

/** Each attempt: its module, the functions it tries for, and what its learner is told. */
const ATTEMPTS: Record<string, { module: string; fns: string[]; told: RegExp }> = {
  "by-your-functions": {
    module: BY_YOUR_FUNCTIONS,
    fns: ["answerFor", "authorize"],
    told: /does not load.*a file outside its folder, which this unit does not give/,
  },
  "by-pending-requests": {
    module: BY_PENDING_REQUESTS,
    fns: ["answerFor"],
    told: /lib\/mcp\/client\/pending_requests\.ts, which this unit does not give/,
  },
  "withheld-stubs": {
    module: STUBS,
    fns: ["answerFor", "authorize"],
    told: /it threw WithheldError/,
  },
};

const files: Record<string, string> = {
  "honest-classmate/ch14-a.ipynb": await Deno.readTextFile(`${ROOT}solutions/ch14-a.ipynb`),
  "honest-unit-b-waited/ch14-b.ipynb": await Deno.readTextFile(`${ROOT}solutions/ch14-b.ipynb`),
  "honest-unit-b-waited/ch14-b-submission-v1.json": JSON.stringify({
    ...await unitBPasses(),
    negative_control: null,
  }),
};
for (const [name, { module }] of Object.entries(ATTEMPTS)) files[`${name}/ch14-a.ts`] = module;
const { list } = await grade([await tree(files), "--jobs", "2"]);

for (const [name, { fns, told }] of Object.entries(ATTEMPTS)) {
  for (const fn of fns) {
    Deno.test(`${name}: what the release holds runnable earns ${fn} nothing`, () => {
      const { results, marks } = gradedMarks(list, name, fn);
      assert.ok(marks.every((t) => t.score === 0), report(results, fn));
      assert.match(marks[0].output ?? "", told);
      assert.doesNotMatch(marks[0].output ?? "", /\n\s+at /);
    });
  }
}

Deno.test("the honest classmate keeps every mark of Unit A beside them", () => {
  const { results } = gradedMarks(list, "honest-classmate", "answerFor");
  const lost = results.tests.filter((t) => t.score !== t.max_score);
  assert.deepEqual(lost.map((t) => `${t.name}: ${t.output}`), []);
});

Deno.test("an honest Unit B whose negative control waited for Unit A keeps every mark, its claims compared", () => {
  const { results } = gradedMarks(list, "honest-unit-b-waited", "splitFrames");
  const lost = results.tests.filter((t) => t.score !== t.max_score);
  assert.deepEqual(lost.map((t) => `${t.name}: ${t.output}`), []);
  assert.ok(results.tests.some((t) => t.name.startsWith("transferProblems: ")));
});
