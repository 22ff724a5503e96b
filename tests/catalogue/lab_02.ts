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
    // An error member decides, whatever else the reply holds: a result beside it is not an answer.
    "mine or not, then error or result": String.raw`${P}
export function correlate(requestId, reply) {
  const mine = typeof reply.id === typeof requestId && reply.id === requestId;
  if (!mine) throw new ProtocolError("not the reply to " + requestId);
  if (!Object.hasOwn(reply, "error")) return reply.result;
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
    // The result read first: a reply with an error beside it taken for an answer (round 13 of
    // issue 38's red team: it kept every mark).
    "the result read first": String.raw`${P}
export function correlate(requestId, reply) {
  if (reply.id !== requestId) throw new ProtocolError("wrong id");
  if ("result" in reply) return reply.result;
  throw new ProtocolError(reply.error.message, { code: reply.error.code, data: reply.error.data });
}`,
    // The data passed on only when it is truthy (round 13 of issue 38's red team: it kept every
    // mark): an empty string, 0 or false is data too.
    "falsy data left out": String.raw`${P}
export function correlate(requestId, reply) {
  if (reply.id !== requestId) throw new ProtocolError("wrong id");
  if ("error" in reply) {
    const { code, message, data } = reply.error;
    throw new ProtocolError(message, data ? { code, data } : { code });
  }
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
    // A number read from the start of the text with parseFloat, which stops where the number does
    // (round 13 of issue 38's red team: it kept every mark): "3 verbs" is no JSON.
    "a number read from the start of the text": String.raw`
export function unwrap(text) {
  const number = parseFloat(text);
  if (!Number.isNaN(number) && /^[-\d]/.test(text)) return number;
  try { return JSON.parse(text); } catch (error) { if (error instanceof SyntaxError) return text; throw error; }
}`,
  },
};

/** What the notebook's eraOf cell gives beside the function: the era of a version, the code. */
const GIVEN = String.raw`${P}
import { isObject } from "../lib/mcp/shared/jsonrpc.ts";
const isModern = (version) => version >= "2026-07-28";
const UNSUPPORTED_VERSION = -32022;`;

/** The worked eraOf, with `named` (the versions the server named, or undefined) worked out first. */
const eraOfFrom = (named: string) =>
  String.raw`${GIVEN}
export function eraOf(answer, versions) {
  ${named}
  if (named === undefined) {
    const legacy = versions.find((version) => !isModern(version));
    if (legacy === undefined) throw new ProtocolError("no handshake to fall back to");
    return { era: "legacy", version: legacy };
  }
  const version = versions.find((mine) => named.includes(mine));
  if (version === undefined) throw new ProtocolError("no version in common");
  return { era: isModern(version) ? "modern" : "legacy", version };
}`;

/** The worked way of finding the versions the server named. */
const NAMED = `let named;
  if ("result" in answer) {
    const { supportedVersions, capabilities } = answer.result;
    if (Array.isArray(supportedVersions) && isObject(capabilities)) named = supportedVersions;
  } else if ("error" in answer && answer.error.code === UNSUPPORTED_VERSION) {
    const data = answer.error.data;
    if (isObject(data) && Array.isArray(data.supported)) named = data.supported;
  }`;

const eraOf: Catalogue = {
  unit: "lab-02",
  fn: "eraOf",
  right: {
    "the worked solution's way": eraOfFrom(NAMED),
    "a switch on what came back": String.raw`${GIVEN}
export function eraOf(answer, versions) {
  let named = null;
  switch (true) {
    case "silence" in answer:
      break;
    case "result" in answer:
      if (Array.isArray(answer.result?.supportedVersions) && isObject(answer.result?.capabilities)) {
        named = answer.result.supportedVersions;
      }
      break;
    case answer.error?.code === UNSUPPORTED_VERSION && Array.isArray(answer.error?.data?.supported):
      named = answer.error.data.supported;
      break;
  }
  if (named === null) {
    const legacy = versions.filter((v) => !isModern(v))[0];
    if (!legacy) throw new ProtocolError("the server is legacy and this client has no handshake");
    return { era: "legacy", version: legacy };
  }
  const shared = versions.filter((v) => named.includes(v));
  if (shared.length === 0) throw new ProtocolError("nothing in common: " + JSON.stringify(named));
  return { era: isModern(shared[0]) ? "modern" : "legacy", version: shared[0] };
}`,
    "the named versions as a Set, and early returns": String.raw`${GIVEN}
function namedVersions(answer) {
  const result = answer.result;
  if (isObject(result) && Array.isArray(result.supportedVersions) && isObject(result.capabilities)) {
    return new Set(result.supportedVersions);
  }
  const error = answer.error;
  if (isObject(error) && error.code === -32022 && Array.isArray(error.data?.supported)) {
    return new Set(error.data.supported);
  }
  return undefined;
}
export function eraOf(answer, versions) {
  const named = namedVersions(answer);
  if (!named) {
    for (const version of versions) if (!isModern(version)) return { era: "legacy", version };
    throw new ProtocolError("a legacy server, and no legacy version to offer it");
  }
  for (const version of versions) {
    if (named.has(version)) return { era: isModern(version) ? "modern" : "legacy", version };
  }
  throw new ProtocolError("the server and this client share no version");
}`,
    "one loop over the client's versions, newest first": String.raw`${GIVEN}
export function eraOf(answer, versions) {
  const discover = answer.result;
  const error = answer.error;
  const named = discover && Array.isArray(discover.supportedVersions) && isObject(discover.capabilities)
    ? discover.supportedVersions
    : error && error.code === UNSUPPORTED_VERSION && Array.isArray(error.data?.supported)
    ? error.data.supported
    : undefined;
  for (const version of versions) {
    const fits = named === undefined ? !isModern(version) : named.includes(version);
    if (fits) return { era: isModern(version) ? "modern" : "legacy", version };
  }
  throw new ProtocolError(named === undefined ? "no handshake to fall back to" : "no shared version");
}`,
  },
  wrong: {
    // The brief's first wrong idea: an error is an error, UnsupportedProtocolVersionError too.
    "a fall back on every error, UnsupportedProtocolVersionError too": eraOfFrom(`let named;
  if ("result" in answer) {
    const { supportedVersions, capabilities } = answer.result;
    if (Array.isArray(supportedVersions) && isObject(capabilities)) named = supportedVersions;
  }`),
    // -32601 is what most legacy servers say, so it is taken for the only thing they say.
    "the fall back keyed to -32601 alone": eraOfFrom(`${NAMED}
  if (named === undefined && "error" in answer && answer.error.code !== -32601 && answer.error.code !== UNSUPPORTED_VERSION) {
    throw new ProtocolError("the server refused the probe");
  }`),
    // No answer taken for a refusal, not for a legacy server's silence.
    "silence taken for a refusal": eraOfFrom(`${NAMED}
  if ("silence" in answer) throw new ProtocolError("the server did not answer");`),
    // The server's first version, whatever order it lists them in.
    "the server's first version, not the newest both speak": String.raw`${GIVEN}
export function eraOf(answer, versions) {
  ${NAMED}
  if (named === undefined) return { era: "legacy", version: versions.find((v) => !isModern(v)) };
  const version = named.find((theirs) => versions.includes(theirs));
  if (version === undefined) throw new ProtocolError("no version in common");
  return { era: isModern(version) ? "modern" : "legacy", version };
}`,
    // A DiscoverResult means modern, whatever it lists.
    "a DiscoverResult trusted with no version in common": String.raw`${GIVEN}
export function eraOf(answer, versions) {
  ${NAMED}
  if (named === undefined) return { era: "legacy", version: versions.find((v) => !isModern(v)) };
  const version = versions.find((mine) => named.includes(mine));
  if (version === undefined && "result" in answer) return { era: "modern", version: versions[0] };
  if (version === undefined) throw new ProtocolError("no version in common");
  return { era: isModern(version) ? "modern" : "legacy", version };
}`,
    // Any result is a DiscoverResult: its shape is never looked at.
    "any result taken for a DiscoverResult": eraOfFrom(`let named;
  if ("result" in answer) named = answer.result.supportedVersions ?? [];
  else if ("error" in answer && answer.error.code === UNSUPPORTED_VERSION) {
    named = answer.error.data?.supported ?? [];
  }`),
    // A supported list is read wherever it is found, whatever the error's code.
    "a supported list read from any error": eraOfFrom(`let named;
  if ("result" in answer) {
    const { supportedVersions, capabilities } = answer.result;
    if (Array.isArray(supportedVersions) && isObject(capabilities)) named = supportedVersions;
  } else if ("error" in answer && Array.isArray(answer.error.data?.supported)) {
    named = answer.error.data.supported;
  }`),
    // The era read from the server's newest version, not from the one both speak.
    "the era of the server's newest version": String.raw`${GIVEN}
export function eraOf(answer, versions) {
  ${NAMED}
  if (named === undefined) return { era: "legacy", version: versions.find((v) => !isModern(v)) };
  const version = versions.find((mine) => named.includes(mine));
  if (version === undefined) throw new ProtocolError("no version in common");
  return { era: named.some(isModern) ? "modern" : "legacy", version };
}`,
    // The oldest handshake the client has, as if older were safer.
    "the oldest handshake, not the newest": eraOfFrom(NAMED).replace(
      "const legacy = versions.find((version) => !isModern(version));",
      "const legacy = versions.findLast((version) => !isModern(version));",
    ),
    // This client's handshake version, whatever client is asking.
    "the handshake always offered at 2025-06-18": eraOfFrom(NAMED).replace(
      'return { era: "legacy", version: legacy };',
      'return { era: "legacy", version: "2025-06-18" };',
    ),
    // Modern means 2026-07-28 itself, so a later revision is taken for a handshake.
    "modern known by name, not by date": eraOfFrom(NAMED).replace(
      'const isModern = (version) => version >= "2026-07-28";',
      'const isModern = (version) => version === "2026-07-28";',
    ),
    // A legacy server and a client with no handshake: an undefined version, not a refusal.
    "no handshake to offer, and no refusal": eraOfFrom(NAMED).replace(
      'if (legacy === undefined) throw new ProtocolError("no handshake to fall back to");',
      "",
    ),
    // A version picked from an error's list is taken for today's protocol.
    "a version from an error's list always modern": String.raw`${GIVEN}
export function eraOf(answer, versions) {
  ${NAMED}
  if (named === undefined) return { era: "legacy", version: versions.find((v) => !isModern(v)) };
  const version = versions.find((mine) => named.includes(mine));
  if (version === undefined) throw new ProtocolError("no version in common");
  return { era: "error" in answer || isModern(version) ? "modern" : "legacy", version };
}`,
    // The client's own newest version, once the server turns out modern.
    // Round 13 of issue 38's red team: each kept every mark.
    // The code compared with ==: -32022 written as text taken for the modern error.
    "the code compared loosely": eraOfFrom(
      NAMED.replace(
        "answer.error.code === UNSUPPORTED_VERSION",
        "answer.error.code == UNSUPPORTED_VERSION",
      ),
    ),
    // Capabilities asked only to be of type object: a list passes.
    "capabilities that are a list taken for an object": eraOfFrom(
      NAMED.replace(
        "isObject(capabilities)",
        'typeof capabilities === "object" && capabilities !== null',
      ),
    ),
    // An empty supportedVersions taken for no DiscoverResult: the server is modern, and shares
    // no version.
    "an empty list of versions taken for no DiscoverResult": eraOfFrom(
      NAMED.replace(
        "Array.isArray(supportedVersions) && isObject(capabilities)",
        "Array.isArray(supportedVersions) && supportedVersions.length > 0 && isObject(capabilities)",
      ),
    ),
    // The server's versions trimmed before they are compared: a version is compared exactly.
    "the server's versions trimmed": eraOfFrom(
      NAMED.replace(
        "named = supportedVersions;",
        'named = supportedVersions.map((v) => typeof v === "string" ? v.trim() : v);',
      ),
    ),
    "the client's newest version for any modern server": String.raw`${GIVEN}
export function eraOf(answer, versions) {
  ${NAMED}
  if (named === undefined) return { era: "legacy", version: versions.find((v) => !isModern(v)) };
  if (!versions.some((mine) => named.includes(mine))) throw new ProtocolError("no version in common");
  return { era: "modern", version: versions[0] };
}`,
  },
};

/** Lab 02's catalogues. */
export const LAB_02: readonly Catalogue[] = [correlate, unwrap, eraOf];
