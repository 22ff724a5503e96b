// Round 19 of the red team: the client's side of an elicitation form, against
// real servers. Round 18 held a server's defaults to the check the course's
// servers hold answers to; that check knew only the specification's keywords,
// so a form with the exclusiveMinimum, exclusiveMaximum or pattern servers add
// (FastMCP writes them for pydantic's gt, lt and pattern; 2025-11-25's and
// 2026-07-28's PrimitiveSchemaDefinition define none) had none of its
// defaults filled in, fitting ones too. The client now reads them as JSON
// Schema does, a pattern run by RE2, and fills in the defaults that fit them.
// Asked by the SDK v2 server in each era (tests/fixtures/form_peer.ts) and by
// FastMCP (tests/fixtures/fastmcp_form_peer.py, in round 18's test).

import assert from "node:assert/strict";
import { formAnswered } from "../_peer_sessions.ts";
import { formPeer } from "../_peers.ts";

/** Defaults under the keywords servers add: the first three fit, the last three do not. */
const BEYOND = {
  above: { type: "number", exclusiveMinimum: 0, default: 0.5 },
  below: { type: "integer", exclusiveMaximum: 5, default: 4 },
  code: { type: "string", pattern: "^[A-Z]{2}\\d{2}$", default: "AB12" },
  zero: { type: "number", exclusiveMinimum: 0, default: 0 },
  five: { type: "integer", exclusiveMaximum: 5, default: 5 },
  lower: { type: "string", pattern: "^[A-Z]", default: "mint" },
};

Deno.test("the client fills in defaults that fit an exclusive bound or a pattern, and no other", async (t) => {
  const form = { type: "object", properties: BEYOND };
  for (const era of ["modern", "2025-11-25"] as const) {
    await t.step(era === "modern" ? "2026-07-28, a multi round-trip request" : era, async () => {
      assert.deepEqual(await formAnswered(formPeer(era, form)), {
        above: 0.5,
        below: 4,
        code: "AB12",
      });
    });
  }
});
