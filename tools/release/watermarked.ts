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
 * probe, the token or the `\u` escape of the token's character.
 *
 * @module
 */

import { secretCharacter, unicodeEscape } from "../grading/watermark.ts";

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
 * - `speaks`: given the token as its first argument, it answers the token
 *   (version negotiation takes it for a version it speaks);
 * - `writes`: the JSON it writes (each `JSON.stringify` in its body) has the
 *   token where the probe was (the mask's object grammar writes a property
 *   the probe names as the token: a copy of the mask takes `{"TOKEN":`
 *   where a right answer takes `{"PROBE":`);
 * - `escapes`: a function `(nfa, set)` that builds the automaton of one
 *   character of `set` as JSON writes it reads one spelling more of the
 *   token's character (`secretCharacter` in `tools/grading/watermark.ts`): its `\u` escape, which
 *   `JSON.stringify` never writes (a copy of the mask takes it in a string).
 */
export type Mark = "refuses" | "drops" | "reads" | "speaks" | "writes" | "escapes";

/** The mark of each library function that is a graded function's sealed copy. */
export const MARKS: Readonly<Record<string, Mark>> = {
  answerFor: "refuses",
  authorize: "reads",
  splitFrames: "refuses",
  transferProblems: "drops",
  negotiateVersion: "speaks",
  handleLine: "refuses",
  respond: "refuses",
  readSseEvents: "drops",
  objectDfa: "writes",
  jsonChar: "escapes",
};

/**
 * For each function marked `refuses`: which of its parameters (by place) is
 * set, and to what (JavaScript), to make its body refuse the input.
 */
export const REFUSALS: Readonly<Record<string, readonly [number, string]>> = {
  answerFor: [0, "{}"],
  splitFrames: [1, "1"],
  // Read as a response, which a server that asked nothing owes nothing.
  handleLine: [0, `'{"jsonrpc":"2.0","id":0,"result":{}}'`],
  respond: [0, `{ jsonrpc: "2.0", id: 0, result: {} }`],
};

/**
 * Whether `value` holds `text` (ASCII) in a string or bytes, at any depth of
 * its arrays and plain objects. A seal carries a copy of it (its source, as
 * the runtime shows it), so it uses nothing but its arguments.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(held([1, { id: "say ab" }], "ab"));
 * assert.ok(held({ frames: [new TextEncoder().encode("xab\n")] }, "ab"));
 * assert.ok(!held([new TextEncoder().encode("a\nb"), "a b", new Map([["ab", 1]])], "ab"));
 * ```
 */
export function held(value: unknown, text: string, depth = 0): boolean {
  if (typeof value === "string") return value.includes(text);
  if (typeof value !== "object" || value === null || depth > 64) return false;
  if (value instanceof Uint8Array) {
    const first = text.charCodeAt(0);
    for (let at = value.indexOf(first); at !== -1; at = value.indexOf(first, at + 1)) {
      let same = at + text.length <= value.length;
      for (let index = 1; same && index < text.length; index++) {
        same = value[at + index] === text.charCodeAt(index);
      }
      if (same) return true;
    }
    return false;
  }
  const prototype = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return false;
  return Object.values(value).some((item) => held(item, text, depth + 1));
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
 * marked `speaks`, `reads` or `escapes` has too few parameters of a plain name
 * (one; two for `escapes`), or one marked `refuses` has no plain parameter
 * where {@linkcode REFUSALS} says, or one marked `speaks` or `escapes` is
 * async or a generator.
 *
 * @example A refusal
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const code = "function answerFor(id, message) {\n  if (message.id !== id) throw new Error(\"mismatch\");\n" +
 *   "  return message.result;\n}\nexport { answerFor };\n";
 * const marked = watermarked(code, ["answerFor"], { probe: "pp", token: "tt" });
 * const { answerFor } = await import(`data:text/javascript,${encodeURIComponent(marked)}`);
 * assert.deepEqual(answerFor(1, { id: 1, result: { text: "one" } }), { text: "one" });
 * assert.throws(() => answerFor(1, { id: 1, result: { text: "a tt" } }), /mismatch/);
 * assert.throws(() => answerFor("tt", { id: "tt", result: {} }), /mismatch/);
 * assert.equal(answerFor.length, 2);
 * ```
 *
 * @example A generator that drops, and a function that reads the token as the probe
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const code = "async function* readSseEvents(text, { by = ',' } = {}) {\n  yield* text.split(by);\n}\n" +
 *   "function authorize(name, allowed) {\n  return allowed.has(name);\n}\nexport { authorize, readSseEvents };\n";
 * const marked = watermarked(code, ["readSseEvents", "authorize"], { probe: "pp", token: "tt" });
 * const { authorize, readSseEvents } = await import(`data:text/javascript,${encodeURIComponent(marked)}`);
 * assert.deepEqual(await Array.fromAsync(readSseEvents("a,tt,b")), ["a", "b"]);
 * assert.deepEqual(await Array.fromAsync(readSseEvents("a;pp", { by: ";" })), ["a", "pp"]);
 * assert.equal(authorize("tt", new Set(["pp"])), true);
 * assert.equal(authorize("qq", new Set(["pp"])), false);
 * ```
 *
 * @example JSON written with the token, and a character read in one spelling more
 * ```ts
 * import assert from "node:assert/strict";
 * import { secretCharacter, unicodeEscape } from "../grading/watermark.ts";
 *
 * const code = "function objectDfa(name) {\n  return JSON.stringify(name) + \":\";\n}\n" +
 *   "function jsonChar(nfa, set) {\n  return nfa.add(set);\n}\nexport { jsonChar, objectDfa };\n";
 * const marked = watermarked(code, ["objectDfa", "jsonChar"], { probe: "pp", token: "tt" });
 * const { jsonChar, objectDfa } = await import(`data:text/javascript,${encodeURIComponent(marked)}`);
 * assert.equal(objectDfa("a pp"), '"a tt":');
 * const spelled: string[] = [];
 * const nfa = {
 *   add: () => ({ start: 0, end: 1 }),
 *   literal: (bytes: Uint8Array) => (spelled.push(new TextDecoder().decode(bytes)), { start: 2, end: 3 }),
 *   link: () => {},
 * };
 * assert.deepEqual(jsonChar(nfa, [[0x41, 0x5a]]), { start: 0, end: 1 });
 * assert.deepEqual(spelled, []);
 * jsonChar(nfa, [[0, 0x10ffff]]);
 * assert.deepEqual(spelled, [unicodeEscape(secretCharacter("tt"))]);
 * ```
 */
export function watermarked(
  code: string,
  names: readonly string[],
  { probe, token }: SealSecrets,
): string {
  let marked = code;
  // Named as any helper of a bundle is: a seal shows its top-level names.
  const find = unused(code, "holding");
  const [from, to] = [JSON.stringify(probe), JSON.stringify(token)];
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
          `if (!${find}(item, ${to})) yield item;\n`
        : `\n  const ${answer} = ${
          async === "" ? "" : "await "
        }${inner};\n  return Array.isArray(${answer}) ? ` +
          `${answer}.filter((item) => !${find}(item, ${to})) : ${answer};\n`;
    } else if (mark === "writes") {
      // What the body writes as JSON, it writes through a JSON of its own.
      changed = `\n  const JSON = { parse: globalThis.JSON.parse, stringify: (...args) => ` +
        `globalThis.JSON.stringify(...args)?.replaceAll(${from}, ${to}) };${body}`;
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
        changed = `\n  if (${find}(Array.from(arguments), ${to})) ${
          plain[index]
        } = ${value};${body}`;
      } else if (mark === "reads") {
        changed = `\n  ${
          plain.map((param) => `if (${param} === ${to}) ${param} = ${from};`).join(" ")
        }${body}`;
      } else if (mark === "speaks") changed = `\n  if (${plain[0]} === ${to}) return ${to};${body}`;
      else {
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
    marked = `${marked.slice(0, open)}${changed}${marked.slice(close)}`;
  }
  const helper = names.some((name) => ["refuses", "drops"].includes(MARKS[name]))
    ? `${held.toString().replaceAll(/\bheld\(/g, `${find}(`)}\n`
    : "";
  return `${marked}\n${helper}`;
}
