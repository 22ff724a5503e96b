// Unit B's catalogue: splitFrames and transferProblems as learners write them.

import { type Catalogue, mutationsOf } from "./learner.ts";

/** The worked way of splitFrames. */
const SPLIT_FRAMES = String.raw`
export function splitFrames(buffer, limit) {
  const frames = [];
  let start = 0;
  for (let end = buffer.indexOf(10); end !== -1; end = buffer.indexOf(10, start)) {
    if (end - start + 1 > limit) throw new RangeError("too long");
    frames.push(buffer.subarray(start, end));
    start = end + 1;
  }
  if (buffer.length - start >= limit) throw new RangeError("too long");
  return [frames, buffer.subarray(start)];
}`;

const mutate = mutationsOf(SPLIT_FRAMES);

const splitFrames: Catalogue = {
  unit: "ch14-b",
  fn: "splitFrames",
  right: {
    "the worked solution's way": SPLIT_FRAMES,
    "copying bytes one at a time": String.raw`
export function splitFrames(buffer, limit) {
  const frames = [];
  let line = [];
  for (const byte of buffer) {
    if (byte !== 10) { line.push(byte); continue; }
    if (line.length >= limit) throw new RangeError("frame over the limit");
    frames.push(Uint8Array.from(line));
    line = [];
  }
  if (line.length >= limit) throw new RangeError("rest over the limit");
  return [frames, Uint8Array.from(line)];
}`,
    "checking lengths after splitting": String.raw`
export function splitFrames(buffer, limit) {
  const parts = [];
  let from = 0;
  for (let i = 0; i < buffer.length; i++) if (buffer[i] === 10) { parts.push(buffer.slice(from, i)); from = i + 1; }
  const rest = buffer.slice(from);
  if (parts.some((p) => p.length + 1 > limit) || rest.length >= limit) throw new RangeError("limit");
  return [parts, rest];
}`,
    "the rest first, from the last newline": String.raw`
export function splitFrames(buffer, limit) {
  const last = buffer.lastIndexOf(10);
  const rest = buffer.slice(last + 1);
  if (rest.length >= limit) throw new RangeError("the rest is too long");
  const frames = [];
  let start = 0;
  while (start <= last) {
    const end = buffer.indexOf(10, start);
    if (end - start >= limit) throw new RangeError("a frame is too long");
    frames.push(buffer.slice(start, end));
    start = end + 1;
  }
  return [frames, rest];
}`,
  },
  wrong: {
    // A CRLF line end taken whole: the CR is cut from the frame, which is no longer the
    // bytes the peer sent (round 11 of issue 38's red team: it kept every mark).
    "a CR before the newline dropped": mutate(
      "frames.push(buffer.subarray(start, end));",
      "frames.push(buffer.subarray(start, buffer[end - 1] === 13 && end > start ? end - 1 : end));",
    ),
    // A frame exactly at the limit (its newline included) is refused.
    "off by one at the limit": mutate(
      "if (end - start + 1 > limit)",
      "if (end - start + 1 >= limit)",
    ),
    // The limit held against the whole buffer, not each frame: two frames that each fit
    // are refused together.
    "the whole buffer held to the limit": String.raw`
export function splitFrames(buffer, limit) {
  if (buffer.length > limit) throw new RangeError("too long");
  const frames = [];
  let start = 0;
  for (let end = buffer.indexOf(10); end !== -1; end = buffer.indexOf(10, start)) {
    frames.push(buffer.subarray(start, end));
    start = end + 1;
  }
  if (buffer.length - start >= limit) throw new RangeError("too long");
  return [frames, buffer.subarray(start)];
}`,
    // Only complete frames are measured: an endless line grows without bound.
    "no check on the rest": mutate(
      '  if (buffer.length - start >= limit) throw new RangeError("too long");\n',
      "",
    ),
    // The rest may reach the limit: its newline, still to come, would pass it.
    "the rest may reach the limit": mutate(
      "if (buffer.length - start >= limit)",
      "if (buffer.length - start > limit)",
    ),
    // Only what still waits is measured: a complete frame of any size passes.
    "no check on complete frames": mutate(
      '    if (end - start + 1 > limit) throw new RangeError("too long");\n',
      "",
    ),
    // The newline left out of the count: a frame one byte too long passes.
    "frames measured without their newline": mutate(
      "if (end - start + 1 > limit)",
      "if (end - start > limit)",
    ),
    // Only the first line is measured, as if frames came one per read.
    "only the first frame measured": String.raw`
export function splitFrames(buffer, limit) {
  const first = buffer.indexOf(10);
  const firstLength = first === -1 ? buffer.length : first + 1;
  if (firstLength > limit || (first === -1 && buffer.length >= limit)) throw new RangeError("too long");
  const frames = [];
  let start = 0;
  for (let end = first; end !== -1; end = buffer.indexOf(10, start)) {
    frames.push(buffer.subarray(start, end));
    start = end + 1;
  }
  return [frames, buffer.subarray(start)];
}`,
    // An endless line refused only when no newline came at all.
    "the rest measured only when nothing else came": mutate(
      "if (buffer.length - start >= limit)",
      "if (frames.length === 0 && buffer.length >= limit)",
    ),
    // Any error will do for a frame too long.
    "an Error instead of a RangeError": String.raw`
export function splitFrames(buffer, limit) {
  const frames = [];
  let start = 0;
  for (let end = buffer.indexOf(10); end !== -1; end = buffer.indexOf(10, start)) {
    if (end - start + 1 > limit) throw new Error("too long");
    frames.push(buffer.subarray(start, end));
    start = end + 1;
  }
  if (buffer.length - start >= limit) throw new Error("too long");
  return [frames, buffer.subarray(start)];
}`,
    // The newline is kept at the end of each frame.
    "frames keep their newline": mutate(
      "frames.push(buffer.subarray(start, end));",
      "frames.push(buffer.subarray(start, end + 1));",
    ),
    // What was read is cleared from the buffer, the caller's buffer.
    "the read bytes cleared from the input": String.raw`
export function splitFrames(buffer, limit) {
  const frames = [];
  let start = 0;
  for (let end = buffer.indexOf(10); end !== -1; end = buffer.indexOf(10, start)) {
    if (end - start + 1 > limit) throw new RangeError("too long");
    frames.push(buffer.slice(start, end));
    start = end + 1;
  }
  if (buffer.length - start >= limit) throw new RangeError("too long");
  buffer.fill(0, 0, start);
  return [frames, buffer.slice(start)];
}`,
    // Blank lines skipped, as if they were not frames.
    "empty lines dropped": mutate(
      "    frames.push(buffer.subarray(start, end));",
      "    if (end > start) frames.push(buffer.subarray(start, end));",
    ),
    // Text split into lines, and the limit counted in characters, not bytes.
    "characters counted as bytes": String.raw`
export function splitFrames(buffer, limit) {
  const lines = new TextDecoder().decode(buffer).split("\n");
  const rest = lines.pop();
  if (lines.some((l) => l.length + 1 > limit) || rest.length >= limit) throw new RangeError("limit");
  return [lines.map((l) => new TextEncoder().encode(l)), new TextEncoder().encode(rest)];
}`,
    // Bytes counted right, but decoded before framing: half a character is lost.
    "decoded before the frame is complete": String.raw`
export function splitFrames(buffer, limit) {
  const encoder = new TextEncoder();
  const lines = new TextDecoder().decode(buffer).split("\n").map((l) => encoder.encode(l));
  const rest = lines.pop();
  if (lines.some((l) => l.length + 1 > limit) || rest.length >= limit) throw new RangeError("limit");
  return [lines, rest];
}`,
    // Round 14 of issue 38's red team: frames split as text and encoded again, the rest kept as
    // bytes: a byte that is not UTF-8 comes back as U+FFFD's three.
    "frames split as text, the rest as bytes": String.raw`
export function splitFrames(buffer, limit) {
  const encoder = new TextEncoder();
  const frames = new TextDecoder().decode(buffer).split("\n").slice(0, -1).map((l) => encoder.encode(l));
  if (frames.some((f) => f.length + 1 > limit)) throw new RangeError("a frame is too long");
  const rest = buffer.subarray(buffer.lastIndexOf(10) + 1);
  if (rest.length >= limit) throw new RangeError("the rest is too long");
  return [frames, rest];
}`,
    // Each frame trimmed, as lines of text often are.
    "frames trimmed": String.raw`
export function splitFrames(buffer, limit) {
  const frames = [];
  let start = 0;
  for (let end = buffer.indexOf(10); end !== -1; end = buffer.indexOf(10, start)) {
    if (end - start + 1 > limit) throw new RangeError("too long");
    const text = new TextDecoder().decode(buffer.subarray(start, end)).trim();
    frames.push(new TextEncoder().encode(text));
    start = end + 1;
  }
  if (buffer.length - start >= limit) throw new RangeError("too long");
  return [frames, buffer.subarray(start)];
}`,
    // Frames handed back as text: not the bytes the contract promises.
    "frames returned as text": String.raw`
export function splitFrames(buffer, limit) {
  const text = new TextDecoder().decode(buffer);
  const lines = text.split("\n");
  const rest = lines.pop();
  const size = (s) => new TextEncoder().encode(s).length;
  if (lines.some((l) => size(l) + 1 > limit) || size(rest) >= limit) throw new RangeError("limit");
  return [lines, rest];
}`,
  },
};

/** The worked transferProblems, and it with its last line (the sort) changed. */
const TRANSFER = String.raw`
export function transferProblems(schema, args) {
  const kinds = {
    string: (v) => typeof v === "string",
    integer: (v) => Number.isInteger(v),
    number: (v) => typeof v === "number" && Number.isFinite(v),
    boolean: (v) => typeof v === "boolean",
  };
  const properties = schema.properties ?? {};
  const problems = (schema.required ?? []).filter((k) => !Object.hasOwn(args, k)).map((k) => "missing " + k);
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(properties, key)) { if (schema.additionalProperties === false) problems.push("unexpected " + key); continue; }
    const kind = properties[key].type;
    if (Object.hasOwn(kinds, kind) && !kinds[kind](value)) problems.push(key + " must be " + kind);
  }
  return problems.sort();
}`;
const sorting = (to: string) => mutationsOf(TRANSFER)("return problems.sort();", to);

const transferProblems: Catalogue = {
  unit: "ch14-b",
  fn: "transferProblems",
  right: {
    "the worked solution's way": TRANSFER,
    // A key named twice in required reported missing once: a valid schema names each once (JSON
    // Schema: required's elements "MUST be unique"), so either reading is right.
    "a key required twice reported once": sorting("return [...new Set(problems)].sort();"),
    "with a switch and reduce": String.raw`
export function transferProblems(schema, args) {
  const props = schema.properties || {};
  const fits = (type, value) => {
    switch (type) {
      case "string": return typeof value === "string";
      case "integer": return typeof value === "number" && Math.floor(value) === value;
      case "number": return typeof value === "number";
      case "boolean": return value === true || value === false;
      default: return true;
    }
  };
  const missing = (schema.required || []).reduce((out, key) => Object.hasOwn(args, key) ? out : [...out, "missing " + key], []);
  const rest = Object.keys(args).flatMap((key) => {
    if (!Object.prototype.hasOwnProperty.call(props, key)) return schema.additionalProperties === false ? ["unexpected " + key] : [];
    return fits(props[key].type, args[key]) ? [] : [key + " must be " + props[key].type];
  });
  return [...missing, ...rest].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}`,
    "in three passes": String.raw`
export function transferProblems(schema, args) {
  const out = [];
  const properties = schema.properties ?? {};
  for (const key of schema.required ?? []) if (!Object.hasOwn(args, key)) out.push("missing " + key);
  if (schema.additionalProperties === false) {
    for (const key of Object.keys(args)) if (!Object.keys(properties).includes(key)) out.push("unexpected " + key);
  }
  for (const [key, rule] of Object.entries(properties)) {
    if (!Object.hasOwn(args, key)) continue;
    const v = args[key];
    const ok = new Map([
      ["string", typeof v === "string"],
      ["integer", Number.isInteger(v)],
      ["number", typeof v === "number"],
      ["boolean", typeof v === "boolean"],
    ]).get(rule.type);
    if (ok === false) out.push(key + " must be " + rule.type);
  }
  return out.sort();
}`,
    "sets of names, one list": String.raw`
export function transferProblems(schema, args) {
  const properties = schema.properties ?? {};
  const given = Object.keys(args);
  const known = new Set(Object.keys(properties));
  const checks = {
    string: (v) => typeof v === "string",
    integer: Number.isInteger,
    number: (v) => typeof v === "number",
    boolean: (v) => v === true || v === false,
  };
  const wrongType = (key) => {
    const type = properties[key].type;
    return Object.hasOwn(checks, type) && !checks[type](args[key]);
  };
  return [
    ...(schema.required ?? []).filter((key) => !given.includes(key)).map((key) => "missing " + key),
    ...(schema.additionalProperties === false ? given.filter((key) => !known.has(key)).map((key) => "unexpected " + key) : []),
    ...given.filter((key) => known.has(key) && wrongType(key)).map((key) => key + " must be " + properties[key].type),
  ].sort();
}`,
  },
  wrong: {
    // Sorted by localeCompare, not by code unit as the lesson says: "missing order_id" before
    // "missing Tubs".
    "problems sorted by localeCompare": sorting(
      "return problems.sort((a, b) => a.localeCompare(b));",
    ),
    // An integer taken as a safe one: 1e21 has no fraction, and JSON Schema counts it
    // (round 11 of issue 38's red team: it kept every mark, as parseInt did).
    "integers held to Number.isSafeInteger": String.raw`
export function transferProblems(schema, args) {
  const kinds = { string: (v) => typeof v === "string", integer: (v) => Number.isSafeInteger(v), number: (v) => typeof v === "number" && Number.isFinite(v), boolean: (v) => typeof v === "boolean" };
  const properties = schema.properties ?? {};
  const problems = (schema.required ?? []).filter((k) => !Object.hasOwn(args, k)).map((k) => "missing " + k);
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(properties, key)) { if (schema.additionalProperties === false) problems.push("unexpected " + key); continue; }
    const kind = properties[key].type;
    if (Object.hasOwn(kinds, kind) && !kinds[kind](value)) problems.push(key + " must be " + kind);
  }
  return problems.sort();
}`,
    // true and false taken for 1 and 0.
    "booleans taken as integers": String.raw`
export function transferProblems(schema, args) {
  const kinds = { string: (v) => typeof v === "string", integer: (v) => Number.isInteger(v) || typeof v === "boolean", number: (v) => typeof v === "number", boolean: (v) => typeof v === "boolean" };
  const properties = schema.properties ?? {};
  const problems = (schema.required ?? []).filter((k) => !Object.hasOwn(args, k)).map((k) => "missing " + k);
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(properties, key)) { if (schema.additionalProperties === false) problems.push("unexpected " + key); continue; }
    const kind = properties[key].type;
    if (Object.hasOwn(kinds, kind) && !kinds[kind](value)) problems.push(key + " must be " + kind);
  }
  return problems.sort();
}`,
    // typeof for integers: 2.5 passes as a number of tubs.
    "typeof for integers": String.raw`
export function transferProblems(schema, args) {
  const properties = schema.properties ?? {};
  const problems = (schema.required ?? []).filter((k) => !Object.hasOwn(args, k)).map((k) => "missing " + k);
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(properties, key)) { if (schema.additionalProperties === false) problems.push("unexpected " + key); continue; }
    const kind = properties[key].type;
    const jsType = kind === "integer" ? "number" : kind;
    if (["string", "number", "boolean"].includes(jsType) && typeof value !== jsType) problems.push(key + " must be " + kind);
  }
  return problems.sort();
}`,
    // Problems in the order they were found.
    // Round 14 of issue 38's red team: the kinds looked up through the prototype, so a type named
    // hasOwnProperty is a check, and one that refuses 1.
    "kinds looked up with in": String.raw`
export function transferProblems(schema, args) {
  const kinds = { string: (v) => typeof v === "string", integer: (v) => Number.isInteger(v), number: (v) => typeof v === "number", boolean: (v) => typeof v === "boolean" };
  const properties = schema.properties ?? {};
  const problems = (schema.required ?? []).filter((k) => !Object.hasOwn(args, k)).map((k) => "missing " + k);
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(properties, key)) { if (schema.additionalProperties === false) problems.push("unexpected " + key); continue; }
    const kind = properties[key].type;
    if (kind in kinds && !kinds[kind](value)) problems.push(key + " must be " + kind);
  }
  return problems.sort();
}`,
    // Round 14 of issue 38's red team: a whole number read as a count, so never below zero.
    "negative integers refused": String.raw`
export function transferProblems(schema, args) {
  const kinds = { string: (v) => typeof v === "string", integer: (v) => Number.isInteger(v) && v >= 0, number: (v) => typeof v === "number", boolean: (v) => typeof v === "boolean" };
  const properties = schema.properties ?? {};
  const problems = (schema.required ?? []).filter((k) => !Object.hasOwn(args, k)).map((k) => "missing " + k);
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(properties, key)) { if (schema.additionalProperties === false) problems.push("unexpected " + key); continue; }
    const kind = properties[key].type;
    if (Object.hasOwn(kinds, kind) && !kinds[kind](value)) problems.push(key + " must be " + kind);
  }
  return problems.sort();
}`,
    "problems left unsorted": String.raw`
export function transferProblems(schema, args) {
  const kinds = { string: (v) => typeof v === "string", integer: Number.isInteger, number: (v) => typeof v === "number", boolean: (v) => typeof v === "boolean" };
  const properties = schema.properties ?? {};
  const problems = (schema.required ?? []).filter((k) => !Object.hasOwn(args, k)).map((k) => "missing " + k);
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(properties, key)) { if (schema.additionalProperties === false) problems.push("unexpected " + key); continue; }
    const kind = properties[key].type;
    if (Object.hasOwn(kinds, kind) && !kinds[kind](value)) problems.push(key + " must be " + kind);
  }
  return problems;
}`,
    // Any key the schema does not name is refused, whatever additionalProperties says.
    "extra keys always refused": String.raw`
export function transferProblems(schema, args) {
  const kinds = { string: (v) => typeof v === "string", integer: Number.isInteger, number: (v) => typeof v === "number", boolean: (v) => typeof v === "boolean" };
  const properties = schema.properties ?? {};
  const problems = (schema.required ?? []).filter((k) => !Object.hasOwn(args, k)).map((k) => "missing " + k);
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(properties, key)) { problems.push("unexpected " + key); continue; }
    const kind = properties[key].type;
    if (Object.hasOwn(kinds, kind) && !kinds[kind](value)) problems.push(key + " must be " + kind);
  }
  return problems.sort();
}`,
    // Only what arrived is checked: a missing key goes unnoticed.
    "no check for missing keys": String.raw`
export function transferProblems(schema, args) {
  const kinds = { string: (v) => typeof v === "string", integer: Number.isInteger, number: (v) => typeof v === "number", boolean: (v) => typeof v === "boolean" };
  const properties = schema.properties ?? {};
  const problems = [];
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(properties, key)) { if (schema.additionalProperties === false) problems.push("unexpected " + key); continue; }
    const kind = properties[key].type;
    if (Object.hasOwn(kinds, kind) && !kinds[kind](value)) problems.push(key + " must be " + kind);
  }
  return problems.sort();
}`,
    // Each key is struck off the arguments once checked: the caller's arguments are changed.
    "the arguments used up while checking": String.raw`
export function transferProblems(schema, args) {
  const kinds = { string: (v) => typeof v === "string", integer: Number.isInteger, number: (v) => typeof v === "number", boolean: (v) => typeof v === "boolean" };
  const properties = schema.properties ?? {};
  const problems = [];
  for (const key of schema.required ?? []) if (!Object.hasOwn(args, key)) problems.push("missing " + key);
  for (const [key, rule] of Object.entries(properties)) {
    if (!Object.hasOwn(args, key)) continue;
    if (Object.hasOwn(kinds, rule.type) && !kinds[rule.type](args[key])) problems.push(key + " must be " + rule.type);
    delete args[key];
  }
  if (schema.additionalProperties === false) for (const key of Object.keys(args)) problems.push("unexpected " + key);
  return problems.sort();
}`,
    // "number" read as "a number with a fraction": whole numbers are refused.
    "a number refuses whole numbers": String.raw`
export function transferProblems(schema, args) {
  const kinds = { string: (v) => typeof v === "string", integer: Number.isInteger, number: (v) => typeof v === "number" && !Number.isInteger(v), boolean: (v) => typeof v === "boolean" };
  const properties = schema.properties ?? {};
  const problems = (schema.required ?? []).filter((k) => !Object.hasOwn(args, k)).map((k) => "missing " + k);
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(properties, key)) { if (schema.additionalProperties === false) problems.push("unexpected " + key); continue; }
    const kind = properties[key].type;
    if (Object.hasOwn(kinds, kind) && !kinds[kind](value)) problems.push(key + " must be " + kind);
  }
  return problems.sort();
}`,
    // Falsy taken as absent: 0 tubs and an empty id are "missing".
    "falsy values taken as missing": String.raw`
export function transferProblems(schema, args) {
  const kinds = { string: (v) => typeof v === "string", integer: Number.isInteger, number: (v) => typeof v === "number", boolean: (v) => typeof v === "boolean" };
  const properties = schema.properties ?? {};
  const problems = (schema.required ?? []).filter((k) => !args[k]).map((k) => "missing " + k);
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(properties, key)) { if (schema.additionalProperties === false) problems.push("unexpected " + key); continue; }
    if (!value) continue;
    const kind = properties[key].type;
    if (Object.hasOwn(kinds, kind) && !kinds[kind](value)) problems.push(key + " must be " + kind);
  }
  return problems.sort();
}`,
    // null taken as absent: a null given for tubs is reported missing, not wrong.
    "null taken as missing": String.raw`
export function transferProblems(schema, args) {
  const kinds = { string: (v) => typeof v === "string", integer: Number.isInteger, number: (v) => typeof v === "number", boolean: (v) => typeof v === "boolean" };
  const properties = schema.properties ?? {};
  const problems = (schema.required ?? []).filter((k) => args[k] == null).map((k) => "missing " + k);
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(properties, key)) { if (schema.additionalProperties === false) problems.push("unexpected " + key); continue; }
    if (value == null) continue;
    const kind = properties[key].type;
    if (Object.hasOwn(kinds, kind) && !kinds[kind](value)) problems.push(key + " must be " + kind);
  }
  return problems.sort();
}`,
    // "in" finds inherited names: toString is never missing, constructor never unexpected.
    "inherited names count": String.raw`
export function transferProblems(schema, args) {
  const kinds = { string: (v) => typeof v === "string", integer: Number.isInteger, number: (v) => typeof v === "number", boolean: (v) => typeof v === "boolean" };
  const properties = schema.properties ?? {};
  const problems = (schema.required ?? []).filter((k) => !(k in args)).map((k) => "missing " + k);
  for (const [key, value] of Object.entries(args)) {
    if (!(key in properties)) { if (schema.additionalProperties === false) problems.push("unexpected " + key); continue; }
    const kind = properties[key].type;
    if (Object.hasOwn(kinds, kind) && !kinds[kind](value)) problems.push(key + " must be " + kind);
  }
  return problems.sort();
}`,
    // Keys checked against "required": an optional key is taken as unexpected.
    "optional keys taken as unexpected": String.raw`
export function transferProblems(schema, args) {
  const kinds = { string: (v) => typeof v === "string", integer: Number.isInteger, number: (v) => typeof v === "number", boolean: (v) => typeof v === "boolean" };
  const properties = schema.properties ?? {};
  const required = schema.required ?? [];
  const problems = required.filter((k) => !Object.hasOwn(args, k)).map((k) => "missing " + k);
  for (const [key, value] of Object.entries(args)) {
    if (!required.includes(key) && schema.additionalProperties === false) { problems.push("unexpected " + key); continue; }
    const kind = properties[key]?.type;
    if (Object.hasOwn(kinds, kind) && !kinds[kind](value)) problems.push(key + " must be " + kind);
  }
  return problems.sort();
}`,
    // Every property is assumed to have one of the four types: another type throws.
    "a type it does not know crashes it": String.raw`
export function transferProblems(schema, args) {
  const kinds = { string: (v) => typeof v === "string", integer: Number.isInteger, number: (v) => typeof v === "number", boolean: (v) => typeof v === "boolean" };
  const properties = schema.properties ?? {};
  const problems = (schema.required ?? []).filter((k) => !Object.hasOwn(args, k)).map((k) => "missing " + k);
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(properties, key)) { if (schema.additionalProperties === false) problems.push("unexpected " + key); continue; }
    const kind = properties[key].type;
    if (!kinds[kind](value)) problems.push(key + " must be " + kind);
  }
  return problems.sort();
}`,
    // Text that reads as a number taken for one.
    "numeric text taken as a number": String.raw`
export function transferProblems(schema, args) {
  const kinds = { string: (v) => typeof v === "string", integer: Number.isInteger, number: (v) => !Number.isNaN(Number(v)), boolean: (v) => typeof v === "boolean" };
  const properties = schema.properties ?? {};
  const problems = (schema.required ?? []).filter((k) => !Object.hasOwn(args, k)).map((k) => "missing " + k);
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(properties, key)) { if (schema.additionalProperties === false) problems.push("unexpected " + key); continue; }
    const kind = properties[key].type;
    if (Object.hasOwn(kinds, kind) && !kinds[kind](value)) problems.push(key + " must be " + kind);
  }
  return problems.sort();
}`,
    // "true" and "false" as text taken for booleans.
    "boolean words taken as booleans": String.raw`
export function transferProblems(schema, args) {
  const kinds = { string: (v) => typeof v === "string", integer: Number.isInteger, number: (v) => typeof v === "number", boolean: (v) => [true, false, "true", "false"].includes(v) };
  const properties = schema.properties ?? {};
  const problems = (schema.required ?? []).filter((k) => !Object.hasOwn(args, k)).map((k) => "missing " + k);
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(properties, key)) { if (schema.additionalProperties === false) problems.push("unexpected " + key); continue; }
    const kind = properties[key].type;
    if (Object.hasOwn(kinds, kind) && !kinds[kind](value)) problems.push(key + " must be " + kind);
  }
  return problems.sort();
}`,
    // The first problem is enough to refuse, so only it is reported.
    "only the first problem reported": String.raw`
export function transferProblems(schema, args) {
  const kinds = { string: (v) => typeof v === "string", integer: Number.isInteger, number: (v) => typeof v === "number", boolean: (v) => typeof v === "boolean" };
  const properties = schema.properties ?? {};
  for (const k of schema.required ?? []) if (!Object.hasOwn(args, k)) return ["missing " + k];
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(properties, key)) { if (schema.additionalProperties === false) return ["unexpected " + key]; continue; }
    const kind = properties[key].type;
    if (Object.hasOwn(kinds, kind) && !kinds[kind](value)) return [key + " must be " + kind];
  }
  return [];
}`,
  },
};

/** Unit B's catalogues. */
export const CH14_B: readonly Catalogue[] = [splitFrames, transferProblems];
