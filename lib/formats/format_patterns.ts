/**
 * Two string formats as ajv-formats 3.0.1 (full mode, which ajv uses after
 * `addFormats(ajv)`) checks them, as expressions' sources (unanchored, read
 * case-insensitively), in a module that imports nothing, below both layers
 * that use it: the token mask builds automata from them (`lib/mask/formats.ts`),
 * and the MCP library, which runs with no npm package in the course's servers,
 * checks an elicitation form's fields and answers with them, on both sides
 * (`lib/mcp/shared/elicitation_form.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const uri = new RegExp(`^(?:${URI})$`, "i");
 * assert.ok(uri.test("https://example.com/a?b=c#d"));
 * assert.ok(!uri.test("http://[bad"));
 * assert.ok(new RegExp(`^(?:${EMAIL})$`, "i").test("ada@example.com"));
 * ```
 *
 * @module
 */

/** ajv-formats' `email`, full mode (case-insensitive). */
export const EMAIL = String
  .raw`[a-z0-9!#$%&'*+/=?^_${"`"}{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_${"`"}{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?`;
/** ajv-formats' `uri`, full mode (case-insensitive); its other test, a `/` or `:`, always holds after the scheme. */
export const URI = String
  .raw`(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?`;
