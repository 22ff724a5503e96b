// Unit A's catalogue: answerFor and authorize as learners write them.

import { type Catalogue, USES_PROTOCOL_ERROR as P } from "./learner.ts";

const answerFor: Catalogue = {
  unit: "ch14-a",
  fn: "answerFor",
  right: {
    "the worked solution's way": String.raw`${P}
export function answerFor(requestId, message) {
  if (message.id !== requestId) throw new ProtocolError("wrong id");
  if ("error" in message) throw new ProtocolError(message.error.message, { code: message.error.code });
  return message.result;
}`,
    "Object.is and an early return": String.raw`${P}
export function answerFor(requestId, message) {
  if (Object.is(message.id, requestId) && message.error === undefined) return message.result;
  throw new ProtocolError("reply " + message.id + " does not answer " + requestId);
}`,
    "the error first, ids compared as JSON": String.raw`${P}
export function answerFor(requestId, message) {
  if (message.error !== undefined) {
    throw new ProtocolError("error " + message.error.code + ": " + message.error.message);
  }
  if (JSON.stringify(message.id) !== JSON.stringify(requestId)) throw new ProtocolError("not my reply");
  return message.result;
}`,
    "type and value, then a switch": String.raw`${P}
export function answerFor(requestId, message) {
  const sameId = typeof message.id === typeof requestId && message.id === requestId;
  switch (true) {
    case !sameId:
      throw new ProtocolError("a reply to another request");
    case Object.hasOwn(message, "error"):
      throw new ProtocolError("the server refused");
    default:
      return message.result;
  }
}`,
  },
  wrong: {
    // "3" and 3 look the same to ==.
    "loose equality": String.raw`${P}
export function answerFor(requestId, message) {
  if (message.id != requestId) throw new ProtocolError("wrong id");
  if ("error" in message) throw new ProtocolError("server error");
  return message.result;
}`,
    // Ids turned to text before comparing: "3" answers 3.
    "ids compared as strings": String.raw`${P}
export function answerFor(requestId, message) {
  if (String(message.id) !== String(requestId)) throw new ProtocolError("wrong id");
  if ("error" in message) throw new ProtocolError("server error");
  return message.result;
}`,
    // Ids turned to numbers: "req-7" is NaN, and NaN never equals NaN.
    "ids compared as numbers": String.raw`${P}
export function answerFor(requestId, message) {
  if (Number(message.id) !== Number(requestId)) throw new ProtocolError("wrong id");
  if ("error" in message) throw new ProtocolError("server error");
  return message.result;
}`,
    // The id is checked, but an error response still counts as an answer.
    "an error response taken as an answer": String.raw`${P}
export function answerFor(requestId, message) {
  if (message.id !== requestId) throw new ProtocolError("wrong id");
  return message.result;
}`,
    // "No id" written as a falsy id: id 0 is then nobody's.
    "a falsy id taken as no id": String.raw`${P}
export function answerFor(requestId, message) {
  if (message.id && message.id !== requestId) throw new ProtocolError("wrong id");
  if ("error" in message) throw new ProtocolError("server error");
  return message.result;
}`,
    // Any error will do: the client cannot tell a refused reply from a bug.
    "a plain Error instead of a ProtocolError": String.raw`
export function answerFor(requestId, message) {
  if (message.id !== requestId) throw new Error("wrong id");
  if ("error" in message) throw new Error("server error");
  return message.result;
}`,
    // A reply with a result looks like an answer, whoever it answers.
    "a result trusted without its id": String.raw`${P}
export function answerFor(requestId, message) {
  if (message.result !== undefined) return message.result;
  if (message.id !== requestId) throw new ProtocolError("wrong id");
  throw new ProtocolError("server error");
}`,
    // The caller wanted the result; this hands back the envelope.
    "the whole message returned": String.raw`${P}
export function answerFor(requestId, message) {
  if (message.id !== requestId) throw new ProtocolError("wrong id");
  if ("error" in message) throw new ProtocolError("server error");
  return message;
}`,
    // Refusing quietly: null is a value, and the caller carries on with it.
    "null instead of a refusal": String.raw`
export function answerFor(requestId, message) {
  if (message.id !== requestId || "error" in message) return null;
  return message.result;
}`,
    // A string thrown is not an error of any class.
    "a string thrown": String.raw`
export function answerFor(requestId, message) {
  if (message.id !== requestId) throw "wrong id";
  if ("error" in message) throw "server error";
  return message.result;
}`,
    // Same kind of id taken for the same id.
    "only the id's type compared": String.raw`${P}
export function answerFor(requestId, message) {
  if (typeof message.id !== typeof requestId) throw new ProtocolError("wrong id");
  if ("error" in message) throw new ProtocolError("server error");
  return message.result;
}`,
    // The reply is marked used by deleting its id: the caller's message is changed.
    "the reply changed once read": String.raw`${P}
export function answerFor(requestId, message) {
  if (message.id !== requestId) throw new ProtocolError("wrong id");
  delete message.id;
  if ("error" in message) throw new ProtocolError("server error");
  return message.result;
}`,
    // Half-knows that notifications have no id: a reply with none is let through the id check.
    "only an id that is there is checked": String.raw`${P}
export function answerFor(requestId, message) {
  if (message.id != null && message.id !== requestId) throw new ProtocolError("wrong id");
  if ("error" in message) throw new ProtocolError("server error");
  return message.result;
}`,
    // Ids read like names: "REQ-7" taken for "req-7".
    "string ids compared without their case": String.raw`${P}
export function answerFor(requestId, message) {
  const same = typeof requestId === "string" && typeof message.id === "string"
    ? requestId.toLowerCase() === message.id.toLowerCase()
    : requestId === message.id;
  if (!same) throw new ProtocolError("wrong id");
  if ("error" in message) throw new ProtocolError("server error");
  return message.result;
}`,
    // Round 14 of issue 38's red team: a reply that holds a result and an error both (which
    // JSON-RPC forbids) taken by its result, the result looked for first.
    "a reply with a result and an error taken by its result": String.raw`${P}
export function answerFor(requestId, message) {
  if (message.id !== requestId) throw new ProtocolError("wrong id");
  if ("result" in message) return message.result;
  throw new ProtocolError("server error");
}`,
    // Round 14 of issue 38's red team: string ids tidied before they are compared, each a way of
    // "the same value" that is not exactly the same.
    // Ids read like text a person typed: "req-7 " taken for "req-7".
    "string ids trimmed": String.raw`${P}
export function answerFor(requestId, message) {
  const same = typeof requestId === "string" && typeof message.id === "string"
    ? requestId.trim() === message.id.trim()
    : requestId === message.id;
  if (!same) throw new ProtocolError("wrong id");
  if ("error" in message) throw new ProtocolError("server error");
  return message.result;
}`,
    // Ids put in one Unicode form: "cafe\u0301" taken for "caf\u00e9".
    "string ids compared in one Unicode form": String.raw`${P}
export function answerFor(requestId, message) {
  const same = typeof requestId === "string" && typeof message.id === "string"
    ? requestId.normalize() === message.id.normalize()
    : requestId === message.id;
  if (!same) throw new ProtocolError("wrong id");
  if ("error" in message) throw new ProtocolError("server error");
  return message.result;
}`,
    // Ids compared as the UTF-8 bytes they would be sent as: every lone surrogate is U+FFFD there.
    "string ids compared as UTF-8 bytes": String.raw`${P}
export function answerFor(requestId, message) {
  const utf8 = (id) => new TextEncoder().encode(id).join(",");
  const same = typeof requestId === "string" && typeof message.id === "string"
    ? utf8(requestId) === utf8(message.id)
    : requestId === message.id;
  if (!same) throw new ProtocolError("wrong id");
  if ("error" in message) throw new ProtocolError("server error");
  return message.result;
}`,
    // An error taken for one only when its code is a number (round 14 of issue 38's red team).
    "an error counted only when its code is a number": String.raw`${P}
export function answerFor(requestId, message) {
  if (message.id !== requestId) throw new ProtocolError("wrong id");
  if (typeof message.error?.code === "number") throw new ProtocolError(message.error.message, { code: message.error.code });
  return message.result;
}`,
    // An error is taken for one only when it says what went wrong.
    "an error counted only when it has a message": String.raw`${P}
export function answerFor(requestId, message) {
  if (message.id !== requestId) throw new ProtocolError("wrong id");
  if (message.error?.message) throw new ProtocolError(message.error.message);
  return message.result;
}`,
    // A reply without an id is taken as an answer to whatever waits.
    "a reply without an id answers anything": String.raw`${P}
export function answerFor(requestId, message) {
  if (message.id === null || message.id === undefined) return message.result;
  if (message.id !== requestId) throw new ProtocolError("wrong id");
  if ("error" in message) throw new ProtocolError("server error");
  return message.result;
}`,
  },
};

const authorize: Catalogue = {
  unit: "ch14-a",
  fn: "authorize",
  right: {
    "the worked solution's way": String.raw`
export function authorize(name, catalog, allowed) {
  return Object.hasOwn(catalog, name) && allowed.has(name);
}`,
    "through the catalog's own keys": String.raw`
export function authorize(name, catalog, allowed) {
  return Object.keys(catalog).includes(name) && [...allowed].includes(name);
}`,
    "hasOwnProperty borrowed from Object.prototype": String.raw`
export function authorize(name, catalog, allowed) {
  if (!allowed.has(name)) return false;
  return Object.prototype.hasOwnProperty.call(catalog, name);
}`,
    "a loop over the advertised names": String.raw`
export function authorize(name, catalog, allowed) {
  for (const tool of Object.keys(catalog)) {
    if (tool === name) return allowed.has(name);
  }
  return false;
}`,
  },
  wrong: {
    // The allowlist is all that matters: a tool the server never offered is called.
    "the allowlist alone": String.raw`
export function authorize(name, catalog, allowed) {
  return allowed.has(name);
}`,
    // Whatever the server advertises is called: default allow.
    "the catalog alone": String.raw`
export function authorize(name, catalog, allowed) {
  return Object.hasOwn(catalog, name);
}`,
    // "in" also finds names every object inherits, such as toString.
    "inherited names count": String.raw`
export function authorize(name, catalog, allowed) {
  return name in catalog && allowed.has(name);
}`,
    // Either check is taken as enough.
    "either will do": String.raw`
export function authorize(name, catalog, allowed) {
  return Object.hasOwn(catalog, name) || allowed.has(name);
}`,
    // A truthy entry taken as advertised: catalog.toString is a function, so truthy.
    "a truthy entry taken as advertised": String.raw`
export function authorize(name, catalog, allowed) {
  return Boolean(catalog[name]) && allowed.has(name);
}`,
    // The catalog's own hasOwnProperty: a server can advertise a tool of that name.
    "the catalog's own hasOwnProperty": String.raw`
export function authorize(name, catalog, allowed) {
  return catalog.hasOwnProperty(name) && allowed.has(name);
}`,
    // Close enough: "word" for "word_count".
    "a prefix taken for the name": String.raw`
export function authorize(name, catalog, allowed) {
  return Object.keys(catalog).some((tool) => tool.startsWith(name)) && allowed.has(name);
}`,
    // Names searched as text: every piece of an advertised name passes.
    "names searched in one string": String.raw`
export function authorize(name, catalog, allowed) {
  return Object.keys(catalog).join(",").includes(name) && allowed.has(name);
}`,
    // Names compared without their letters' case.
    "case ignored": String.raw`
export function authorize(name, catalog, allowed) {
  const wanted = name.toLowerCase();
  const advertised = Object.keys(catalog).some((tool) => tool.toLowerCase() === wanted);
  return advertised && [...allowed].some((tool) => tool.toLowerCase() === wanted);
}`,
    // An empty allowlist read as "no restriction".
    "an empty allowlist allows everything": String.raw`
export function authorize(name, catalog, allowed) {
  return Object.hasOwn(catalog, name) && (allowed.size === 0 || allowed.has(name));
}`,
    // An empty catalog read as "not listed yet", so the allowlist decides.
    "an empty catalog trusts the allowlist": String.raw`
export function authorize(name, catalog, allowed) {
  const listed = Object.keys(catalog).length > 0;
  return (!listed || Object.hasOwn(catalog, name)) && allowed.has(name);
}`,
    // Names tidied before they are looked up: " word_count" becomes word_count.
    // Issue 30's held-back misreading of authorize: names made one Unicode form before the lookup.
    "names normalized before they are looked up": String.raw`
export function authorize(name, catalog, allowed) {
  const key = name.normalize("NFC");
  return Object.hasOwn(catalog, key) && allowed.has(key);
}`,
    "names trimmed before they are looked up": String.raw`
export function authorize(name, catalog, allowed) {
  const wanted = name.trim();
  return Object.hasOwn(catalog, wanted) && [...allowed].some((tool) => tool.trim() === wanted);
}`,
    // A tool's name taken as a family: word_count_all is "a word_count".
    "a tool's name taken for every name it begins": String.raw`
export function authorize(name, catalog, allowed) {
  return Object.keys(catalog).some((tool) => name.startsWith(tool)) && allowed.has(name);
}`,
    // The Set treated as a plain object: it has no own key of that name, ever.
    "the allowlist read as an object": String.raw`
export function authorize(name, catalog, allowed) {
  return Object.hasOwn(catalog, name) && Object.hasOwn(allowed, name);
}`,
    // Round 14 of issue 38's red team. A name tested for truth first: "" comes back, not false.
    "a name tested for truth first": String.raw`
export function authorize(name, catalog, allowed) {
  return name && Object.hasOwn(catalog, name) && allowed.has(name);
}`,
    // A tool counted as advertised only when its entry holds something: a key is what advertises.
    "an entry of null taken as not advertised": String.raw`
export function authorize(name, catalog, allowed) {
  return Object.hasOwn(catalog, name) && catalog[name] != null && allowed.has(name);
}`,
  },
};

/** Unit A's catalogues. */
export const CH14_A: readonly Catalogue[] = [answerFor, authorize];
