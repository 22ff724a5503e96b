// Round 18 of the red team: a server's elicitation form whose defaults break
// their own fields, against the course's client. Round 16 left out a default
// of the wrong type or outside its field's choices; a default that breaks
// its field's bounds in the same schema (minLength, maxLength, minimum,
// maximum, minItems, maxItems), its format (email, uri, date, date-time), or
// a bound no elicitation form has (exclusiveMinimum, exclusiveMaximum, which
// 2026-07-28's PrimitiveSchemaDefinition does not define) was still filled
// in, and the server got its own bad default back as if the user had chosen
// it. Asked by the SDK v2 server (tests/fixtures/form_peer.ts),
// which sends a plain JSON form just as written, in each era (a multi round-
// trip request at 2026-07-28, the server's own request at 2025-11-25), the
// client accepting with nothing typed: the server receives no such field,
// and every default that fits. FastMCP makes such a form of a pydantic model
// as Python servers write one (pydantic never checks a default against its
// field's bounds): its two bad defaults came back too
// (tests/fixtures/fastmcp_form_peer.py).

import assert from "node:assert/strict";
import { formAnswered } from "../_peer_sessions.ts";
import { fastmcpFormPeer, formPeer, pythonInstalled } from "../_peers.ts";

const SIZES = { type: "string", enum: ["S", "M", "L"] };

/** Fields whose defaults break their own bounds, format or choices. */
const BROKEN = {
  nick: { type: "string", minLength: 3, default: "Al" },
  code: { type: "string", maxLength: 3, default: "ABCD" },
  tubs: { type: "integer", minimum: 1, maximum: 9, default: 12 },
  weight: { type: "number", minimum: 1, default: 0 },
  positive: { type: "number", exclusiveMinimum: 0, default: 0 },
  below: { type: "integer", exclusiveMaximum: 5, default: 5 },
  email: { type: "string", format: "email", default: "ada" },
  site: { type: "string", format: "uri", default: "not a uri" },
  day: { type: "string", format: "date", default: "2026-02-30" },
  when: { type: "string", format: "date-time", default: "yesterday" },
  sizes: { type: "array", items: SIZES, minItems: 2, default: ["S"] },
  extras: { type: "array", items: SIZES, maxItems: 1, default: ["S", "M"] },
  tier: {
    type: "string",
    oneOf: [{ const: "free", title: "Free" }, { const: "pro", title: "Pro" }],
    default: "gold",
  },
};
/** Fields whose defaults fit: what the server must still receive. */
const FITTING = {
  name: { type: "string", minLength: 2, maxLength: 3, default: "Ada" },
  gift: { type: "boolean", default: true },
  count: { type: "integer", minimum: 1, maximum: 9, default: 9 },
  contact: { type: "string", format: "email", default: "ada@example.com" },
  picks: { type: "array", items: SIZES, minItems: 1, maxItems: 2, default: ["S", "L"] },
};
const FORM = { type: "object", properties: { ...BROKEN, ...FITTING }, required: ["name"] };

Deno.test("the course's client sends no default that breaks its own field's bounds", async (t) => {
  const fitting = Object.fromEntries(
    Object.entries(FITTING).map(([name, field]) => [name, field.default]),
  );
  for (const era of ["modern", "2025-11-25"] as const) {
    await t.step(era === "modern" ? "2026-07-28, a multi round-trip request" : era, async () => {
      assert.deepEqual(await formAnswered(formPeer(era, FORM)), fitting);
    });
  }
});

Deno.test({
  name:
    "the course's client sends FastMCP none of a pydantic form's defaults that break their bounds",
  ignore: !pythonInstalled,
  fn: async () => {
    // name's "Al" is shorter than its minLength 3, tubs' 12 above its maximum 9.
    assert.deepEqual(await formAnswered(fastmcpFormPeer()), { count: 3, size: "L", gift: true });
  },
});
