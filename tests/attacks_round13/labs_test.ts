// Round 13 of issue 38's red team: new misreadings of what Lab 02's, Lab 03's
// and Lab 04's graded functions must do, as a careful but wrong learner
// writes them, each graded as a learner's module through the grader's own
// path (gradeTogether, in the sandbox, hidden cases included). Each one kept
// every mark of its function before this round; each is in its function's
// catalogue now (tests/catalogue/), and must lose marks. Attempts not closed
// are in OPEN, skipped unless ROUND13_OPEN=1. Run:
//   deno test -A tests/attacks_round13/labs_test.ts

import assert from "node:assert/strict";
import { gradeTogether } from "../../tools/grading/grade_learner.ts";
import { loadHoldouts } from "../../tools/grading/units/mod.ts";
import { CATALOGUES } from "../catalogue/mod.ts";

/** Each attempt, by its function (unit and name), as the catalogue's label of its misreading. */
const ATTEMPTS: Readonly<Record<string, readonly string[]>> = {
  "lab-02 eraOf": [
    "the code compared loosely",
    "capabilities that are a list taken for an object",
    "the server's versions trimmed",
    "an empty list of versions taken for no DiscoverResult",
  ],
  "lab-02 HandshakeClient": [
    "a tools capability tested for truth",
    "a modern tools capability tested for truth",
  ],
  "lab-02 McpClient": ["isError tested for truth"],
  "lab-02 ListingClient": ["an inputSchema that is a list accepted"],
  "lab-02 ServerLink": ["each read of stderr decoded on its own"],
  "lab-02 RpcLink": [
    "a server request known by a truthy id",
    "an abandoned id compared as text",
    "an abandoned id forgotten after its first late reply",
  ],
  "lab-02 unwrap": ["a number read from the start of the text"],
  "lab-02 correlate": ["falsy data left out", "the result read first"],
  "lab-03 prefixStatus": [
    "an enum member's length in graphemes",
    "an empty enum member dropped",
    "a lone surrogate written raw",
    "maxLength checked only once an escape ends",
  ],
  "lab-03 decode": ["the best found from a score of -Infinity up"],
  "lab-03 nextMove": ["the context trimmed"],
  "lab-03 retryRequest": [
    "an answer looked up through the prototype",
    "an answer found with in",
  ],
  "lab-04 routeReply": ["a reply without an id dropped"],
  "lab-04 originAllowed": ["the Origin trimmed", "http and https the same", "the port ignored"],
  "lab-04 sseData": [
    "any white space after the colon dropped",
    "data trimmed at its end",
    "U+2028 and U+2029 line ends",
  ],
  "lab-04 recoverStream": [
    "the era told by a version of any type",
    "an event id of white space taken for none",
    "an event id of digits made a number",
  ],
  "lab-04 postHeaders": [
    "the era told by a version of any type",
    "an empty name left out",
    "a name of any type sent as text",
  ],
  "lab-04 headerCheck": ["header values trimmed", "Mcp-Name compared loosely"],
  "lab-04 progressOf": ["negative progress refused"],
};

/** An attempt: the function it answers for (unit and name), its label, and its module's source. */
interface Attempt {
  unit: string;
  fn: string;
  label: string;
  source: string;
}

/** The worked way of `unit fn` in its catalogue, with `from` (there once) changed to `to`. */
function workedWith(unit: string, fn: string, from: string, to: string): string {
  const worked = catalogueOf(unit, fn).right["the worked solution's way"];
  assert.equal(worked.split(from).length, 2, `${fn}'s worked way holds ${from} not once`);
  return worked.replace(from, () => to);
}

/**
 * Attempts this round could not close, each with what it earned: misreadings
 * or readings the spec leaves open, for the instructors to decide.
 */
const OPEN: readonly Attempt[] = [
  // A result with inputRequests: {} taken to ask nothing, so the retry carries no inputResponses
  // (the worked way sends inputResponses: {}). It earned 21/21: the lab says "none when result asks
  // nothing", and an empty list of questions may be read either way.
  {
    unit: "lab-03",
    fn: "retryRequest",
    label: "an empty question list taken to ask nothing",
    source: workedWith(
      "lab-03",
      "retryRequest",
      "  if (result.inputRequests !== undefined) {",
      "  if (Object.keys(result.inputRequests ?? {}).length > 0) {",
    ),
  },
];

const scratch = await Deno.makeTempDir({ prefix: "attacks-round13-" });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));

/** The catalogue of `unit fn`. */
function catalogueOf(unit: string, fn: string) {
  const catalogue = CATALOGUES.find((c) => c.unit === unit && c.fn === fn);
  assert.ok(catalogue, `no catalogue of ${unit} ${fn}`);
  return catalogue;
}

/** Every attempt of `attempts`, its source from its function's catalogue. */
function listed(attempts: Readonly<Record<string, readonly string[]>>): Attempt[] {
  return Object.entries(attempts).flatMap(([key, labels]) => {
    const [unit, fn] = key.split(" ");
    const { wrong } = catalogueOf(unit, fn);
    return labels.map((label) => {
      assert.ok(wrong[label], `${key}'s catalogue has no ${label}`);
      return { unit, fn, label, source: wrong[label] };
    });
  });
}

const open = Deno.env.get("ROUND13_OPEN") === "1";
const closed = listed(ATTEMPTS);
const attempts = [...closed, ...(open ? OPEN : [])];
const graded = await gradeTogether(
  await Promise.all(attempts.map(async ({ unit, label, source }) => {
    const path = `${scratch}/${crypto.randomUUID()}.ts`;
    await Deno.writeTextFile(path, source);
    return { name: label, submissions: [{ unit, code: { kind: "module" as const, path } }] };
  })),
  await loadHoldouts(),
  { functions: [...new Set(attempts.map(({ fn }) => fn))] },
);

for (const [index, { fn, label }] of [...closed, ...OPEN].entries()) {
  Deno.test({
    name: `a misreading of ${fn} loses marks: ${label}`,
    // The open attempts are graded only when asked for (ROUND13_OPEN=1).
    ignore: index >= attempts.length,
    fn() {
      const [results] = graded[index];
      const tests = results.tests.filter((t) => t.name.startsWith(`${fn}: `));
      const score = tests.reduce((sum, t) => sum + t.score, 0);
      console.log(`${fn}: ${label}: ${score}/${tests.length}`);
      assert.ok(tests.length > 0, `${fn} has no case`);
      assert.ok(score < tests.length, `${label} kept every ${fn} mark (${score}/${tests.length})`);
    },
  });
}
