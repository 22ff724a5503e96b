/**
 * Why a learner's code may not add a name to `Object.prototype` or
 * `Function.prototype` where work is graded, in the words of the error they
 * meet: the realm's first module makes both take no new names, since a
 * seal's decoder looks names up through them (`graded_realm.ts`), and V8
 * says only that some object "is not extensible". V8's words name no object,
 * and a learner's own frozen object refuses a name in the same words: the
 * prototypes are told as the reason only if the object is one of them.
 *
 * @module
 */

/** V8's message for a name an object that takes no new names refused (after `Uncaught TypeError: `, uncaught). */
const NOT_EXTENSIBLE = /(?:^|: )Cannot (?:add|define) property .+, object is not extensible$/;

/** What follows V8's message: the two prototypes, and why (within the 200 characters a case's line shows). */
const WHY = " (if it is Object.prototype or Function.prototype: they take no new names where " +
  "work is graded, as seals read them)";

/**
 * `message` with why the two prototypes take no new names after it, where it
 * is V8's for a name an object refused; any other message as it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.match(
 *   withWhyNoNewNames("Cannot define property hasKey, object is not extensible"),
 *   /Function\.prototype: they take no new names where work is graded/,
 * );
 * assert.match(
 *   withWhyNoNewNames("Uncaught TypeError: Cannot add property once, object is not extensible"),
 *   /Function\.prototype: they take no new names where work is graded/,
 * );
 * assert.equal(withWhyNoNewNames("x is not defined"), "x is not defined");
 * ```
 */
export function withWhyNoNewNames(message: string): string {
  return NOT_EXTENSIBLE.test(message) ? message + WHY : message;
}
