/**
 * Which Unit A handoff Unit B starts from: the learner's own, when they name
 * one that is there, valid and complete, or else the supplied reference,
 * with the reason the learner's was not used. Either way it is saved, checked
 * against its schema, as the unit's course input, replacing any left by an
 * earlier run.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { loadEvidence, saveEvidence } from "./evidence.ts";
import type { JsonObject } from "../mcp/shared/jsonrpc.ts";
import { REFERENCE_HANDOFF } from "./reference_handoff.ts";

/** The course folder: a relative path a learner gives is read from here. */
const COURSE = fileURLToPath(new URL("../../", import.meta.url));

/** What Unit B starts from. */
export interface StartingHandoff {
  /** `LEARNER_SELECTED` when the learner's own handoff is used. */
  origin: "LEARNER_SELECTED" | "SUPPLIED_REFERENCE";
  /** The handoff, as saved at the course input. */
  handoff: JsonObject;
  /** Why the learner's handoff was not used, when they named one that was not. */
  problem?: string;
}

/**
 * Choose the handoff to start from, and save it at `courseInput`. `chosen` is
 * `null` for the supplied reference, or the path of the learner's handoff:
 * absolute, or relative to the course folder (`work/ch14-a/...`), whatever
 * folder the kernel runs in. A learner's handoff that is missing, not JSON,
 * not matching its schema, or not `COMPLETED` is not used: the reference is,
 * and `problem` says why. Nothing the learner wrote is changed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const input = await Deno.makeTempFile({ suffix: ".json" });
 * const start = await startingHandoff("work/no-such-handoff.json", input);
 * assert.equal(start.origin, "SUPPLIED_REFERENCE");
 * assert.match(start.problem!, /not used/);
 * await Deno.remove(input);
 * ```
 */
export async function startingHandoff(
  chosen: string | null,
  courseInput: string | URL,
): Promise<StartingHandoff> {
  await Deno.remove(courseInput).catch(() => {}); // never read what an earlier run left
  let problem: string | undefined;
  if (chosen !== null) {
    const path = chosen.startsWith("/") ? chosen : `${COURSE}${chosen}`;
    try {
      const handoff = await loadEvidence(path, "ch14-a-handoff");
      if (handoff.unit === "ch14-a" && handoff.status === "COMPLETED") {
        await saveEvidence(courseInput, handoff, "ch14-a-handoff");
        return { origin: "LEARNER_SELECTED", handoff };
      }
      problem = `it says ${handoff.status}: Unit A saves COMPLETED only when every check ` +
        "in it held. Finish Unit A and run it again from the top";
    } catch (error) {
      problem = (error as Error).message;
    }
    problem = `Your handoff ${JSON.stringify(chosen)} was not used: ${problem}. ` +
      "A relative path is read from the course folder, as in " +
      '"work/ch14-a/ch14-unit-a-handoff-v1.json". This run starts from the supplied reference.';
  }
  await saveEvidence(courseInput, REFERENCE_HANDOFF, "ch14-a-handoff");
  return { origin: "SUPPLIED_REFERENCE", handoff: REFERENCE_HANDOFF, problem };
}
