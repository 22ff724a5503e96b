// The grader's accuracy: every plausible wrong implementation in the
// catalogue loses marks, and differently written correct ones get them all.
// Each implementation is a learner's module, re-run in the sandbox.

import assert from "node:assert/strict";
import { gradeLearner } from "../tools/grading/grade_learner.ts";
import { loadHoldouts } from "../tools/grading/units/mod.ts";

const scratch = await Deno.makeTempDir({ prefix: "grading-accuracy-" });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));
const holdouts = await loadHoldouts();

/** The marks `source` earns for `fn` of `unit`, and the most it could. */
async function marks(unit: string, fn: string, source: string): Promise<[number, number]> {
  const module = `${scratch}/${crypto.randomUUID()}.ts`;
  // A submitted module imports the library files it may use from ../lib/.
  await Deno.writeTextFile(module, source.replaceAll("LIB/", "../lib/"));
  const learner = {
    name: module,
    submissions: [{ unit, code: { kind: "module" as const, path: module } }],
  };
  const [results] = await gradeLearner(learner, holdouts, { caseTimeoutMs: 1000 });
  const tests = results.tests.filter((t) => t.name.startsWith(`${fn}: `));
  return [tests.reduce((sum, t) => sum + t.score, 0), tests.length];
}

const SPLIT_RIGHT = {
  "the worked solution's way": `
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
}`,
  "copying bytes one at a time": `
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
  "checking lengths after splitting": `
export function splitFrames(buffer, limit) {
  const parts = [];
  let from = 0;
  for (let i = 0; i < buffer.length; i++) if (buffer[i] === 10) { parts.push(buffer.slice(from, i)); from = i + 1; }
  const rest = buffer.slice(from);
  if (parts.some((p) => p.length + 1 > limit) || rest.length >= limit) throw new RangeError("limit");
  return [parts, rest];
}`,
};

const SPLIT_WRONG = {
  "off by one at the limit": SPLIT_RIGHT["the worked solution's way"].replace(
    "end - start + 1 > limit",
    "end - start + 1 >= limit",
  ),
  "no check on the rest": SPLIT_RIGHT["the worked solution's way"].replace(
    'if (buffer.length - start >= limit) throw new RangeError("too long");',
    "",
  ),
  "the rest may reach the limit": SPLIT_RIGHT["the worked solution's way"].replace(
    "buffer.length - start >= limit",
    "buffer.length - start > limit",
  ),
  "no check on complete frames": SPLIT_RIGHT["the worked solution's way"].replace(
    'if (end - start + 1 > limit) throw new RangeError("too long");',
    "",
  ),
  "an Error instead of a RangeError": SPLIT_RIGHT["the worked solution's way"].replaceAll(
    "RangeError",
    "Error",
  ),
  "frames keep their newline": SPLIT_RIGHT["the worked solution's way"].replace(
    "buffer.subarray(start, end)",
    "buffer.subarray(start, end + 1)",
  ),
  "the input is changed": SPLIT_RIGHT["the worked solution's way"].replace(
    "const frames = [];",
    "const frames = []; buffer.reverse(); buffer.reverse(); buffer.fill(0, buffer.length);\n  if (buffer.length > 0) buffer[buffer.length - 1] = buffer[buffer.length - 1] === 10 ? 10 : 0;",
  ),
  "empty lines dropped": SPLIT_RIGHT["the worked solution's way"].replace(
    "frames.push(buffer.subarray(start, end));",
    "if (end > start) frames.push(buffer.subarray(start, end));",
  ),
  "text split, bytes counted as characters": `
export function splitFrames(buffer, limit) {
  const text = new TextDecoder().decode(buffer);
  const lines = text.split("\\n");
  const rest = lines.pop();
  if (lines.some((l) => l.length + 1 > limit) || rest.length >= limit) throw new RangeError("limit");
  return [lines.map((l) => new TextEncoder().encode(l)), new TextEncoder().encode(rest)];
}`,
};

const TRANSFER_RIGHT = {
  "the worked solution's way": `
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
    if (kinds[kind] && !kinds[kind](value)) problems.push(key + " must be " + kind);
  }
  return problems.sort();
}`,
  "with a switch and reduce": `
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
  const missing = (schema.required || []).reduce((out, key) => key in args ? out : [...out, "missing " + key], []);
  const rest = Object.keys(args).flatMap((key) => {
    if (!Object.prototype.hasOwnProperty.call(props, key)) return schema.additionalProperties === false ? ["unexpected " + key] : [];
    return fits(props[key].type, args[key]) ? [] : [key + " must be " + props[key].type];
  });
  return [...missing, ...rest].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}`,
  "in three passes": `
export function transferProblems(schema, args) {
  const out = [];
  for (const key of schema.required ?? []) if (args[key] === undefined && !(key in args)) out.push(\`missing \${key}\`);
  if (schema.additionalProperties === false) for (const key of Object.keys(args)) if (!Object.keys(schema.properties ?? {}).includes(key)) out.push(\`unexpected \${key}\`);
  for (const [key, rule] of Object.entries(schema.properties ?? {})) {
    if (!Object.hasOwn(args, key)) continue;
    const v = args[key];
    const ok = { string: typeof v === "string", integer: Number.isSafeInteger(v), number: typeof v === "number", boolean: typeof v === "boolean" }[rule.type];
    if (ok === false) out.push(\`\${key} must be \${rule.type}\`);
  }
  return out.sort();
}`,
};

const W = TRANSFER_RIGHT["the worked solution's way"];
const TRANSFER_WRONG = {
  "booleans taken as integers": W.replace(
    "integer: (v) => Number.isInteger(v),",
    'integer: (v) => Number.isInteger(v) || typeof v === "boolean",',
  ),
  "integers checked with typeof number": W.replace(
    "integer: (v) => Number.isInteger(v),",
    'integer: (v) => typeof v === "number",',
  ),
  "problems left unsorted": W.replace("return problems.sort();", "return problems;"),
  "extra keys flagged without additionalProperties: false": W.replace(
    "if (schema.additionalProperties === false) problems.push",
    "problems.push",
  ),
  "no check for missing keys": W.replace(
    '.filter((k) => !Object.hasOwn(args, k)).map((k) => "missing " + k)',
    ".filter(() => false)",
  ),
  "the input is changed": W.replace(
    "return problems.sort();",
    "for (const key of Object.keys(args)) delete args[key];\n  return problems.sort();",
  ),
  "a number refuses integers": W.replace(
    'number: (v) => typeof v === "number" && Number.isFinite(v),',
    'number: (v) => typeof v === "number" && !Number.isInteger(v),',
  ),
  "types named wrongly": W.replace('key + " must be " + kind', 'key + " should be " + kind'),
};

const ANSWER_RIGHT = {
  "the worked solution's way": `
import { ProtocolError } from "LIB/errors.ts";
export function answerFor(requestId, message) {
  if (message.id !== requestId) throw new ProtocolError("wrong id");
  if ("error" in message) throw new ProtocolError(message.error.message);
  return message.result;
}`,
  "with Object.is and an early return": `
import { ProtocolError } from "LIB/errors.ts";
export function answerFor(requestId, message) {
  if (Object.is(message.id, requestId) && message.error === undefined) return message.result;
  throw new ProtocolError(\`reply \${message.id} does not answer \${requestId}\`);
}`,
};
const A = ANSWER_RIGHT["the worked solution's way"];
const ANSWER_WRONG = {
  "loose equality": A.replace("message.id !== requestId", "message.id != requestId"),
  "ids compared as strings": A.replace(
    "message.id !== requestId",
    "String(message.id) !== String(requestId)",
  ),
  "an error response taken as an answer": A.replace(
    'if ("error" in message) throw new ProtocolError(message.error.message);',
    "",
  ),
  "a missing id taken as a match": A.replace(
    "message.id !== requestId",
    "message.id && message.id !== requestId",
  ),
  "a plain Error instead of a ProtocolError": A.replaceAll(
    "throw new ProtocolError",
    "throw new Error",
  ),
};

const AUTHORIZE_RIGHT = {
  "the worked solution's way":
    `export function authorize(name, catalog, allowed) { return Object.hasOwn(catalog, name) && allowed.has(name); }`,
  "through the catalog's own keys":
    `export function authorize(name, catalog, allowed) { return Object.keys(catalog).includes(name) && [...allowed].includes(name); }`,
};
const AUTHORIZE_WRONG = {
  "the allowlist alone":
    `export function authorize(name, catalog, allowed) { return allowed.has(name); }`,
  "the catalog alone":
    `export function authorize(name, catalog, allowed) { return Object.hasOwn(catalog, name); }`,
  "inherited names count":
    `export function authorize(name, catalog, allowed) { return name in catalog && allowed.has(name); }`,
  "either will do":
    `export function authorize(name, catalog, allowed) { return Object.hasOwn(catalog, name) || allowed.has(name); }`,
};

const CORRELATE_RIGHT = {
  "the worked solution's way": `
import { ProtocolError } from "LIB/errors.ts";
export function correlate(requestId, reply) {
  if (reply.id !== requestId) throw new ProtocolError("wrong id");
  if ("error" in reply) throw new ProtocolError(reply.error.message, { code: reply.error.code, data: reply.error.data });
  return reply.result;
}`,
  "error after a type check, through a switch": `
import { ProtocolError } from "LIB/errors.ts";
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
};
const C = CORRELATE_RIGHT["the worked solution's way"];
const CORRELATE_WRONG = {
  "loose equality": C.replace("reply.id !== requestId", "reply.id != requestId"),
  "the server's code dropped": C.replace(
    ", { code: reply.error.code, data: reply.error.data }",
    "",
  ),
  "the error's data dropped": C.replace(", data: reply.error.data", ""),
  "a falsy id taken as no id": C.replace(
    "if (reply.id !== requestId)",
    "if (reply.id && reply.id !== requestId)",
  ),
  "an error reply trusted whatever its id": C.replace(
    'if (reply.id !== requestId) throw new ProtocolError("wrong id");',
    'if (reply.id !== requestId && !("error" in reply)) throw new ProtocolError("wrong id");',
  ),
};

const UNWRAP_RIGHT = {
  "the worked solution's way": `
export function unwrap(text) {
  try { return JSON.parse(text); } catch (error) { if (error instanceof SyntaxError) return text; throw error; }
}`,
  "a parse result object": `
export function unwrap(text) {
  const parsed = (() => { try { return { ok: true, value: JSON.parse(text) }; } catch { return { ok: false }; } })();
  return parsed.ok ? parsed.value : text;
}`,
};
const U = UNWRAP_RIGHT["the worked solution's way"];
const UNWRAP_WRONG = {
  "only text that starts with {":
    `export function unwrap(text) { return text.startsWith("{") ? JSON.parse(text) : text; }`,
  "no fallback to text": `export function unwrap(text) { return JSON.parse(text); }`,
  "text trimmed on the way": U.replace("return text;", "return text.trim();"),
  "numbers kept as text": U.replace(
    "return JSON.parse(text);",
    'const v = JSON.parse(text); return typeof v === "number" ? text : v;',
  ),
  "null taken as nothing": U.replace(
    "return JSON.parse(text);",
    "return JSON.parse(text) ?? text;",
  ),
};

const CATALOGUE: [string, string, Record<string, string>, Record<string, string>][] = [
  ["lab-02", "correlate", CORRELATE_RIGHT, CORRELATE_WRONG],
  ["lab-02", "unwrap", UNWRAP_RIGHT, UNWRAP_WRONG],
  ["ch14-b", "splitFrames", SPLIT_RIGHT, SPLIT_WRONG],
  ["ch14-b", "transferProblems", TRANSFER_RIGHT, TRANSFER_WRONG],
  ["ch14-a", "answerFor", ANSWER_RIGHT, ANSWER_WRONG],
  ["ch14-a", "authorize", AUTHORIZE_RIGHT, AUTHORIZE_WRONG],
];

for (const [unit, fn, right, wrong] of CATALOGUE) {
  Deno.test(`${fn}: correct implementations get full marks`, async (t) => {
    assert.ok(Object.keys(right).length >= 2);
    for (const [label, source] of Object.entries(right)) {
      await t.step(label, async () => {
        const [score, max] = await marks(unit, fn, source);
        assert.equal(score, max);
      });
    }
  });
  Deno.test(`${fn}: every wrong implementation loses marks`, async (t) => {
    for (const [label, source] of Object.entries(wrong)) {
      await t.step(label, async () => {
        assert.notEqual(source, right["the worked solution's way"], "the mutation did not apply");
        const [score, max] = await marks(unit, fn, source);
        assert.ok(score < max, `${label} got full marks (${score}/${max})`);
      });
    }
  });
}
