// parseMessage against a model written from the rules, not from the code: a
// message is an object with "jsonrpc": "2.0"; params, when present, an object;
// with a method it is a request (an id that is a string or a safe integer) or
// a notification (no id); without one it is a response with exactly one of
// result (an object, and an id) and error (an integer code and a string
// message, and an id or null). Random messages and random bytes from a fixed
// seed; a failure prints the seed and the path that replays it.

import assert from "node:assert/strict";
import fc from "fast-check";
import { ProtocolError } from "./errors.ts";
import { encodeMessage, parseMessage } from "./jsonrpc.ts";

const SEED = 20260606;
const encoder = new TextEncoder();

const has = (value: object, key: string) => Object.hasOwn(value, key);
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value: unknown) => typeof value === "string" || Number.isSafeInteger(value);

/** The model: whether a parsed JSON value is a message MCP accepts. */
function modelAccepts(value: unknown): boolean {
  if (!isPlainObject(value) || value.jsonrpc !== "2.0") return false;
  if (has(value, "params") && !isPlainObject(value.params)) return false;
  if (has(value, "method")) {
    return typeof value.method === "string" && (!has(value, "id") || isId(value.id));
  }
  if (has(value, "result") === has(value, "error")) return false;
  if (has(value, "result")) return isId(value.id) && isPlainObject(value.result);
  const error = value.error;
  return (value.id === null || isId(value.id)) && isPlainObject(error) &&
    Number.isInteger(error.code) && typeof error.message === "string";
}

/** parseMessage's verdict: the message it returned, or "refused" for a ProtocolError. */
function verdict(frame: Uint8Array): unknown {
  try {
    return parseMessage(frame);
  } catch (error) {
    if (error instanceof ProtocolError) return "refused";
    throw error; // Anything but a ProtocolError is a bug, whatever the bytes.
  }
}

// Values that are right, and wrong in each way that matters, for every field.
const anId = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 4 }),
  fc.constantFrom(null, true, 1.5, 2 ** 60, [1], {}, "1"),
);
const anObject = fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 1 }), {
  maxKeys: 2,
});
const notAnObject = fc.oneof(
  fc.jsonValue({ maxDepth: 1 }),
  fc.array(fc.integer(), { maxLength: 2 }),
);
const anError = fc.oneof(
  fc.record({ code: fc.integer(), message: fc.string({ maxLength: 4 }) }),
  fc.record({ code: fc.integer(), message: fc.string(), data: fc.jsonValue({ maxDepth: 1 }) }),
  fc.record({ code: fc.oneof(fc.double(), fc.string()), message: fc.jsonValue({ maxDepth: 0 }) }, {
    requiredKeys: [],
  }),
  notAnObject,
);
const messageLike = fc.record({
  jsonrpc: fc.oneof(fc.constant("2.0"), fc.constantFrom("1.0", 2, "2.0 ", null)),
  id: anId,
  method: fc.oneof(fc.constantFrom("ping", "tools/call", "notifications/message"), fc.jsonValue()),
  params: fc.oneof(anObject, notAnObject),
  result: fc.oneof(anObject, notAnObject),
  error: anError,
}, { requiredKeys: [] });
// Mostly message-like objects; sometimes a batch of them, or any JSON at all.
const anyMessage = fc.oneof(
  { weight: 8, arbitrary: messageLike },
  { weight: 1, arbitrary: fc.array(messageLike, { maxLength: 2 }) },
  { weight: 1, arbitrary: fc.jsonValue() },
);

Deno.test("parseMessage accepts exactly what the model accepts, unchanged", () => {
  let accepted = 0;
  fc.assert(
    fc.property(anyMessage, (value) => {
      const text = JSON.stringify(value);
      const parsed = JSON.parse(text);
      const result = verdict(encoder.encode(text));
      if (modelAccepts(parsed)) {
        accepted++;
        assert.deepEqual(result, parsed);
      } else {
        assert.equal(result, "refused", `accepted what the model refuses: ${text}`);
      }
    }),
    { seed: SEED, numRuns: 5000 },
  );
  // The generator must reach both sides, or the agreement means little.
  assert.ok(accepted > 250, `only ${accepted} of 5000 random messages were valid`);
});

// Bytes near a valid message: a valid frame with a few bytes overwritten, cut or added.
const nearlyAMessage = fc.tuple(
  messageLike.filter(modelAccepts),
  fc.array(
    fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom("set", "cut", "add")),
    {
      minLength: 1,
      maxLength: 3,
    },
  ),
).map(([value, edits]) => {
  const bytes = [...encoder.encode(JSON.stringify(value))];
  for (const [at, byte, edit] of edits) {
    const position = at % (bytes.length + 1);
    if (edit === "set" && position < bytes.length) bytes[position] = byte;
    else if (edit === "cut") bytes.splice(position, 1);
    else bytes.splice(position, 0, byte);
  }
  return Uint8Array.from(bytes);
});

Deno.test("parseMessage answers any bytes with a message the model accepts or a ProtocolError", () => {
  fc.assert(
    fc.property(fc.oneof(fc.uint8Array({ maxLength: 64 }), nearlyAMessage), (bytes) => {
      const result = verdict(bytes);
      if (result !== "refused") assert.ok(modelAccepts(result), JSON.stringify(result));
    }),
    { seed: SEED, numRuns: 5000 },
  );
});

Deno.test("a byte that is never UTF-8, anywhere in a valid message, is refused", () => {
  const valid = messageLike.filter(modelAccepts);
  fc.assert(
    fc.property(
      valid,
      fc.nat(),
      fc.constantFrom(0xc0, 0xc1, 0xf5, 0xfe, 0xff),
      (value, at, bad) => {
        const bytes = encoder.encode(JSON.stringify(value));
        const position = at % (bytes.length + 1);
        const broken = new Uint8Array(bytes.length + 1);
        broken.set(bytes.subarray(0, position));
        broken[position] = bad;
        broken.set(bytes.subarray(position), position + 1);
        assert.equal(verdict(broken), "refused");
      },
    ),
    { seed: SEED, numRuns: 1000 },
  );
});

Deno.test("encodeMessage writes one line that parseMessage reads back", () => {
  const valid = messageLike.filter(modelAccepts);
  fc.assert(
    fc.property(valid, (value) => {
      const frame = encodeMessage(value as Parameters<typeof encodeMessage>[0]);
      assert.equal(frame.indexOf(0x0a), frame.length - 1);
      assert.deepEqual(verdict(frame.subarray(0, -1)), JSON.parse(JSON.stringify(value)));
    }),
    { seed: SEED, numRuns: 1000 },
  );
});
