/**
 * A server's `requestState` for multi round-trip requests (2026-07-28): what
 * it must remember between the rounds of one request, carried by the client
 * and given back on the retry. The client is not trusted with it ("servers
 * MUST treat `requestState` as an attacker-controlled input … MUST protect
 * its integrity (e.g. HMAC or AEAD) and MUST reject state that fails
 * verification"), so it travels sealed: an HMAC-SHA-256, under a key only
 * the server holds, over the state, a short expiry, and the request it
 * belongs to (its method and a digest of its parameters), as the
 * specification recommends against replay ("a short expiry (TTL) … an
 * identifier for the originating request"). The state itself is readable:
 * nothing secret is kept in it.
 *
 * @module
 */

import { isObject, type JsonObject } from "../shared/jsonrpc.ts";

/** Options for {@linkcode RequestStateSeal}. */
export interface RequestStateSealOptions {
  /**
   * The HMAC key (at least 32 bytes). Servers that share requests between
   * processes share it. @default {32 random bytes, made once per seal}
   */
  key?: Uint8Array<ArrayBuffer>;
  /** How long a sealed state may be given back, in milliseconds. @default {600000} (10 minutes) */
  ttlMs?: number;
  /** The most characters a sealed state may take. @default {65536} */
  maxLength?: number;
}

const encoder = new TextEncoder();

/**
 * Seals a request's state for the client to carry, and opens what a client
 * gives back, refusing what was changed, expired, or made for another request.
 *
 * @example A state opens for its own request only, and not once changed
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const seal = new RequestStateSeal();
 * const call = { method: "tools/call", params: { name: "book", arguments: { day: "mon" } } };
 * const state = await seal.seal({ asked: 1 }, call);
 * assert.deepEqual(await seal.open(state, call), { asked: 1 });
 * const other = { method: "tools/call", params: { name: "book", arguments: { day: "tue" } } };
 * assert.match(await seal.open(state, other) as string, /another request/);
 * assert.match(await seal.open(state + "x", call) as string, /failed verification/);
 * ```
 */
export class RequestStateSeal {
  readonly #key: Promise<CryptoKey>;
  readonly #ttlMs: number;
  readonly #maxLength: number;

  /** A seal with its own key, unless `options.key` gives one. */
  constructor(options: RequestStateSealOptions = {}) {
    const key = options.key ?? crypto.getRandomValues(new Uint8Array(32));
    if (key.length < 32) throw new RangeError(`An HMAC key of ${key.length} bytes is under 32`);
    this.#key = crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    this.#ttlMs = options.ttlMs ?? 600_000;
    this.#maxLength = options.maxLength ?? 65536;
  }

  /** `state`, sealed for the request `request` (its method and params), to expire after the TTL. */
  async seal(state: JsonObject, request: { method: string; params: JsonObject }): Promise<string> {
    const payload = encoder.encode(JSON.stringify({
      request: await requestDigest(request),
      expires: Date.now() + this.#ttlMs,
      state,
    }));
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await this.#key, payload));
    return `${base64url(payload)}.${base64url(mac)}`;
  }

  /**
   * The state sealed in `token`, if it was sealed by this seal for `request`
   * and has not expired; otherwise why it is refused (a sentence).
   */
  async open(
    token: string,
    request: { method: string; params: JsonObject },
  ): Promise<JsonObject | string> {
    const refused = "the requestState failed verification";
    if (token.length > this.#maxLength) {
      return `${refused}: it is over ${this.#maxLength} characters`;
    }
    const [payload, mac, ...rest] = token.split(".").map(fromBase64url);
    if (payload === undefined || mac === undefined || rest.length > 0) return refused;
    const valid = await crypto.subtle.verify("HMAC", await this.#key, mac, payload);
    if (!valid) return refused;
    const sealed = JSON.parse(new TextDecoder().decode(payload));
    if (sealed.request !== await requestDigest(request)) {
      return `${refused}: it was made for another request`;
    }
    if (typeof sealed.expires !== "number" || sealed.expires < Date.now()) {
      return `${refused}: it has expired`;
    }
    return isObject(sealed.state) ? sealed.state : refused;
  }
}

/**
 * A digest of what identifies a request across its rounds: its method and
 * its params, without what changes between rounds (`_meta`,
 * `inputResponses`, `requestState`), with every object's keys sorted.
 */
async function requestDigest(request: { method: string; params: JsonObject }): Promise<string> {
  const { _meta: _, inputResponses: __, requestState: ___, ...salient } = request.params;
  const text = JSON.stringify([request.method, canonical(salient)]);
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(text));
  return base64url(new Uint8Array(digest));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value).sort().map((key) => [key, canonical(value[key])]),
  );
}

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * The bytes `text` encodes, if it is their one base64url encoding: a last
 * character whose unused bits are set decodes to the same bytes, and is refused.
 */
function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return base64url(bytes) === text ? bytes : undefined;
  } catch {
    return undefined;
  }
}
