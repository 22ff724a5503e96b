// The careful client against every server in tests/misbehaviours.ts: each ends
// in the outcome written there (the class of error, so a TimeoutError would
// show that the client waited for its 60-second deadline instead of seeing the
// fault), the server ends as written, and nothing is left running but what the
// table says.

import assert from "node:assert/strict";
import { MISBEHAVIOURS, tryMisbehaviour } from "./misbehaviours.ts";

for (const misbehaviour of MISBEHAVIOURS) {
  Deno.test(`a server that ${misbehaviour.does}: ${misbehaviour.outcome}`, async () => {
    const observed = await tryMisbehaviour(misbehaviour);
    assert.equal(observed.outcome, misbehaviour.outcome, `the client said: ${observed.said}`);
    assert.match(observed.said, misbehaviour.says);
    assert.equal(observed.ended, misbehaviour.ended);
  });
}
