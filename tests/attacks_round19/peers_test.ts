// Round 19 of the red team, as a peer of the other era: servers of each era
// (the SDK v2 server at 2026-07-28, at 2025-11-25 and at 2025-06-18, behind
// the wire tap that records what reached it) ask forms of odd shapes, and the
// course's client's check of its user's answer (checkedAnswer, round 19) and
// of the form's defaults (withDefaults) is held to what the server then reads.
//
// Two holes in what every answer is: a list holding undefined, or with a hole
// in it (a JavaScript form library's empty slot), passed the multiple
// choice's check and the check of a key no field defines, and went out with
// null in it; and a number JSON cannot carry (NaN, Infinity) passed as a
// value of a key the form requires but defines no field for, or of any key
// of a form the check cannot read, and went out as null. Each is refused now,
// naming the field, and the next answer still goes through unchanged.

import assert from "node:assert/strict";
import type { JsonObject } from "../../lib/mcp/shared/jsonrpc.ts";
import { formAnswers } from "../_peer_sessions.ts";
import { formPeer, type PeerEra, tapped } from "../_peers.ts";

const SIZES = { type: "string", enum: ["S", "L"] };
const accept = (content: JsonObject) => ({ action: "accept", content });

/**
 * What the SDK v2 server of `era` asking `form` returned for each of
 * `answers` (the call's error, or what it received), and every answer the
 * client sent it (each `"action"` line of the wire).
 */
async function askedBy(
  era: PeerEra,
  form: JsonObject,
  answers: JsonObject[],
): Promise<{ said: unknown[]; sent: string[] }> {
  const wire = await Deno.makeTempFile({ prefix: "peers19-wire-" });
  try {
    const said = await formAnswers(tapped(wire, formPeer(era, form)), answers);
    const sent = (await Deno.readTextFile(wire)).split("\n")
      .filter((line) => / > /.test(line) && line.includes('"action"'));
    return { said, sent };
  } finally {
    await Deno.remove(wire);
  }
}

/** The FormAnswerError a call fails with when the client refused its answer for `rule`. */
const refusal = (rule: RegExp) => new RegExp(`^FormAnswerError: .*${rule.source}`);

/** A multiple choice, and a key the form requires but defines no field for. */
const CHOICES = {
  type: "object",
  properties: { sizes: { type: "array", items: SIZES, maxItems: 2 } },
  required: ["ghost"],
};
/** A form the check cannot read (uniqueItems is no elicitation form's): held to what every answer is. */
const UNREAD = {
  type: "object",
  properties: { sizes: { type: "array", items: SIZES, uniqueItems: true } },
};

Deno.test("the client sends no list with a hole or undefined in it, nor a number JSON writes as null", async (t) => {
  const cases: [PeerEra, JsonObject, [JsonObject, RegExp][], JsonObject][] = [
    ["modern", CHOICES, [
      [accept({ sizes: ["S", undefined], ghost: "x" }), /sizes holds undefined/],
      // deno-lint-ignore no-sparse-arrays
      [accept({ sizes: [, "S"], ghost: "x" }), /sizes holds undefined/],
      [accept({ ghost: NaN }), /ghost is not a string, number, boolean/],
      [accept({ ghost: Infinity }), /ghost is not a string, number, boolean/],
    ], { sizes: ["S", "L"], ghost: "x" }],
    ["2025-11-25", UNREAD, [
      [accept({ sizes: ["S", undefined] }), /sizes is not a string, number, boolean/],
      // deno-lint-ignore no-sparse-arrays
      [accept({ sizes: [, "S"] }), /sizes is not a string, number, boolean/],
      [accept({ sizes: ["S"], note: -Infinity }), /note is not a string, number, boolean/],
    ], { sizes: ["L"], note: 2.5 }],
  ];
  for (const [era, form, misfits, honest] of cases) {
    await t.step(
      `${era}, ${form === UNREAD ? "a form the check cannot read" : "its form read"}`,
      async () => {
        const { said, sent } = await askedBy(era, form, [
          ...misfits.map(([a]) => a),
          accept(honest),
        ]);
        misfits.forEach(([answer, rule], index) => {
          assert.match(String(said[index]), refusal(rule), JSON.stringify(answer));
        });
        // The session is kept, and the honest answer reaches the server unchanged, the only one.
        assert.deepEqual(said.at(-1), honest);
        assert.equal(sent.length, 1, sent.join("\n"));
        assert.ok(!sent[0].includes("null"), sent[0]);
      },
    );
  }
});
