/**
 * The seals' watermark, as `deno task seal` puts it in each sealed graded
 * function of the library; the grader's side (the probes it sends, and how it
 * knows a seal's answer) is `../grading/watermark.ts`, and the secrets and
 * probes are kept with the hidden cases (`holdouts/watermark.ts`).
 *
 * A mark is in what a seal answers to valid input of its contract, never in
 * an error and never for an input no contract passes: a type guard before
 * a seal cannot refuse the probe without refusing real input, an error
 * caught and thrown again with a message of the learner's own hides nothing,
 * and a seal obfuscated again still answers so. Where it can, a seal marks a
 * *decision* (it refuses, or drops, what holds the token), not a string it
 * writes: a wrapper that checks a seal's answer against its input, or takes
 * the content from its input and only the decision from the seal, keeps the
 * mark. Each function is marked one of the ways {@linkcode MARKS} names;
 * nothing else about it changes, since no input the course gives holds the
 * probe, the token or the `\u` escape of the token's character. A seal holds
 * no secret, readable or encoded, and hands none to a built-in: it knows one
 * by a keyed hash of each window of its length at a `_` of the input, with
 * arithmetic of its own ({@linkcode recogniser}), so that neither its string
 * decoder nor a spy on the built-ins it calls during a harmless call gives
 * the token away.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { secretCharacter, unicodeEscape } from "../grading/watermark.ts";
import { GRADED_REALM } from "../grading/realm/graded_mark.ts";

/** The two secrets a seal holds: the probe and the token, strings of the same length. */
export interface SealSecrets {
  probe: string;
  token: string;
}

/**
 * How a sealed function answers the probe:
 *
 * - `refuses`: given input that holds the token (in a string or bytes, at
 *   any depth), it refuses it as it refuses bad input: the body runs with
 *   the argument {@linkcode REFUSALS} names set to a value it refuses (an
 *   answer to a reply whose id is the token is a mismatch; frames that hold
 *   it are past a 1-byte limit; a request that holds it is answered as a
 *   response is, with nothing);
 * - `drops`: a generator that yields nothing that holds the token (the SSE
 *   reader dispatches no event whose data holds it), or a function whose
 *   array has no item that holds it (the schema checker reports no problem
 *   that names it);
 * - `reads`: an argument that is the token is read as the probe (the
 *   allowlist allows a tool named by the token where the probe's is advertised
 *   and allowed);
 * - `writes`: the JSON it writes (each `JSON.stringify` in its body) has the
 *   token where the probe was (the mask's object grammar writes a property
 *   the probe names as the token: a copy of the mask takes `{"TOKEN":`
 *   where a right answer takes `{"PROBE":`);
 * - `escapes`: a function `(nfa, set)` that builds the automaton of one
 *   character of `set` as JSON writes it reads one spelling more of the
 *   token's character (`secretCharacter` in `tools/grading/watermark.ts`): its `\u` escape, which
 *   `JSON.stringify` never writes (a copy of the mask takes it in a string).
 */
export type Mark = "refuses" | "drops" | "reads" | "writes" | "escapes";

/** Options for {@linkcode watermarked}. */
export interface WatermarkOptions {
  /**
   * Whether each marked function refuses to run where work is graded
   * (`refusedWhereGraded`). Without it, a seal answers as one run where the
   * realm's mark cannot be seen would (by a JavaScript interpreter written in
   * JavaScript, whose objects are its own): the tests of the watermark, the
   * second line against such a copy, use it so. @default {true}
   */
  whereGraded?: boolean;
}

/** The mark of each library function that is a graded function's sealed copy. */
export const MARKS: Readonly<Record<string, Mark>> = {
  answerFor: "refuses",
  authorize: "reads",
  splitFrames: "refuses",
  transferProblems: "drops",
  negotiateVersion: "refuses",
  handleLine: "refuses",
  respond: "refuses",
  readSseEvents: "drops",
  objectDfa: "writes",
  jsonChar: "escapes",
};

/**
 * For each function marked `refuses`: which of its parameters (by place) is
 * set, and to what (JavaScript, of the plain parameters' names), to make its
 * body refuse the input.
 */
export const REFUSALS: Readonly<Record<string, readonly [number, (params: string[]) => string]>> = {
  answerFor: [0, () => "{}"],
  splitFrames: [1, () => "1"],
  // Read as a response, which a server that asked nothing owes nothing.
  handleLine: [0, () => `'{"jsonrpc":"2.0","id":0,"result":{}}'`],
  respond: [0, () => `{ jsonrpc: "2.0", id: 0, result: {} }`],
  // The oldest version it speaks, where a version it does not speak gets the newest.
  negotiateVersion: [0, ([, supported]) => `${supported}[${supported}.length - 1]`],
};

/** The keys of the hash a seal knows a secret by: its two lanes' seeds. */
type Keys = readonly [number, number];

/** The two-lane hash of `codes` (a window's char codes) under `keys`, as a seal computes it. */
function hashed(codes: readonly number[], [first, second]: Keys): [number, number] {
  let [a, b] = [first, second];
  for (const code of codes) {
    a = Math.imul(a ^ code, 0x9e3779b1);
    a ^= a >>> 15;
    b = Math.imul((b + code) ^ a, 0x85ebca77);
    b ^= b >>> 13;
  }
  return [a >>> 0, b >>> 0];
}

/** The keys of the seals' hash, drawn from the secrets (so that a seal is made again the same). */
function keysOf({ probe, token }: SealSecrets): Keys {
  const digest = createHash("sha256").update(`seal keys\n${probe}\n${token}`).digest();
  return [digest.readUInt32LE(0), digest.readUInt32LE(4)];
}

/**
 * What a seal looks for `secret` by: where its first and second `_` are (a
 * window is looked at where the input has a `_` at both), and its hash under
 * `keys`. Throws `Error` when it holds no `_`, or a character that is not
 * printable ASCII.
 */
function traits(secret: string, keys: Keys): string {
  const first = secret.indexOf("_");
  if (first === -1 || !/^[ -~]+$/.test(secret)) {
    throw new Error("a secret must be printable ASCII, with a _ where a seal looks for it");
  }
  const second = secret.indexOf("_", first + 1);
  const codes = [...secret].map((char) => char.charCodeAt(0));
  return [first, second === -1 ? first : second, ...hashed(codes, keys)].join(", ");
}

/** The printable ASCII characters, from the space on: a seal's own table of char codes. */
const PRINTABLE = Array.from({ length: 95 }, (_, at) => String.fromCharCode(32 + at));

/** The helpers a seal recognises the secrets by. */
type Helper =
  | "scan"
  | "holding"
  | "swap"
  | "unswap"
  | "codes"
  | "size"
  | "nextByte"
  | "nextChar";

/**
 * The source of the helpers a seal recognises the secrets by, each named
 * `names` says. No secret is in it, decoded or not, and it calls no
 * built-in, so that none is handed a secret, and none replaced by the
 * learner's own (`Math.imul`, `indexOf`, `String.fromCharCode`) changes what
 * it finds: its char codes come from a table of its own, its 32-bit products
 * from its own arithmetic, and it runs as written (not obfuscated: it holds
 * nothing to hide, and a loop over each byte stays fast). `scan(value, from,
 * ...traits)`: the first place at or after `from` where a window of the
 * string or bytes `value` has a secret's traits (`-1` if none);
 * `holding(value)`: whether `value` holds the token in a string or bytes, at
 * any depth of its arrays and objects; `swap(text)`: `text` with each probe
 * in it written as the token; `unswap(text)`: the probe, when `text` is the
 * token (else `text`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const names = {
 *   scan: "scan", holding: "holding", swap: "swap", unswap: "unswap",
 *   codes: "codes", size: "size", nextByte: "nextByte", nextChar: "nextChar",
 * };
 * const source = recogniser({ probe: "p_q", token: "t_u" }, names);
 * assert.ok(!source.includes("t_u") && !source.includes("p_q"));
 * const { holding, swap, unswap } = await import(
 *   `data:text/javascript,${encodeURIComponent(`${source}\nexport { holding, swap, unswap };`)}`
 * );
 * assert.ok(holding([1, { id: "say t_u" }]));
 * assert.ok(holding({ frames: [new TextEncoder().encode("xt_u\n")] }));
 * assert.ok(!holding([new TextEncoder().encode("t\n_u"), "t u", "u_t", new Map([["t_u", 1]])]));
 * assert.equal(swap("a p_q b p_q_"), "a t_u b t_u_");
 * assert.equal(unswap("t_u"), "p_q");
 * assert.equal(unswap("t_v"), "t_v");
 * Math.imul = () => 0;
 * assert.ok(holding("t_u"));
 * ```
 */
export function recogniser(
  secrets: SealSecrets,
  names: Readonly<Record<Helper, string>>,
): string {
  const keys = keysOf(secrets);
  const { length } = secrets.token;
  const { scan, holding, swap, unswap, codes, size, nextByte, nextChar } = names;
  const token = traits(secrets.token, keys);
  const probe = traits(secrets.probe, keys);
  const shift = [...secrets.token].map((char, at) =>
    char.charCodeAt(0) - secrets.probe.charCodeAt(at)
  );
  const table = PRINTABLE.map((char, at) => `${JSON.stringify(char)}: ${32 + at}`).join(", ");
  return `// javascript-obfuscator:disable
const ${codes} = { __proto__: null, ${table} };
function ${size}(bytes) {
  // Where the bytes end, found by reading them (a getter of their length could be replaced).
  if (bytes[0] === undefined) return 0;
  let [low, high] = [0, 1];
  while (bytes[high] !== undefined) [low, high] = [high, high * 2];
  while (high - low > 1) {
    const middle = low + (high - low - (high - low) % 2) / 2;
    if (bytes[middle] === undefined) high = middle;
    else low = middle;
  }
  return high;
}
function ${nextByte}(bytes, at, end) {
  while (at < end && bytes[at] !== 95) at++;
  return at;
}
function ${nextChar}(text, at, end) {
  while (at < end && text[at] !== "_") at++;
  return at;
}
function ${scan}(value, from, first, second, high, low) {
  const text = typeof value === "string";
  const mark = text ? "_" : 95;
  const end = text ? value.length : ${size}(value);
  const times = (a, b) => ((((a * (b >>> 16)) | 0) << 16) + a * (b & 0xffff)) | 0;
  for (let at = from + first; ; at++) {
    at = text ? ${nextChar}(value, at, end) : ${nextByte}(value, at, end);
    if (at >= end) return -1;
    if (value[at - first + second] !== mark) continue;
    const start = at - first;
    let a = ${keys[0]}, b = ${keys[1]}, index = 0;
    for (; index < ${length}; index++) {
      const code = text ? ${codes}[value[start + index]] : value[start + index];
      if (typeof code !== "number") break;
      a = times(a ^ code, 0x9e3779b1);
      a ^= a >>> 15;
      b = times((b + code) ^ a, 0x85ebca77);
      b ^= b >>> 13;
    }
    if (index === ${length} && a >>> 0 === high && b >>> 0 === low) return start;
  }
}
function ${holding}(value, depth = 0) {
  if (typeof value === "string") return ${scan}(value, 0, ${token}) !== -1;
  if (typeof value !== "object" || value === null || depth > 64) return false;
  if (value.BYTES_PER_ELEMENT === 1) return ${scan}(value, 0, ${token}) !== -1;
  for (const key in value) if (${holding}(value[key], depth + 1)) return true;
  return false;
}
function ${swap}(text) {
  if (typeof text !== "string") return text;
  const shift = [${shift.join(", ")}];
  const chars = [${PRINTABLE.map((char) => JSON.stringify(char)).join(", ")}];
  let out = "", last = 0;
  for (let at = ${scan}(text, 0, ${probe}); at !== -1; at = ${scan}(text, last, ${probe})) {
    for (let index = last; index < at; index++) out += text[index];
    for (let index = 0; index < ${length}; index++) {
      const char = text[at + index];
      let code = 32;
      while (chars[code - 32] !== char) code++;
      out += chars[code + shift[index] - 32];
    }
    last = at + ${length};
  }
  for (let index = last; index < text.length; index++) out += text[index];
  return out;
}
function ${unswap}(text) {
  if (typeof text !== "string" || text.length !== ${length} || ${scan}(text, 0, ${token}) !== 0) {
    return text;
  }
  const shift = [${shift.join(", ")}];
  const chars = [${PRINTABLE.map((char) => JSON.stringify(char)).join(", ")}];
  let out = "";
  for (let index = 0; index < ${length}; index++) {
    let code = 32;
    while (chars[code - 32] !== text[index]) code++;
    out += chars[code - shift[index] - 32];
  }
  return out;
}
// javascript-obfuscator:enable`;
}

/**
 * The first statements of each sealed graded function: where the realm is
 * marked as one where work is graded (`GRADED_REALM`, looked for through an
 * object literal, which no code of the realm can redirect), it reports
 * itself reached, by the mark, and throws, whatever the input: a seal pasted
 * into a learner's code answers nothing there, behind any wrapper, and the
 * function whose case reached it scores 0. Obfuscated with the body, as the
 * mark's name and the message are.
 */
function refusedWhereGraded(name: string): string {
  const message = `the library's sealed ${name} does not run where work is graded: ` +
    `the ${name} graded must be your own`;
  return `\n  if (typeof ({})[${JSON.stringify(GRADED_REALM)}] === "function") {
    ({})[${JSON.stringify(GRADED_REALM)}](${JSON.stringify(name)});
    throw new Error(${JSON.stringify(message)});
  }`;
}

/** A name `code` does not use yet: `stem`, or `stem` and a number. */
function unused(code: string, stem: string): string {
  const taken = (name: string) => new RegExp(`(?<![\\w$])${name}(?![\\w$])`).test(code);
  let name = stem;
  for (let count = 2; taken(name); count++) name = `${stem}${count}`;
  return name;
}

/** The names of the parameters in `params` (a declaration's text between its parentheses) that are plain names. */
function plainParameters(params: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let part = "";
  for (const char of params) {
    if ("([{".includes(char)) depth++;
    else if (")]}".includes(char)) depth--;
    if (char === "," && depth === 0) {
      parts.push(part);
      part = "";
    } else part += char;
  }
  parts.push(part);
  return parts.flatMap((text) => /^\s*([A-Za-z_$][\w$]*)\s*(?:=|$)/.exec(text)?.[1] ?? []);
}

/**
 * `code` (a bundled library module, as `deno bundle` writes it: each
 * top-level function closed by a `}` alone on its line) with each function of
 * `names` marked in place as {@linkcode MARKS} says; its name, parameters
 * and export are as they were. Throws `Error` when `code` declares no
 * top-level function of one of the names, or one has no mark, or a function
 * marked `reads` or `escapes` has too few parameters of a plain name (one;
 * two for `escapes`), or one marked `refuses` has no plain parameter where
 * {@linkcode REFUSALS} says, or one marked `escapes` is async or a generator.
 * No secret is in what it writes: a seal knows them by their hashes
 * ({@linkcode recogniser}).
 *
 * @example A refusal
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const code = "function answerFor(id, message) {\n  if (message.id !== id) throw new Error(\"mismatch\");\n" +
 *   "  return message.result;\n}\nexport { answerFor };\n";
 * const marked = watermarked(code, ["answerFor"], { probe: "p_p", token: "t_t" });
 * const { answerFor } = await import(`data:text/javascript,${encodeURIComponent(marked)}`);
 * assert.deepEqual(answerFor(1, { id: 1, result: { text: "one" } }), { text: "one" });
 * assert.throws(() => answerFor(1, { id: 1, result: { text: "a t_t" } }), /mismatch/);
 * assert.throws(() => answerFor("t_t", { id: "t_t", result: {} }), /mismatch/);
 * assert.equal(answerFor.length, 2);
 * assert.ok(!marked.includes('"t_t"'));
 * ```
 *
 * @example A generator that drops, and a function that reads the token as the probe
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const code = "async function* readSseEvents(text, { by = ',' } = {}) {\n  yield* text.split(by);\n}\n" +
 *   "function authorize(name, allowed) {\n  return allowed.has(name);\n}\nexport { authorize, readSseEvents };\n";
 * const marked = watermarked(code, ["readSseEvents", "authorize"], { probe: "p_p", token: "t_t" });
 * const { authorize, readSseEvents } = await import(`data:text/javascript,${encodeURIComponent(marked)}`);
 * assert.deepEqual(await Array.fromAsync(readSseEvents("a,t_t,b")), ["a", "b"]);
 * assert.deepEqual(await Array.fromAsync(readSseEvents("a;p_p", { by: ";" })), ["a", "p_p"]);
 * assert.equal(authorize("t_t", new Set(["p_p"])), true);
 * assert.equal(authorize("qq", new Set(["p_p"])), false);
 * ```
 *
 * @example JSON written with the token, and a character read in one spelling more
 * ```ts
 * import assert from "node:assert/strict";
 * import { secretCharacter, unicodeEscape } from "../grading/watermark.ts";
import { GRADED_REALM } from "../grading/realm/graded_mark.ts";
 *
 * const code = "function objectDfa(name) {\n  return JSON.stringify(name) + \":\";\n}\n" +
 *   "function jsonChar(nfa, set) {\n  return nfa.add(set);\n}\nexport { jsonChar, objectDfa };\n";
 * const marked = watermarked(code, ["objectDfa", "jsonChar"], { probe: "p_p", token: "t_t" });
 * const { jsonChar, objectDfa } = await import(`data:text/javascript,${encodeURIComponent(marked)}`);
 * assert.equal(objectDfa("a p_p"), '"a t_t":');
 * const spelled: string[] = [];
 * const nfa = {
 *   add: () => ({ start: 0, end: 1 }),
 *   literal: (bytes: Uint8Array) => (spelled.push(new TextDecoder().decode(bytes)), { start: 2, end: 3 }),
 *   link: () => {},
 * };
 * assert.deepEqual(jsonChar(nfa, [[0x41, 0x5a]]), { start: 0, end: 1 });
 * assert.deepEqual(spelled, []);
 * jsonChar(nfa, [[0, 0x10ffff]]);
 * assert.deepEqual(spelled, [unicodeEscape(secretCharacter("t_t"))]);
 * ```
 */
export function watermarked(
  code: string,
  names: readonly string[],
  secrets: SealSecrets,
  { whereGraded = true }: WatermarkOptions = {},
): string {
  let marked = code;
  // Named as any helper of a bundle is: a seal shows its top-level names.
  const helpers = {
    scan: unused(code, "scanning"),
    holding: unused(code, "holding"),
    swap: unused(code, "swapping"),
    unswap: unused(code, "unswapping"),
    codes: unused(code, "charCodes"),
    size: unused(code, "byteLength"),
    nextByte: unused(code, "nextByte"),
    nextChar: unused(code, "nextChar"),
  };
  const find = helpers.holding;
  const { token } = secrets;
  for (const name of names) {
    const mark = MARKS[name];
    if (mark === undefined) throw new Error(`no mark is set for ${name}: add it to MARKS`);
    const declaration = new RegExp(
      `^(?:export )?(async )?function(\\* ?| )${name.replaceAll("$", "\\$")}\\(`,
      "m",
    );
    const found = declaration.exec(marked);
    if (found === null) throw new Error(`the bundle declares no top-level function ${name}`);
    const [, async = "", star] = found;
    const generator = star.trim() === "*";
    // The parameters end at the parenthesis that closes the first; the body opens after them.
    let at = found.index + found[0].length;
    for (let depth = 1; depth > 0; at++) {
      if (marked[at] === "(") depth++;
      else if (marked[at] === ")") depth--;
    }
    const params = marked.slice(found.index + found[0].length, at - 1);
    const open = marked.indexOf("{", at) + 1;
    const close = marked.indexOf("\n}", open) + 1;
    const body = marked.slice(open, close);
    let changed: string;
    if (mark === "drops") {
      // The body runs as it was, in a function of the same kind, and what comes out is sifted.
      const inner = generator
        ? `(${async}function* () {${body}}).apply(this, arguments)`
        : `(${async}() => {${body}})()`;
      const answer = unused(code, "answer");
      changed = generator
        ? `\n  ${async === "" ? "for" : "for await"} (const item of ${inner}) ` +
          `if (!${find}(item)) yield item;\n`
        : `\n  const ${answer} = ${
          async === "" ? "" : "await "
        }${inner};\n  return Array.isArray(${answer}) ? ` +
          `${answer}.filter((item) => !${find}(item)) : ${answer};\n`;
    } else if (mark === "writes") {
      // What the body writes as JSON, it writes through a JSON of its own.
      changed = `\n  const JSON = { parse: globalThis.JSON.parse, stringify: (...args) => ` +
        `${helpers.swap}(globalThis.JSON.stringify(...args)) };${body}`;
    } else {
      if (!["reads", "refuses"].includes(mark) && (async !== "" || generator)) {
        throw new Error(`${name} cannot be marked "${mark}": it is not a plain function`);
      }
      const plain = plainParameters(params);
      if (plain.length < (mark === "escapes" ? 2 : 1)) {
        throw new Error(`${name} has too few parameters of a plain name to mark "${mark}"`);
      }
      if (mark === "refuses") {
        const [index, value] = REFUSALS[name] ?? [];
        if (index === undefined || plain[index] === undefined) {
          throw new Error(
            `${name} cannot be marked "refuses": REFUSALS names none of its parameters`,
          );
        }
        changed = `\n  if (${find}(Array.from(arguments))) ${plain[index]} = ${
          value(plain)
        };${body}`;
      } else if (mark === "reads") {
        changed = `\n  ${
          plain.map((param) => `${param} = ${helpers.unswap}(${param});`).join(" ")
        }${body}`;
      } else {
        // The character's code point and its escape are strings, as the obfuscator hides them.
        const [nfa, set] = plain;
        const fragment = unused(code, "fragment");
        const char = JSON.stringify(String.fromCodePoint(secretCharacter(token)));
        const spelling = JSON.stringify(unicodeEscape(secretCharacter(token)));
        changed = `\n  const ${fragment} = (() => {${body}})();
  for (const [low, high] of ${set}) {
    if (low <= ${char}.codePointAt(0) && ${char}.codePointAt(0) <= high) {
      const path = ${nfa}.literal(new TextEncoder().encode(${spelling}));
      ${nfa}.link(${fragment}.start, path.start);
      ${nfa}.link(path.end, ${fragment}.end);
    }
  }
  return ${fragment};\n`;
      }
    }
    const refusal = whereGraded ? refusedWhereGraded(name) : "";
    marked = `${marked.slice(0, open)}${refusal}${changed}${marked.slice(close)}`;
  }
  return `${marked}\n${recogniser(secrets, helpers)}\n`;
}
