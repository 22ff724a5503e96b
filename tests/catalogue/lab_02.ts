// Lab 02's catalogue: correlate and unwrap as learners write them.

import { type Catalogue, USES_PROTOCOL_ERROR as P } from "./learner.ts";

const correlate: Catalogue = {
  unit: "lab-02",
  fn: "correlate",
  right: {
    "the worked solution's way": String.raw`${P}
export function correlate(requestId, reply) {
  if (reply.id !== requestId) throw new ProtocolError("wrong id");
  if ("error" in reply) throw new ProtocolError(reply.error.message, { code: reply.error.code, data: reply.error.data });
  return reply.result;
}`,
    "a type check, then a switch": String.raw`${P}
export function correlate(requestId, reply) {
  switch (true) {
    case typeof reply.id !== typeof requestId || reply.id !== requestId:
      throw new ProtocolError(String(reply.id) + " is not " + String(requestId));
    case reply.error !== undefined: {
      const { code, data, message } = reply.error;
      throw new ProtocolError(message, { code, data });
    }
    default:
      return reply.result;
  }
}`,
    "destructured, with Object.is": String.raw`${P}
export function correlate(requestId, reply) {
  const { id, result, error } = reply;
  if (!Object.is(id, requestId)) throw new ProtocolError("reply " + JSON.stringify(id) + " is not for " + JSON.stringify(requestId));
  if (error) throw new ProtocolError(error.message, { code: error.code, data: error.data });
  return result;
}`,
    "mine or not, then result or error": String.raw`${P}
export function correlate(requestId, reply) {
  const mine = typeof reply.id === typeof requestId && reply.id === requestId;
  if (!mine) throw new ProtocolError("not the reply to " + requestId);
  if (Object.hasOwn(reply, "result")) return reply.result;
  throw new ProtocolError("the server failed", { ...reply.error });
}`,
  },
  wrong: {
    // Half-knows that notifications have no id: a reply with none is let through the id check.
    "only an id that is there is checked": String.raw`${P}
export function correlate(requestId, reply) {
  if (reply.id != null && reply.id !== requestId) throw new ProtocolError("wrong id");
  if ("error" in reply) throw new ProtocolError(reply.error.message, { code: reply.error.code, data: reply.error.data });
  return reply.result;
}`,
    // Ids read like names: "REQ-7" taken for "req-7".
    "string ids compared without their case": String.raw`${P}
export function correlate(requestId, reply) {
  const same = typeof requestId === "string" && typeof reply.id === "string"
    ? requestId.toLowerCase() === reply.id.toLowerCase()
    : requestId === reply.id;
  if (!same) throw new ProtocolError("wrong id");
  if ("error" in reply) throw new ProtocolError(reply.error.message, { code: reply.error.code, data: reply.error.data });
  return reply.result;
}`,
    // "1" and 1 look the same to ==.
    "loose equality": String.raw`${P}
export function correlate(requestId, reply) {
  if (reply.id != requestId) throw new ProtocolError("wrong id");
  if ("error" in reply) throw new ProtocolError(reply.error.message, { code: reply.error.code, data: reply.error.data });
  return reply.result;
}`,
    // Ids turned to text before comparing.
    "ids compared as strings": String.raw`${P}
export function correlate(requestId, reply) {
  if (String(reply.id) !== String(requestId)) throw new ProtocolError("wrong id");
  if ("error" in reply) throw new ProtocolError(reply.error.message, { code: reply.error.code, data: reply.error.data });
  return reply.result;
}`,
    // The refusal is right, but the server's code is lost on the way.
    "the server's code dropped": String.raw`${P}
export function correlate(requestId, reply) {
  if (reply.id !== requestId) throw new ProtocolError("wrong id");
  if ("error" in reply) throw new ProtocolError(reply.error.message);
  return reply.result;
}`,
    // The code is kept, the data forgotten.
    "the error's data dropped": String.raw`${P}
export function correlate(requestId, reply) {
  if (reply.id !== requestId) throw new ProtocolError("wrong id");
  if ("error" in reply) throw new ProtocolError(reply.error.message, { code: reply.error.code });
  return reply.result;
}`,
    // "No id" written as a falsy id: id 0 is then nobody's.
    "a falsy id taken as no id": String.raw`${P}
export function correlate(requestId, reply) {
  if (reply.id && reply.id !== requestId) throw new ProtocolError("wrong id");
  if ("error" in reply) throw new ProtocolError(reply.error.message, { code: reply.error.code, data: reply.error.data });
  return reply.result;
}`,
    // An error reply is passed on with its code, whatever request it answers.
    "an error trusted whatever its id": String.raw`${P}
export function correlate(requestId, reply) {
  if ("error" in reply) throw new ProtocolError(reply.error.message, { code: reply.error.code, data: reply.error.data });
  if (reply.id !== requestId) throw new ProtocolError("wrong id");
  return reply.result;
}`,
    // A reply with a result is taken as the answer, without its id.
    "a result trusted without its id": String.raw`${P}
export function correlate(requestId, reply) {
  if ("result" in reply) return reply.result;
  if (reply.id !== requestId) throw new ProtocolError("wrong id");
  throw new ProtocolError(reply.error.message, { code: reply.error.code, data: reply.error.data });
}`,
    // Any error will do, even one carrying the code.
    "a plain Error instead of a ProtocolError": String.raw`
export function correlate(requestId, reply) {
  if (reply.id !== requestId) throw new Error("wrong id");
  if ("error" in reply) throw Object.assign(new Error(reply.error.message), { code: reply.error.code, data: reply.error.data });
  return reply.result;
}`,
    // An error reply handed back as if it were the result.
    "the error returned as the result": String.raw`${P}
export function correlate(requestId, reply) {
  if (reply.id !== requestId) throw new ProtocolError("wrong id");
  return reply.result ?? reply.error;
}`,
    // The code kept as the text of the message, not as a number.
    "the code kept as text": String.raw`${P}
export function correlate(requestId, reply) {
  if (reply.id !== requestId) throw new ProtocolError("wrong id");
  if ("error" in reply) throw new ProtocolError(reply.error.message, { code: String(reply.error.code), data: reply.error.data });
  return reply.result;
}`,
    // An error recognised by a truthy code: code 0 passes for success.
    "an error known by a truthy code": String.raw`${P}
export function correlate(requestId, reply) {
  if (reply.id !== requestId) throw new ProtocolError("wrong id");
  if (reply.error?.code) throw new ProtocolError(reply.error.message, { code: reply.error.code, data: reply.error.data });
  return reply.result;
}`,
    // The error is taken off the reply once read: the caller's reply is changed.
    "the reply changed once read": String.raw`${P}
export function correlate(requestId, reply) {
  if (reply.id !== requestId) throw new ProtocolError("wrong id");
  const error = reply.error;
  delete reply.error;
  if (error) throw new ProtocolError(error.message, { code: error.code, data: error.data });
  return reply.result;
}`,
    // Ids turned to numbers: "req-7" is NaN, and NaN never equals NaN.
    "ids compared as numbers": String.raw`${P}
export function correlate(requestId, reply) {
  if (Number(reply.id) !== Number(requestId)) throw new ProtocolError("wrong id");
  if ("error" in reply) throw new ProtocolError(reply.error.message, { code: reply.error.code, data: reply.error.data });
  return reply.result;
}`,
  },
};

const unwrap: Catalogue = {
  unit: "lab-02",
  fn: "unwrap",
  right: {
    "the worked solution's way": String.raw`
export function unwrap(text) {
  try { return JSON.parse(text); } catch (error) { if (error instanceof SyntaxError) return text; throw error; }
}`,
    "a parse result object": String.raw`
export function unwrap(text) {
  const parsed = (() => { try { return { ok: true, value: JSON.parse(text) }; } catch { return { ok: false }; } })();
  return parsed.ok ? parsed.value : text;
}`,
    "a value that stays the text unless parsed": String.raw`
export function unwrap(text) {
  let value = text;
  try {
    value = JSON.parse(text);
  } catch {
    // not JSON: the text it stays
  }
  return value;
}`,
    "trimmed only to parse": String.raw`
export function unwrap(text) {
  const trimmed = text.trim();
  try { return JSON.parse(trimmed); } catch { return text; }
}`,
  },
  wrong: {
    // Only an object is taken for JSON.
    "only text that starts with {": String.raw`
export function unwrap(text) {
  return text.startsWith("{") ? JSON.parse(text) : text;
}`,
    // Every text is taken for JSON: plain words throw.
    "no fallback to text": String.raw`
export function unwrap(text) {
  return JSON.parse(text);
}`,
    // The text is tidied on its way back.
    "text trimmed on the way": String.raw`
export function unwrap(text) {
  try { return JSON.parse(text); } catch { return text.trim(); }
}`,
    // A number is kept as it came, as text.
    "numbers kept as text": String.raw`
export function unwrap(text) {
  try { const v = JSON.parse(text); return typeof v === "number" ? text : v; } catch { return text; }
}`,
    // null read as "nothing parsed".
    "null taken as nothing": String.raw`
export function unwrap(text) {
  try { return JSON.parse(text) ?? text; } catch { return text; }
}`,
    // Falsy read as "nothing parsed": false and 0 come back as text.
    "falsy values taken as nothing": String.raw`
export function unwrap(text) {
  try { return JSON.parse(text) || text; } catch { return text; }
}`,
    // Only objects and arrays are unwrapped.
    "only objects unwrapped": String.raw`
export function unwrap(text) {
  try { const v = JSON.parse(text); return typeof v === "object" && v !== null ? v : text; } catch { return text; }
}`,
    // A JSON string is left with its quotes.
    "quoted strings keep their quotes": String.raw`
export function unwrap(text) {
  try { const v = JSON.parse(text); return typeof v === "string" ? text : v; } catch { return text; }
}`,
    // Numbers read with Number(), which takes "" for 0 and "Infinity" for a number.
    "numbers read with Number()": String.raw`
export function unwrap(text) {
  const n = Number(text);
  if (!Number.isNaN(n)) return n;
  try { return JSON.parse(text); } catch { return text; }
}`,
    // eval instead of JSON.parse: NaN, single quotes and more pass for JSON.
    "eval instead of JSON.parse": String.raw`
export function unwrap(text) {
  try { return (0, eval)("(" + text + ")"); } catch { return text; }
}`,
    // JSON inside a JSON string unwrapped again.
    "unwrapped twice": String.raw`
export function unwrap(text) {
  try {
    const v = JSON.parse(text);
    return typeof v === "string" ? unwrap(v) : v;
  } catch {
    return text;
  }
}`,
    // Single quotes read as JSON's double quotes.
    "single quotes taken for JSON's": String.raw`
export function unwrap(text) {
  try { return JSON.parse(text.replaceAll("'", '"')); } catch { return text; }
}`,
    // A failed parse gives null, not the text.
    "null for text that is not JSON": String.raw`
export function unwrap(text) {
  try { return JSON.parse(text); } catch { return null; }
}`,
    // JSON recognised by its first character: true, false and null stay text.
    "JSON known by its first character": String.raw`
export function unwrap(text) {
  return /^\s*[\[{"0-9-]/.test(text) ? (() => { try { return JSON.parse(text); } catch { return text; } })() : text;
}`,
  },
};

/** Lab 02's catalogues. */
export const LAB_02: readonly Catalogue[] = [correlate, unwrap];
