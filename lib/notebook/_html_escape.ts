/**
 * Text made safe to put in HTML: the course's tables, notices and pictures
 * escape every value once, with these.
 *
 * @module
 */

/**
 * `text` as HTML shows it: `&`, `<` and `>` escaped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(escapeHtml("<b> & co"), "&lt;b&gt; &amp; co");
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/**
 * `text` as the value of an HTML attribute in double quotes: escaped as
 * {@linkcode escapeHtml} does, and `"` too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(escapeAttribute('a "box"'), "a &quot;box&quot;");
 * ```
 */
export function escapeAttribute(text: string): string {
  return escapeHtml(text).replaceAll('"', "&quot;");
}
