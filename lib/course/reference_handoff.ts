/**
 * The handoff the worked Unit A produces, supplied to learners who start
 * Unit B without their own.
 *
 * @module
 */

/** Unit A's reference handoff, as `work/ch14-a/ch14-unit-a-handoff-v1.json` holds it. */
export const REFERENCE_HANDOFF = {
  unit: "ch14-a",
  status: "COMPLETED",
  protocolVersion: "2025-06-18",
  advertised: ["place_purchase", "word_count"],
  allowed: ["word_count"],
  observations: {
    advertised: ["place_purchase", "word_count"],
    old_version: "refused",
    old_version_calls: 0,
    protocolVersion: "2025-06-18",
    purchase: "refused",
    server_calls: ["word_count"],
    word_count: "4",
  },
} as const;
