// The watermark's second run, as planned for every probed function of every
// unit (each sent there alone, and all of a unit's at once, every case
// passed): each mark's run of twelve is there whole and in its order, and no
// realm holds more of a checked function's calls than the first run's hidden
// realm did, counted as a copy could count them (every call, and the calls
// holding a name of the secrets' look), so that a copy that lets the first run
// pass whole and spoils what comes past its count never reaches it there.

import assert from "node:assert/strict";
import { secondRun } from "../tools/grading/second_run.ts";
import type { CaseResult, UnitJob } from "../tools/grading/sandbox.ts";
import type { GradedCase } from "../tools/grading/spec.ts";
import { casesOf, loadHoldouts, UNITS } from "../tools/grading/units/mod.ts";
import { loadWatermark, withProbes } from "../tools/grading/watermark.ts";

const holdouts = await loadHoldouts();
const watermark = (await loadWatermark())!;

/** A name of the secrets' look: three words of the token's lengths, or of any, joined by `_`. */
const LOOKS = [
  new RegExp(watermark.token.split("_").map((word) => `[a-z]{${word.length}}`).join("_")),
  /[a-z]+_[a-z]+_[a-z]+/i,
];

/** A case's arguments as text a copy could search: bytes decoded, maps and sets as lists. */
const textOf = (c: GradedCase) =>
  JSON.stringify(
    c.args,
    (_, value) =>
      ArrayBuffer.isView(value)
        ? new TextDecoder().decode(value as Uint8Array)
        : value instanceof Map || value instanceof Set
        ? [...value]
        : value,
  );

/** What a copy could count of `cases`: every call, and those of each look. */
const counts = (cases: readonly GradedCase[]) => [
  cases.length,
  ...LOOKS.map((look) => cases.filter((c) => look.test(textOf(c))).length),
];

/** Each mark's probes, by its group, in their order. */
const byMark = (cases: readonly GradedCase[]) =>
  [...Map.groupBy(cases.filter((c) => c.probe !== undefined), (c) => String(c.group))]
    .map(([group, probes]) => [group, probes.map((c) => c.args)] as const)
    .sort(([a], [b]) => a.localeCompare(b));

/** Every unit's first-run job, as the grader makes it. */
const jobs: UnitJob[] = [...UNITS].map(([unit, spec]) => ({
  unit,
  functions: spec.functions.map((fn) => ({
    ...fn,
    cases: withProbes(casesOf(spec, fn, holdouts), unit, fn, watermark, { sift: true }),
  })),
}));

/** The first run's results of `job`, every case passed, the sifting probes of `sent` answered as a seal answers them. */
const ranWith = (job: UnitJob, sent: readonly string[]): CaseResult[] =>
  job.functions.flatMap((fn) =>
    fn.cases.map((c) => ({
      unit: job.unit,
      fn: fn.name,
      case: c.label,
      hidden: c.hidden,
      status: "PASS" as const,
      observed: "",
      ...(c.probe === undefined ? {} : { watermark: sent.includes(fn.name), group: c.group }),
    }))
  );

const probed = jobs.flatMap((job) =>
  job.functions.filter((fn) => fn.cases.some((c) => c.probe !== undefined))
    .map((fn) => ({ job, name: fn.name }))
);

Deno.test("some function of every unit the seals cover is probed", () => {
  assert.ok(probed.length >= 10, `only ${probed.length} probed functions`);
});

for (const { job, name } of probed) {
  const sentTogether = job.functions.filter((fn) => fn.cases.some((c) => c.probe !== undefined))
    .map((fn) => fn.name);
  for (const sent of [[name], sentTogether]) {
    Deno.test(
      `${job.unit}: ${name}'s second run, ${
        sent.length === 1 ? "sent alone" : "with its unit's others"
      }, holds its runs whole and no realm past the first run's counts`,
      () => {
        const plan = secondRun(job, ranWith(job, sent), watermark);
        assert.ok(plan !== undefined, "it is run again");
        const first = job.functions.find((fn) => fn.name === name)!;
        const again = plan.job.functions.find((fn) => fn.name === name)!.cases;
        const spec = UNITS.get(job.unit)!.functions.find((fn) => fn.name === name)!;
        const runs = withProbes([], job.unit, spec, watermark);
        assert.deepEqual(
          byMark(again.filter((c) => plan.judged.has(c))),
          byMark(runs),
          "each mark's run whole, in its order",
        );
        const limit = counts(first.cases.filter((c) => c.hidden));
        const realms = new Set(again.map((c) => c.realm).filter((realm) => realm !== undefined));
        assert.ok(realms.size > 0);
        for (const realm of realms) {
          const held = counts(again.filter((c) => c.realm === realm));
          held.forEach((count, kind) =>
            assert.ok(count <= limit[kind], `realm ${realm} holds ${held} of (at most) ${limit}`)
          );
        }
        assert.ok(
          again.every((c) => c.realm !== undefined || !c.hidden),
          "every hidden case and probe in a realm of the second run",
        );
      },
    );
  }
}
