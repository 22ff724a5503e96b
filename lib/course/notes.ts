/**
 * Written notes that are still the starter's placeholders: a learner's
 * prediction and explanation are read by a person, and saving a placeholder
 * deserves a warning.
 *
 * @module
 */

/**
 * The names of the notes in `notes` that are not written yet: empty, or
 * still starting with `TODO` as the starter's placeholders do. Nested notes
 * are named `group.note`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const notes = { prediction: { claim: "TODO: what you expect", reason: "Ids must match." } };
 * assert.deepEqual(unwrittenNotes(notes), ["prediction.claim"]);
 * ```
 */
export function unwrittenNotes(notes: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(notes).flatMap(([name, value]) => {
    if (typeof value === "object" && value !== null) {
      return unwrittenNotes(value as Record<string, unknown>, `${prefix}${name}.`);
    }
    const text = String(value ?? "").trim();
    return text === "" || /^TODO\b/i.test(text) ? [`${prefix}${name}`] : [];
  });
}
