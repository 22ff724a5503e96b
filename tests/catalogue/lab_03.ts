// Lab 03's catalogue: the mask-driven tool call as learners write it. Every
// function rests on a character step, so each module is composed of pieces:
// the worked step (start, step, isComplete and the given prefixStatus) and
// the worked prefix tree, in plain JavaScript, with only the function under
// test varied (a wrong step for prefixStatus's misconceptions, a wrong loop
// over the right step for tokenMask's, and so on).

import type { Catalogue } from "./learner.ts";

/**
 * `source` with its one occurrence of `from` replaced by `to`: a piece
 * changed where a misconception changes it. A `from` that is not there, or
 * is there twice, is a mistake in this catalogue, and says so at once.
 */
function mutate(source: string, from: string, to: string): string {
  const at = source.indexOf(from);
  if (at < 0 || source.indexOf(from, at + 1) >= 0) {
    throw new Error(`the catalogue's piece holds ${at < 0 ? "no" : "more than one"} ${from}`);
  }
  return source.replace(from, () => to);
}

/**
 * The escapes of lone surrogates, added to a step's or a reader's ESCAPES: the high halves of a
 * pair and the low ones (JSON.stringify writes each lone one so), and the escapes that may follow
 * an escaped high one (no low one: the two would be a pair, which JSON.stringify writes as itself).
 */
const SURROGATES = String.raw`
const escapesOf = (from, count) => [...Array(count).keys()].map((i) => encoded(String.fromCharCode(from + i)));
const HIGH = escapesOf(0xd800, 0x400);
const LOW = escapesOf(0xdc00, 0x400);
ESCAPES.push(...HIGH, ...LOW);
const AFTER_HIGH = ESCAPES.filter((escape) => !LOW.includes(escape));
const startsOf = (escapes) => new Set(escapes.flatMap((whole) => [...whole].map((_, end) => whole.slice(0, end + 1))));
const STARTS = startsOf(ESCAPES);
const AFTER_HIGH_STARTS = startsOf(AFTER_HIGH);
`;

/** The worked character step (Block B), translated to plain JavaScript. */
const STEP = String.raw`
const encoded = (char) => JSON.stringify(char).slice(1, -1);
const ESCAPES = [...Array(32).keys()].map((code) => encoded(String.fromCharCode(code)))
  .concat(['\\"', "\\\\"]);
${SURROGATES}
const properties = (schema) => Object.entries(schema.properties ?? {});
const isRequired = (schema, name) => (schema.required ?? []).includes(name);
const owes = (schema, at) => properties(schema).slice(at).some(([name]) => isRequired(schema, name));
function nextProperties(schema, at) {
  const found = [];
  const list = properties(schema);
  for (let index = at; index < list.length; index++) {
    found.push(index);
    if (isRequired(schema, list[index][0])) break;
  }
  return found;
}
const fitsLength = (schema, length) =>
  length >= (schema.minLength ?? 0) && length <= (schema.maxLength ?? Infinity);
const members = (schema) =>
  Array.isArray(schema.enum)
    ? schema.enum.filter((m) => typeof m === "string" && fitsLength(schema, [...m].length))
    : undefined;

function start(schema) {
  return { stack: [{ kind: "value", schema }], done: false };
}

function step(state, char) {
  if (state.done) return null;
  const below = state.stack.slice(0, -1);
  const top = state.stack[state.stack.length - 1];
  const go = (...frames) => ({ stack: [...below, ...frames], done: false });
  const finish = () => ({ stack: below, done: below.length === 0 });
  if (top.kind === "value") {
    if (top.schema.type === "object" && char === "{") {
      return go({ kind: "object", schema: top.schema, at: 0, phase: "start", key: "" });
    }
    if (top.schema.type === "string" && char === '"') {
      const min = top.schema.minLength ?? 0;
      if (members(top.schema)?.length === 0 || min > (top.schema.maxLength ?? Infinity)) return null;
      return go({ kind: "string", schema: top.schema, raw: '"', length: 0, escape: "", high: false });
    }
    return null;
  }
  if (top.kind === "string") {
    const enumerated = members(top.schema);
    const viable = (raw) =>
      enumerated === undefined || enumerated.some((m) => JSON.stringify(m).startsWith(raw));
    const fitsMax = top.length + 1 <= (top.schema.maxLength ?? Infinity);
    if (top.escape !== "") {
      const escape = top.escape + char;
      const [escapes, starts] = top.high ? [AFTER_HIGH, AFTER_HIGH_STARTS] : [ESCAPES, STARTS];
      if (!starts.has(escape)) return null;
      if (!escapes.includes(escape)) return viable(top.raw + escape) ? go({ ...top, escape }) : null;
      const raw = top.raw + escape;
      return viable(raw) && fitsMax ? go({ ...top, raw, length: top.length + 1, escape: "", high: HIGH.includes(escape) }) : null;
    }
    // An escape is one more character, however it ends: past maxLength, no escape begins.
    if (char === "\\") {
      return viable(top.raw + char) && fitsMax ? go({ ...top, escape: char }) : null;
    }
    if (char === '"') {
      if (!fitsLength(top.schema, top.length)) return null;
      const whole = top.raw + '"';
      return enumerated === undefined || enumerated.some((m) => JSON.stringify(m) === whole)
        ? finish()
        : null;
    }
    if (encoded(char) !== char) return null; // a control character, written raw
    const raw = top.raw + char;
    return viable(raw) && fitsMax ? go({ ...top, raw, length: top.length + 1, high: false }) : null;
  }
  if ((top.phase === "start" || top.phase === "after") && char === "}") {
    return owes(top.schema, top.at) ? null : finish();
  }
  if (top.phase === "after") {
    return char === "," && top.at < properties(top.schema).length
      ? go({ ...top, phase: "key", key: "" })
      : null;
  }
  const key = top.key + char;
  const list = properties(top.schema);
  const heads = nextProperties(top.schema, top.at).map((index) =>
    [index, JSON.stringify(list[index][0]) + ":"]
  );
  const named = heads.find(([, head]) => head === key);
  if (named !== undefined) {
    const [index] = named;
    return go(
      { ...top, at: index + 1, phase: "after", key: "" },
      { kind: "value", schema: list[index][1] },
    );
  }
  return heads.some(([, head]) => head.startsWith(key)) ? go({ ...top, phase: "key", key }) : null;
}

function isComplete(state) {
  return state.done;
}
`;

/** The notebook's given prefixStatus, which runs the step over a text. */
const STATUS = String.raw`
function prefixStatus(schema, text) {
  let state = start(schema);
  for (const char of text) {
    state = step(state, char);
    if (state === null) return "dead";
  }
  return isComplete(state) ? "complete" : "live";
}
`;

/** The worked tokenMask (Block C). */
const TOKEN_MASK = String.raw`
function tokenMask(schema, text, tokens) {
  let from = start(schema);
  for (const char of text) {
    from = step(from, char);
    if (from === null) return [];
  }
  const allowed = [];
  tokens.forEach((token, id) => {
    let state = from;
    for (const char of token) {
      state = step(state, char);
      if (state === null) return;
    }
    allowed.push(id);
  });
  return allowed;
}
`;

/** The worked buildTrie (Block C). */
const BUILD_TRIE = String.raw`
function buildTrie(tokens) {
  const root = { ids: [], children: {} };
  tokens.forEach((token, id) => {
    let node = root;
    for (const char of token) node = node.children[char] ??= { ids: [], children: {} };
    node.ids.push(id);
  });
  return root;
}
`;

/** The worked trieMask (Block C). */
const TRIE_MASK = String.raw`
function trieMask(schema, text, trie) {
  let from = start(schema);
  for (const char of text) {
    from = step(from, char);
    if (from === null) return { allowed: [], visited: 0 };
  }
  const allowed = [];
  let visited = 0;
  const walk = (node, state) => {
    for (const [char, child] of Object.entries(node.children)) {
      visited++;
      const next = step(state, char);
      if (next === null) continue;
      allowed.push(...child.ids);
      walk(child, next);
    }
  };
  walk(trie, from);
  return { allowed: allowed.sort((a, b) => a - b), visited };
}
`;

/** `piece` (one of the above) as the module's export. */
const exported = (piece: string) => piece.replace(/^\nfunction /, "\nexport function ");

/**
 * A reader of the whole text by recursive descent, not a step: each reader
 * returns where its value ends, END when the text runs out while it could
 * still go on, or DEAD.
 */
const READER = String.raw`
const END = -1;
const DEAD = -2;
const encoded = (char) => JSON.stringify(char).slice(1, -1);
const ESCAPES = [];
for (let code = 0; code < 32; code++) ESCAPES.push(encoded(String.fromCharCode(code)));
ESCAPES.push('\\"', "\\\\");
${SURROGATES}
function literal(text, at, expected) {
  const written = text.slice(at, at + expected.length);
  if (!expected.startsWith(written)) return DEAD;
  return written.length < expected.length ? END : at + expected.length;
}

function firstOf(results) {
  const found = results.find((r) => r >= 0);
  if (found !== undefined) return found;
  return results.includes(END) ? END : DEAD;
}

function readString(schema, text, at) {
  if (at === text.length) return END;
  if (text[at] !== '"') return DEAD;
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Infinity;
  if (min > max) return DEAD;
  if (Array.isArray(schema.enum)) {
    const fits = schema.enum.filter((m) => typeof m === "string" && [...m].length >= min && [...m].length <= max);
    return firstOf(fits.map((m) => literal(text, at, JSON.stringify(m))));
  }
  let count = 0;
  let i = at + 1;
  let high = false;
  while (i < text.length) {
    const char = String.fromCodePoint(text.codePointAt(i));
    if (char === '"') return count >= min ? i + 1 : DEAD;
    // One more character, however it is written (an escape not yet ended too), is past maxLength.
    if (count >= max) return DEAD;
    if (char === "\\") {
      const found = firstOf((high ? AFTER_HIGH : ESCAPES).map((escape) => literal(text, i, escape)));
      if (found < 0) return found;
      high = HIGH.includes(text.slice(i, found));
      i = found;
    } else {
      if (encoded(char) !== char) return DEAD;
      high = false;
      i += char.length;
    }
    count++;
    if (count > max) return DEAD;
  }
  return END;
}

function readObject(schema, text, at) {
  if (at === text.length) return END;
  if (text[at] !== "{") return DEAD;
  const list = Object.entries(schema.properties ?? {});
  const required = schema.required ?? [];
  let next = 0;
  let i = at + 1;
  for (let first = true;; first = false) {
    if (i === text.length) return END;
    if (text[i] === "}") {
      return list.slice(next).some(([name]) => required.includes(name)) ? DEAD : i + 1;
    }
    if (!first) {
      if (text[i] !== "," || next >= list.length) return DEAD;
      i++;
    }
    const choices = [];
    for (let index = next; index < list.length; index++) {
      choices.push(index);
      if (required.includes(list[index][0])) break;
    }
    let chosen = -1;
    let ended = false;
    for (const index of choices) {
      const read = literal(text, i, JSON.stringify(list[index][0]) + ":");
      if (read >= 0) {
        chosen = index;
        i = read;
        break;
      }
      if (read === END) ended = true;
    }
    if (chosen < 0) return ended ? END : DEAD;
    const value = readValue(list[chosen][1], text, i);
    if (value < 0) return value;
    i = value;
    next = chosen + 1;
  }
}

function readValue(schema, text, at) {
  if (schema.type === "object") return readObject(schema, text, at);
  if (schema.type === "string") return readString(schema, text, at);
  return at === text.length ? END : DEAD;
}

function statusOf(schema, text) {
  const read = readValue(schema, text, 0);
  if (read === END) return "live";
  return read === text.length ? "complete" : "dead";
}
`;

// ---------------------------------------------------------------- prefixStatus

/** A module of the worked step with `from` changed to `to` (each pair in turn). */
const stepWith = (...changes: [string, string][]) =>
  changes.reduce((source, [from, to]) => mutate(source, from, to), STEP) + exported(STATUS);

/** The line of the step that lists the escapes of the quote and the backslash. */
const CONCAT = String.raw`.concat(['\\"', "\\\\"]);`;

/** The line of the step that refuses a control character written raw. */
const RAW_CHECK =
  "    if (encoded(char) !== char) return null; // a control character, written raw\n";

const ESCAPE_CHECKS = String
  .raw`      if (!starts.has(escape)) return null;
      if (!escapes.includes(escape))`;

const prefixStatus: Catalogue = {
  unit: "lab-03",
  fn: "prefixStatus",
  right: {
    "the worked solution's way": STEP + exported(STATUS),
    "a recursive-descent reader of the whole text": READER + String.raw`
export function prefixStatus(schema, text) {
  return statusOf(schema, text);
}`,
    "the text as the state, read again at each step": READER + String.raw`
function start(schema) {
  return { schema, text: "" };
}
function step(state, char) {
  const text = state.text + char;
  return statusOf(state.schema, text) === "dead" ? null : { schema: state.schema, text };
}
function isComplete(state) {
  return statusOf(state.schema, state.text) === "complete";
}
` + exported(STATUS),
    "an index loop that joins surrogate pairs": STEP + String.raw`
export function prefixStatus(schema, text) {
  let state = start(schema);
  for (let i = 0; i < text.length; ) {
    const char = String.fromCodePoint(text.codePointAt(i));
    i += char.length;
    state = step(state, char);
    if (state === null) return "dead";
  }
  return isComplete(state) ? "complete" : "live";
}`,
  },
  wrong: {
    // White space between tokens is valid JSON, but not the one text JSON.stringify writes.
    "white space allowed": stepWith([
      "  if (state.done) return null;\n",
      "  if (state.done) return null;\n" +
      '  if (" \\n\\t\\r".includes(char) && state.stack.at(-1).kind !== "string") return state;\n',
    ]),
    // Any property may come next, in any order, as a JSON object allows.
    "properties in any order": stepWith([
      "  for (let index = at; index < list.length; index++) {\n    found.push(index);\n" +
      "    if (isRequired(schema, list[index][0])) break;\n  }",
      "  for (let index = 0; index < list.length; index++) found.push(index);",
    ]),
    // The object may close whatever is still required.
    "required ignored": stepWith([
      "const owes = (schema, at) =>",
      "const owes = (schema, at) => false &&",
    ]),
    // Each property must be written, the optional ones too.
    "optional properties must be written": stepWith([
      "    if (isRequired(schema, list[index][0])) break;",
      "    break;",
    ]),
    // An enum member compared as its value between quotes, not as JSON.stringify writes it.
    "enum members compared unencoded": stepWith(
      [
        "enumerated.some((m) => JSON.stringify(m).startsWith(raw))",
        "enumerated.some((m) => ('\"' + m + '\"').startsWith(raw))",
      ],
      [
        "enumerated.some((m) => JSON.stringify(m) === whole)",
        "enumerated.some((m) => '\"' + m + '\"' === whole)",
      ],
    ),
    // Every escape JSON reads (\/, \u0041, upper-case hex) taken, not only JSON.stringify's.
    "any JSON escape": stepWith([
      ESCAPE_CHECKS,
      String.raw`      if (!/^\\(["\\/bfnrt]|u[0-9a-fA-F]{0,4})$/.test(escape)) return null;
      if (!/^\\(["\\/bfnrt]|u[0-9a-fA-F]{4})$/.test(escape))`,
    ]),
    // \u001F taken as well as \u001f.
    "upper-case hex as well": stepWith([
      CONCAT,
      CONCAT + "\n" +
      String
        .raw`ESCAPES.push(...ESCAPES.filter((e) => e.startsWith("\\u")).map((e) => "\\u" + e.slice(2).toUpperCase()));`,
    ]),
    // \/ taken: JSON allows it, but JSON.stringify never writes it.
    "an escaped slash": stepWith([
      CONCAT,
      String.raw`.concat(['\\"', "\\\\", "\\/"]);`,
    ]),
    // DEL (U+007F) taken for a control character: JSON.stringify writes it as itself, not \u007f.
    "DEL escaped as a control character": stepWith(
      [CONCAT, String.raw`.concat(['\\"', "\\\\", "\\u007f"]);`],
      [
        RAW_CHECK,
        String.raw`    if (encoded(char) !== char || char === "\x7f") return null;` + "\n",
      ],
    ),
    // U+2028 and U+2029 escaped, as JavaScript source once had to: JSON.stringify writes them as themselves.
    "line and paragraph separators escaped": stepWith(
      [CONCAT, String.raw`.concat(['\\"', "\\\\", "\\u2028", "\\u2029"]);`],
      [
        RAW_CHECK,
        String.raw`    if (encoded(char) !== char || "\u2028\u2029".includes(char)) return null;` +
        "\n",
      ],
    ),
    // Every control character but \n, \r and \t written \u00XX: JSON.stringify writes \b and \f short.
    "backspace and form feed written \\u0008 and \\u000c": stepWith([
      "map((code) => encoded(String.fromCharCode(code)))",
      String
        .raw`map((code) => [8, 12].includes(code) ? "\\u" + code.toString(16).padStart(4, "0") : encoded(String.fromCharCode(code)))`,
    ]),
    // Round 9 of issue 38's red team: each kept every prefixStatus mark.
    // <, > and & escaped as Go's json.Marshal writes them for HTML: JSON.stringify writes them as themselves.
    "<, > and & escaped as Go writes them": stepWith(
      [CONCAT, String.raw`.concat(['\\"', "\\\\", "\\u003c", "\\u003e", "\\u0026"]);`],
      [RAW_CHECK, `    if (encoded(char) !== char || "<>&".includes(char)) return null;\n`],
    ),
    // JavaScript's string escapes taken for JSON's: \v and \0 where JSON.stringify writes \u000b
    // and \u0000, and \' besides.
    "JavaScript's escapes: \\v, \\0 and \\'": stepWith(
      [
        "map((code) => encoded(String.fromCharCode(code)))",
        String
          .raw`map((code) => code === 0 ? "\\0" : code === 11 ? "\\v" : encoded(String.fromCharCode(code)))`,
      ],
      [CONCAT, String.raw`.concat(['\\"', "\\\\", "\\'"]);`],
    ),
    // The control characters counted from 1: NUL, \u0000, left out.
    "NUL left out of the control characters": stepWith([
      "[...Array(32).keys()]",
      "[...Array(32).keys()].slice(1)",
    ]),
    // An enum member's length in UTF-16 units (m.length), a free string's in code points.
    "an enum member's length in UTF-16 units": stepWith([
      "fitsLength(schema, [...m].length)",
      "fitsLength(schema, m.length)",
    ]),
    // maxLength read with ||: a maxLength of 0 taken for none.
    "maxLength 0 taken for none": stepWith(
      [
        "const fitsMax = top.length + 1 <= (top.schema.maxLength ?? Infinity);",
        "const fitsMax = top.length + 1 <= (top.schema.maxLength || Infinity);",
      ],
      ["length <= (schema.maxLength ?? Infinity);", "length <= (schema.maxLength || Infinity);"],
      [
        "min > (top.schema.maxLength ?? Infinity)",
        "min > (top.schema.maxLength || Infinity)",
      ],
    ),
    // An enum member kept whatever maxLength says (minLength is checked): a schema whose every
    // member is too long still opens its string.
    "enum members checked against minLength only": stepWith([
      "fitsLength(schema, [...m].length)",
      "[...m].length >= (schema.minLength ?? 0)",
    ]),
    // A tab or newline written raw inside a string.
    "raw control characters": stepWith([RAW_CHECK, ""]),
    // An escape counted as the characters it is written with: \n as two.
    "an escape counts as its written length": stepWith(
      [
        "const fitsMax = top.length + 1 <=",
        "const fitsMax = top.length + (top.escape + char).length <=",
      ],
      [
        'go({ ...top, raw, length: top.length + 1, escape: ""',
        'go({ ...top, raw, length: top.length + escape.length, escape: ""',
      ],
    ),
    // A length in UTF-16 units: an emoji counted as two characters.
    "length in UTF-16 units": stepWith(
      ["const fitsMax = top.length + 1 <=", "const fitsMax = top.length + char.length <="],
      [
        "go({ ...top, raw, length: top.length + 1, high: false })",
        "go({ ...top, raw, length: top.length + char.length, high: false })",
      ],
      ["fitsLength(schema, [...m].length)", "fitsLength(schema, m.length)"],
    ),
    // The text walked by index: text[i] is half of an emoji.
    "text[i] splits surrogate pairs": STEP + String.raw`
export function prefixStatus(schema, text) {
  let state = start(schema);
  for (let i = 0; i < text.length; i++) {
    state = step(state, text[i]);
    if (state === null) return "dead";
  }
  return isComplete(state) ? "complete" : "live";
}`,
    // maxLength never checked.
    "maxLength ignored": stepWith(
      [
        "const fitsMax = top.length + 1 <= (top.schema.maxLength ?? Infinity);",
        "const fitsMax = true;",
      ],
      [
        "length >= (schema.minLength ?? 0) && length <= (schema.maxLength ?? Infinity);",
        "length >= (schema.minLength ?? 0);",
      ],
    ),
    // Both at once, as a learner wrote them (issue 40, item 5): no maxLength, lengths in UTF-16 units.
    "maxLength ignored, lengths in UTF-16 units": stepWith(
      [
        "const fitsMax = top.length + 1 <= (top.schema.maxLength ?? Infinity);",
        "const fitsMax = true;",
      ],
      [
        "length >= (schema.minLength ?? 0) && length <= (schema.maxLength ?? Infinity);",
        "length >= (schema.minLength ?? 0);",
      ],
      [
        "go({ ...top, raw, length: top.length + 1, high: false })",
        "go({ ...top, raw, length: top.length + char.length, high: false })",
      ],
      ["fitsLength(schema, [...m].length)", "fitsLength(schema, m.length)"],
    ),
    // A property's name written between quotes as it is, not as JSON.stringify writes it (round 6
    // of issue 38's red team: it kept every mark).
    "a property's name unencoded": stepWith([
      `JSON.stringify(list[index][0]) + ":"`,
      `'"' + list[index][0] + '":'`,
    ]),
    // A comma before the closing brace.
    "a trailing comma": stepWith([
      `if ((top.phase === "start" || top.phase === "after") && char === "}") {`,
      `if ((top.phase === "start" || top.phase === "after" || (top.phase === "key" && top.key === "")) && char === "}") {`,
    ]),
    // {} refused even when nothing is required.
    "an empty object never complete": stepWith([
      "return owes(top.schema, top.at) ? null : finish();",
      'return owes(top.schema, top.at) || top.phase === "start" ? null : finish();',
    ]),
    // Once complete, more text keeps it complete.
    "complete stays complete": stepWith([
      "  if (state.done) return null;",
      "  if (state.done) return state;",
    ]),
    // A comma after the last property, as if another could come.
    "a comma after the last property": stepWith([
      'char === "," && top.at < properties(top.schema).length',
      'char === ","',
    ]),
    // The properties after a written one counted from it, not after it: it may come again.
    "a property may be written again": stepWith([
      "{ ...top, at: index + 1, phase:",
      "{ ...top, at: index, phase:",
    ]),
    // minLength taken as a bound the length must exceed.
    "minLength exclusive": stepWith([
      "length >= (schema.minLength ?? 0) &&",
      "(schema.minLength === undefined || length > schema.minLength) &&",
    ]),
    // Every enum member allowed, whatever minLength and maxLength say.
    "enum members not checked against the lengths": stepWith([
      '(m) => typeof m === "string" && fitsLength(schema, [...m].length)',
      '(m) => typeof m === "string"',
    ]),
    // enum: [] taken for no enum at all: a free string.
    "an empty enum is a free string": stepWith([
      "Array.isArray(schema.enum)\n",
      "Array.isArray(schema.enum) && schema.enum.length > 0\n",
    ]),
    // A nested object's closing brace taken for the end of the call.
    "any closing brace ends the call": stepWith([
      "const finish = () => ({ stack: below, done: below.length === 0 });",
      'const finish = () => ({ stack: below, done: below.length === 0 || top.kind === "object" });',
    ]),
    // Round 13 of issue 38's red team: each kept every prefixStatus mark.
    // maxLength checked only once an escape ends: a backslash past maxLength left live, though
    // no escape can follow it within the bound (the worked step did so until round 13).
    "maxLength checked only once an escape ends": stepWith([
      "viable(top.raw + char) && fitsMax ? go({ ...top, escape: char }) : null;",
      "viable(top.raw + char) ? go({ ...top, escape: char }) : null;",
    ]),
    // An enum member's length counted in what the eye sees (graphemes): e and a combining accent
    // are two code points.
    "an enum member's length in graphemes": stepWith([
      "fitsLength(schema, [...m].length)",
      "fitsLength(schema, [...new Intl.Segmenter().segment(m)].length)",
    ]),
    // The empty string dropped from an enum, as if it were no member.
    "an empty enum member dropped": stepWith([
      'schema.enum.filter((m) => typeof m === "string" &&',
      'schema.enum.filter((m) => typeof m === "string" && m !== "" &&',
    ]),
    // A lone surrogate taken as itself: JSON.stringify writes it \ud800, never raw.
    "a lone surrogate written raw": stepWith([
      RAW_CHECK,
      "    if (encoded(char) !== char && !/^[\\ud800-\\udfff]$/.test(char)) return null;\n",
    ]),
    // Round 6 of issue 38's red team left the escape of a lone surrogate open; ECMA-262 decides it
    // (JSON.stringify's QuoteJSONString writes a lone surrogate as UnicodeEscape, lower-case hex).
    // Refused, as the worked step did until then: a string holding one has no text at all.
    "a lone surrogate's escape refused": stepWith(["ESCAPES.push(...HIGH, ...LOW);", ""]),
    // Every surrogate's escape taken, a pair's two too: JSON.stringify writes a pair as itself.
    "an escaped pair taken": stepWith([
      "top.high ? [AFTER_HIGH, AFTER_HIGH_STARTS] : [ESCAPES, STARTS]",
      "[ESCAPES, STARTS]",
    ]),
    // Round 22 of the red team: five more readings of what JSON.stringify escapes, each of which
    // kept every mark. C1 controls (U+0080 to U+009F) taken for control characters, as some
    // encoders escape them: JSON.stringify writes them as themselves.
    "C1 controls refused written as themselves": stepWith([
      RAW_CHECK,
      String
        .raw`    if (encoded(char) !== char || (char >= "\x80" && char <= "\x9f")) return null;` +
      "\n",
    ]),
    // A byte order mark inside a string taken for one that must be escaped.
    "U+FEFF refused written as itself": stepWith([
      RAW_CHECK,
      String.raw`    if (encoded(char) !== char || char === "\ufeff") return null;` + "\n",
    ]),
    // A slash must be escaped, as PHP's json_encode writes it: JSON.stringify writes it as itself.
    "a slash refused written as itself": stepWith([
      RAW_CHECK,
      String.raw`    if (encoded(char) !== char || char === "/") return null;` + "\n",
    ]),
    // The quote and the backslash taken as \u0022 and \u005c as well: JSON.stringify writes them short.
    "the quote and the backslash as \\u escapes too": stepWith([
      CONCAT,
      String.raw`.concat(['\\"', "\\\\", "\\u0022", "\\u005c"]);`,
    ]),
    // A carriage return taken as written raw, as a line break in the text.
    "a raw carriage return taken": stepWith([
      RAW_CHECK,
      String.raw`    if (encoded(char) !== char && char !== "\r") return null;` + "\n",
    ]),
  },
};

// ------------------------------------------------------------------- tokenMask

const maskWith = (body: string, step = STEP) =>
  `${step}${STATUS}\nexport function tokenMask(schema, text, tokens) {${body}\n}`;

/** The worked tokenMask's body, for misconceptions that change a line of it. */
const MASK_BODY = TOKEN_MASK.slice(TOKEN_MASK.indexOf("{") + 1, TOKEN_MASK.lastIndexOf("}"))
  .trimEnd();
const maskChanged = (...changes: [string, string][]) =>
  maskWith(changes.reduce((source, [from, to]) => mutate(source, from, to), MASK_BODY));

/** A step that changes the state it is given, and returns it. */
const MUTATING_STEP =
  mutate(STEP, "function step(state, char) {", "function freshStep(state, char) {") +
  String.raw`
function step(state, char) {
  const next = freshStep(state, char);
  if (next === null) return null;
  state.stack = next.stack;
  state.done = next.done;
  return state;
}
`;

const tokenMask: Catalogue = {
  unit: "lab-03",
  fn: "tokenMask",
  right: {
    "the worked solution's way": STEP + STATUS + exported(TOKEN_MASK),
    "prefixStatus of the text and the token together": maskWith(`
  return tokens.flatMap((token, id) => (prefixStatus(schema, text + token) === "dead" ? [] : [id]));`),
    "a walking helper and reduce": maskWith(`
  const walk = (state, chars) => {
    for (const char of chars) {
      if (state === null) return null;
      state = step(state, char);
    }
    return state;
  };
  const from = walk(start(schema), text);
  if (from === null) return [];
  return tokens.reduce((ids, token, id) => (walk(from, token) === null ? ids : [...ids, id]), []);`),
    "Array.from and index loops": maskWith(`
  let from = start(schema);
  const written = Array.from(text);
  for (let i = 0; i < written.length && from !== null; i++) from = step(from, written[i]);
  const allowed = [];
  if (from === null) return allowed;
  for (let id = 0; id < tokens.length; id++) {
    const chars = Array.from(tokens[id]);
    let state = from;
    for (let i = 0; i < chars.length && state !== null; i++) state = step(state, chars[i]);
    if (state !== null) allowed.push(id);
  }
  return allowed;`),
  },
  wrong: {
    // A token that completes the call taken as leaving it dead: only "live" kept.
    "a token that completes the call left out": maskWith(`
  return tokens.flatMap((token, id) => (prefixStatus(schema, text + token) === "live" ? [id] : []));`),
    // The tokens themselves, not their ids.
    "tokens, not ids": maskChanged(["allowed.push(id);", "allowed.push(token);"]),
    // A step that changes the state it is given: the first token moves the text's state for all.
    "a step that changes the state it was given": maskWith(MASK_BODY, MUTATING_STEP),
    // Each token tried from where the last allowed one left the text.
    "one state carried from token to token": maskWith(`
  let from = start(schema);
  for (const char of text) {
    from = step(from, char);
    if (from === null) return [];
  }
  const allowed = [];
  tokens.forEach((token, id) => {
    let state = from;
    for (const char of token) {
      state = step(state, char);
      if (state === null) return;
    }
    from = state;
    allowed.push(id);
  });
  return allowed;`),
    // A character the step refuses skipped, so a dead text still has a mask.
    "refused characters skipped": maskChanged([
      "    from = step(from, char);\n    if (from === null) return [];",
      "    from = step(from, char) ?? from;",
    ]),
    // The text never read: every token tried from the start.
    "the text not read": maskChanged([
      "  for (const char of text) {\n    from = step(from, char);\n    if (from === null) return [];\n  }",
      "",
    ]),
    // A token judged by its first character alone.
    "only a token's first character": maskChanged([
      "    for (const char of token) {\n      state = step(state, char);\n      if (state === null) return;\n    }",
      "    state = step(state, [...token][0]);\n    if (state === null) return;",
    ]),
    // A token walked by UTF-16 units: an emoji becomes two halves, each refused.
    "a token walked by token[i]": maskChanged([
      "    for (const char of token) {\n      state = step(state, char);",
      "    for (let i = 0; i < token.length; i++) {\n      state = step(state, token[i]);",
    ]),
    // The text walked by UTF-16 units: an emoji written so far kills the text.
    "the text walked by text[i]": maskChanged([
      "  for (const char of text) {\n    from = step(from, char);",
      "  for (let i = 0; i < text.length; i++) {\n    from = step(from, text[i]);",
    ]),
    // A token written twice gets the first one's id twice.
    "a duplicate takes the first one's id": maskChanged([
      "allowed.push(id);",
      "allowed.push(tokens.indexOf(token));",
    ]),
    // The ids sorted, as text.
    "ids sorted as text": maskChanged(["  return allowed;", "  return allowed.sort();"]),
    // A dead text taken to restrict nothing: every token allowed.
    "a dead text masks nothing": maskChanged([
      "if (from === null) return [];",
      "if (from === null) return tokens.map((_, id) => id);",
    ]),
    // A token allowed when it is the start of a valid text on its own, the text forgotten.
    "the token judged without the text": maskWith(`
  if (prefixStatus(schema, text) === "dead") return [];
  return tokens.flatMap((token, id) => (prefixStatus(schema, token) === "dead" ? [] : [id]));`),
  },
};

// ------------------------------------------------------------------- buildTrie

const build = (body: string) => `\nexport function buildTrie(tokens) {${body}\n}`;
const BUILD_BODY = BUILD_TRIE.slice(BUILD_TRIE.indexOf("{") + 1, BUILD_TRIE.lastIndexOf("}"))
  .trimEnd();
const buildChanged = (...changes: [string, string][]) =>
  build(changes.reduce((source, [from, to]) => mutate(source, from, to), BUILD_BODY));

const buildTrie: Catalogue = {
  unit: "lab-03",
  fn: "buildTrie",
  right: {
    "the worked solution's way": exported(BUILD_TRIE),
    "recursive, grouping by first character": String.raw`
function grouped(entries) {
  const node = { ids: [], children: {} };
  const groups = new Map();
  for (const [chars, id] of entries) {
    if (chars.length === 0) {
      node.ids.push(id);
      continue;
    }
    if (!groups.has(chars[0])) groups.set(chars[0], []);
    groups.get(chars[0]).push([chars.slice(1), id]);
  }
  for (const [char, group] of groups) node.children[char] = grouped(group);
  return node;
}
export function buildTrie(tokens) {
  return grouped(tokens.map((token, id) => [Array.from(token), id]));
}`,
    "reduce over tokens and characters": build(`
  return tokens.reduce((root, token, id) => {
    const end = [...token].reduce((node, char) => (node.children[char] ??= { ids: [], children: {} }), root);
    end.ids.push(id);
    return root;
  }, { ids: [], children: {} });`),
    "codePointAt and Object.hasOwn": build(`
  const root = { ids: [], children: {} };
  for (let id = 0; id < tokens.length; id++) {
    const token = tokens[id];
    let node = root;
    for (let i = 0; i < token.length; ) {
      const char = String.fromCodePoint(token.codePointAt(i));
      i += char.length;
      if (!Object.hasOwn(node.children, char)) node.children[char] = { ids: [], children: {} };
      node = node.children[char];
    }
    node.ids.push(id);
  }
  return root;`),
  },
  wrong: {
    // Children keyed by UTF-16 unit: an emoji is two nodes.
    "keyed by token[i]": buildChanged([
      "for (const char of token) node = node.children[char]",
      "for (let i = 0; i < token.length; i++) node = node.children[token[i]]",
    ]),
    // An id kept only where no longer token goes on.
    "ids only at leaves": buildChanged([
      "    node.ids.push(id);",
      "    if (Object.keys(node.children).length === 0) node.ids.push(id);",
    ]),
    // One id per node: a token written twice keeps only the last.
    "duplicates lost": buildChanged(["node.ids.push(id);", "node.ids = [id];"]),
    // The id put on every node the token passes through.
    "the id on every node along the way": buildChanged([
      "    for (const char of token) node = node.children[char] ??= { ids: [], children: {} };\n    node.ids.push(id);",
      "    for (const char of token) {\n      node = node.children[char] ??= { ids: [], children: {} };\n      node.ids.push(id);\n    }",
    ]),
    // A node made anew for each token, dropping what an earlier one put there.
    "a node made anew each time": buildChanged([
      "node.children[char] ??= {",
      "node.children[char] = {",
    ]),
    // The token's text, not its id.
    "tokens, not ids": buildChanged(["node.ids.push(id);", "node.ids.push(token);"]),
    // Children in a Map, not an object keyed by character.
    "children in a Map": build(`
  const root = { ids: [], children: new Map() };
  tokens.forEach((token, id) => {
    let node = root;
    for (const char of token) {
      if (!node.children.has(char)) node.children.set(char, { ids: [], children: new Map() });
      node = node.children.get(char);
    }
    node.ids.push(id);
  });
  return root;`),
    // children made only when a node has one: a leaf has none.
    "a leaf has no children": build(`
  const root = { ids: [] };
  tokens.forEach((token, id) => {
    let node = root;
    for (const char of token) node = (node.children ??= {})[char] ??= { ids: [] };
    node.ids.push(id);
  });
  return root;`),
    // ids made only where a token ends: a node on the way has none.
    "ids only where a token ends": build(`
  const root = { children: {} };
  tokens.forEach((token, id) => {
    let node = root;
    for (const char of token) node = node.children[char] ??= { children: {} };
    (node.ids ??= []).push(id);
  });
  return root;`),
    // A token written twice takes the first one's id.
    "a duplicate takes the first one's id": buildChanged([
      "node.ids.push(id);",
      "node.ids.push(tokens.indexOf(token));",
    ]),
    // A flat map of whole tokens, not a node per character.
    "whole tokens as children": buildChanged([
      "for (const char of token) node = node.children[char] ??= { ids: [], children: {} };",
      "node = node.children[token] ??= { ids: [], children: {} };",
    ]),
    // The id put one node short: at the token's next-to-last character.
    "the id one node short": buildChanged([
      "for (const char of token) node",
      "for (const char of [...token].slice(0, -1)) node",
    ]),
  },
};

// -------------------------------------------------------------------- trieMask

const walkWith = (body: string) =>
  `${STEP}\nexport function trieMask(schema, text, trie) {${body}\n}`;
const TRIE_BODY = TRIE_MASK.slice(TRIE_MASK.indexOf("{") + 1, TRIE_MASK.lastIndexOf("}")).trimEnd();
const trieChanged = (...changes: [string, string][]) =>
  walkWith(changes.reduce((source, [from, to]) => mutate(source, from, to), TRIE_BODY));

/** The start of every trieMask below: the text's state, or nothing for a dead text. */
const TEXT_STATE = `
  let from = start(schema);
  for (const char of text) {
    from = step(from, char);
    if (from === null) return { allowed: [], visited: 0 };
  }`;

const trieMask: Catalogue = {
  unit: "lab-03",
  fn: "trieMask",
  right: {
    "the worked solution's way": STEP + exported(TRIE_MASK),
    "an explicit stack": walkWith(`${TEXT_STATE}
  const allowed = [];
  let visited = 0;
  const stack = [[trie, from]];
  while (stack.length > 0) {
    const [node, state] = stack.pop();
    for (const char of Object.keys(node.children)) {
      visited += 1;
      const next = step(state, char);
      if (next === null) continue;
      allowed.push(...node.children[char].ids);
      stack.push([node.children[char], next]);
    }
  }
  allowed.sort((a, b) => a - b);
  return { allowed, visited };`),
    "breadth first, sorted at the end": walkWith(`${TEXT_STATE}
  const found = [];
  let visited = 0;
  let level = [[trie, from]];
  while (level.length > 0) {
    const below = [];
    for (const [node, state] of level) {
      for (const [char, child] of Object.entries(node.children)) {
        visited++;
        const next = step(state, char);
        if (next !== null) {
          found.push(...child.ids);
          below.push([child, next]);
        }
      }
    }
    level = below;
  }
  return { allowed: found.toSorted((a, b) => a - b), visited };`),
    "recursion that returns what it found": walkWith(`${TEXT_STATE}
  const walk = (node, state) =>
    Object.entries(node.children).reduce((sum, [char, child]) => {
      const next = step(state, char);
      if (next === null) return { allowed: sum.allowed, visited: sum.visited + 1 };
      const below = walk(child, next);
      return {
        allowed: [...sum.allowed, ...child.ids, ...below.allowed],
        visited: sum.visited + 1 + below.visited,
      };
    }, { allowed: [], visited: 0 });
  const { allowed, visited } = walk(trie, from);
  return { allowed: allowed.toSorted((a, b) => a - b), visited };`),
  },
  wrong: {
    // visited counts only the nodes that stay live.
    "only live nodes visited": trieChanged(
      ["      visited++;\n", ""],
      [
        "      if (next === null) continue;\n",
        "      if (next === null) continue;\n      visited++;\n",
      ],
    ),
    // visited counts the tokens a node holds, not the node.
    "tokens counted, not nodes": trieChanged(
      ["      visited++;\n", ""],
      [
        "      allowed.push(...child.ids);",
        "      allowed.push(...child.ids);\n      visited += child.ids.length;",
      ],
    ),
    // Only the root's children: a token's later characters never stepped.
    "not descending": trieChanged(["      walk(child, next);\n", ""]),
    // The ids in the order the walk found them.
    "ids not sorted": trieChanged(["allowed: allowed.sort((a, b) => a - b)", "allowed"]),
    // The ids sorted as text: 13 before 3.
    "ids sorted as text": trieChanged(["allowed.sort((a, b) => a - b)", "allowed.sort()"]),
    // A dead branch walked all the same, its nodes counted, only its ids left out.
    "dead branches walked": trieChanged(
      [
        "      const next = step(state, char);\n      if (next === null) continue;\n      allowed.push(...child.ids);\n      walk(child, next);",
        "      const next = state === null ? null : step(state, char);\n      if (next !== null) allowed.push(...child.ids);\n      walk(child, next);",
      ],
    ),
    // The root counted as a node visited.
    "the root visited": trieChanged(["  let visited = 0;", "  let visited = 1;"]),
    // A dead text's characters skipped, and the tree walked anyway.
    "a dead text still walked": trieChanged([
      "    from = step(from, char);\n    if (from === null) return { allowed: [], visited: 0 };",
      "    from = step(from, char) ?? from;",
    ]),
    // Each node's whole path stepped again from the text's state: visited counts characters stepped.
    "each path stepped from the top": walkWith(`${TEXT_STATE}
  const allowed = [];
  let visited = 0;
  const walk = (node, path) => {
    for (const [char, child] of Object.entries(node.children)) {
      let state = from;
      for (const c of path + char) {
        visited++;
        state = step(state, c);
        if (state === null) break;
      }
      if (state === null) continue;
      allowed.push(...child.ids);
      walk(child, path + char);
    }
  };
  walk(trie, "");
  return { allowed: allowed.sort((a, b) => a - b), visited };`),
    // A dead branch cut out of the tree as it is walked: the caller's tree changed.
    "dead branches pruned from the tree": trieChanged([
      "      if (next === null) continue;",
      "      if (next === null) {\n        delete node.children[char];\n        continue;\n      }",
    ]),
    // A dead node's ids taken before the step is checked.
    "ids taken before the step is checked": trieChanged(
      ["      allowed.push(...child.ids);\n", ""],
      [
        "      const next = step(state, char);",
        "      allowed.push(...child.ids);\n      const next = step(state, char);",
      ],
    ),
    // The tree's characters walked breadth first, ids in the order found.
    "breadth first, not sorted": walkWith(`${TEXT_STATE}
  const allowed = [];
  let visited = 0;
  const queue = [[trie, from]];
  while (queue.length > 0) {
    const [node, state] = queue.shift();
    for (const [char, child] of Object.entries(node.children)) {
      visited++;
      const next = step(state, char);
      if (next === null) continue;
      allowed.push(...child.ids);
      queue.push([child, next]);
    }
  }
  return { allowed, visited };`),
  },
};

// ---------------------------------------------------------------------- decode

const PIECES = STEP + STATUS + BUILD_TRIE + TRIE_MASK + TOKEN_MASK;
const decodeWith = (body: string) =>
  `${PIECES}\nconst tries = new WeakMap();\nexport function decode(schema, tokens, model, maxTokens) {${body}\n}`;

const DECODE_BODY = String.raw`
  let trie = tries.get(tokens);
  if (trie === undefined) tries.set(tokens, trie = buildTrie(tokens));
  const stop = tokens.length;
  const written = [];
  let text = "";
  while (true) {
    const complete = prefixStatus(schema, text) === "complete";
    const allowed = trieMask(schema, text, trie).allowed;
    if (complete) allowed.push(stop);
    if (allowed.length === 0) throw new RangeError("no token may follow " + JSON.stringify(text));
    if (written.length === maxTokens) {
      if (complete) return { text, tokens: written };
      throw new RangeError("no complete call within " + maxTokens + " tokens: " + JSON.stringify(text));
    }
    const scores = model(written);
    let best = allowed[0];
    for (const id of allowed) if (scores[id] > scores[best]) best = id;
    if (best === stop) return { text, tokens: written };
    written.push(best);
    text += tokens[best];
  }`;
const decodeChanged = (...changes: [string, string][]) =>
  decodeWith(changes.reduce((source, [from, to]) => mutate(source, from, to), DECODE_BODY));

const decode: Catalogue = {
  unit: "lab-03",
  fn: "decode",
  right: {
    "the worked solution's way": decodeWith(DECODE_BODY),
    "tokenMask each step, a for loop over the budget": decodeWith(`
  const stop = tokens.length;
  const written = [];
  let text = "";
  for (let count = 0; ; count++) {
    const complete = prefixStatus(schema, text) === "complete";
    const allowed = [...tokenMask(schema, text, tokens), ...(complete ? [stop] : [])];
    if (allowed.length === 0) throw new RangeError("nothing may follow " + text);
    if (count === maxTokens) {
      if (!complete) throw new RangeError("no complete call in " + maxTokens + " tokens");
      break;
    }
    const scores = model(written);
    const best = allowed.reduce((a, b) => (scores[b] > scores[a] ? b : a));
    if (best === stop) break;
    written.push(best);
    text += tokens[best];
  }
  return { text, tokens: written };`),
    "the allowed ids sorted by score, then id": decodeWith(`
  const trie = buildTrie(tokens);
  const written = [];
  let text = "";
  for (;;) {
    const status = prefixStatus(schema, text);
    const allowed = trieMask(schema, text, trie).allowed;
    if (status === "complete") allowed.push(tokens.length);
    if (allowed.length === 0) throw new RangeError("dead end at " + text);
    if (written.length >= maxTokens) {
      if (status === "complete") return { text, tokens: written };
      throw new RangeError("out of tokens at " + text);
    }
    const scores = model(written);
    const [best] = allowed.toSorted((a, b) => scores[b] - scores[a] || a - b);
    if (best === tokens.length) return { text, tokens: written };
    written.push(best);
    text += tokens[best];
  }`),
    "recursive, one token per call": decodeWith(`
  const trie = buildTrie(tokens);
  const go = (written, text) => {
    const complete = prefixStatus(schema, text) === "complete";
    const allowed = trieMask(schema, text, trie).allowed.concat(complete ? [tokens.length] : []);
    if (allowed.length === 0) throw new RangeError("no token may follow " + text);
    if (written.length === maxTokens && !complete) throw new RangeError("budget spent at " + text);
    if (written.length === maxTokens) return { text, tokens: written };
    const scores = model(written);
    let best = -1;
    for (const id of allowed) if (best === -1 || scores[id] > scores[best]) best = id;
    return best === tokens.length ? { text, tokens: written } : go([...written, best], text + tokens[best]);
  };
  return go([], "");`),
    // The stop weighed first, so that it would win a tie (round 15 left it open): stopping is
    // allowed only once the call is complete, and no token may follow a complete call (one text
    // per call), so the stop is then all the mask allows and never meets a token to tie with.
    "the stop weighed first": decodeChanged([
      "    if (complete) allowed.push(stop);",
      "    if (complete) allowed.unshift(stop);",
    ]),
  },
  wrong: {
    // Stopping allowed at any point, not only once the call is complete.
    "stop allowed before complete": decodeChanged([
      "    if (complete) allowed.push(stop);",
      "    allowed.push(stop);",
    ]),
    // A tie goes to the later id.
    "ties to the higher id": decodeChanged([
      "scores[id] > scores[best]",
      "scores[id] >= scores[best]",
    ]),
    // The model's favourite over the whole vocabulary, the mask never applied.
    "the mask ignored": decodeChanged([
      "    let best = allowed[0];\n    for (const id of allowed) if (scores[id] > scores[best]) best = id;",
      "    let best = 0;\n    for (let id = 0; id <= stop; id++) if (scores[id] > scores[best]) best = id;",
    ]),
    // The stop written as a token of the call.
    "the stop written as a token": decodeChanged([
      "    if (best === stop) return { text, tokens: written };\n",
      "    if (best === stop) return { text, tokens: [...written, stop] };\n",
    ]),
    // One token more than the budget.
    "one token over the budget": decodeChanged([
      "if (written.length === maxTokens) {",
      "if (written.length === maxTokens + 1) {",
    ]),
    // One token fewer than the budget.
    "one token short of the budget": decodeChanged([
      "if (written.length === maxTokens) {",
      "if (written.length === maxTokens - 1) {",
    ]),
    // The text so far returned at the budget, complete or not.
    "an incomplete text returned at the budget": decodeChanged([
      "      if (complete) return { text, tokens: written };\n      throw new RangeError(",
      "      return { text, tokens: written };\n      throw new RangeError(",
    ]),
    // The model's favourite taken, and the first allowed id if the mask refuses it.
    "argmax first, then the mask": decodeChanged([
      "    let best = allowed[0];\n    for (const id of allowed) if (scores[id] > scores[best]) best = id;",
      "    let best = 0;\n    for (let id = 0; id <= stop; id++) if (scores[id] > scores[best]) best = id;\n" +
      "    if (!allowed.includes(best)) best = allowed[0];",
    ]),
    // A text no token may follow returned as it is.
    "a dead end returned, not refused": decodeChanged([
      'if (allowed.length === 0) throw new RangeError("no token may follow " + JSON.stringify(text));',
      "if (allowed.length === 0) return { text, tokens: written };",
    ]),
    // A plain Error, not a RangeError.
    "a plain Error": decodeChanged(
      ['throw new RangeError("no token', 'throw new Error("no token'],
      ['throw new RangeError("no complete', 'throw new Error("no complete'],
    ),
    // The model asked once, its first scores used for every step.
    "the model asked once": decodeChanged(
      ["    const scores = model(written);\n", ""],
      ['  let text = "";\n', '  let text = "";\n  const scores = model([]);\n'],
    ),
    // The budget counted in characters, not tokens.
    "the budget in characters": decodeChanged([
      "if (written.length === maxTokens) {",
      "if (text.length >= maxTokens) {",
    ]),
    // The stop's score read from the last token's place.
    "the stop is the last token": decodeChanged([
      "const stop = tokens.length;",
      "const stop = tokens.length - 1;",
    ]),
    // The scores read by place among the allowed ids, not by id.
    "scores by place in the mask": decodeChanged([
      "    let best = allowed[0];\n    for (const id of allowed) if (scores[id] > scores[best]) best = id;",
      "    let at = 0;\n    for (let i = 0; i < allowed.length; i++) if (scores[i] > scores[at]) at = i;\n    const best = allowed[at];",
    ]),
    // The best found from a score of -Infinity up: when every allowed token scores -Infinity, as a
    // model of log-probabilities may, none is found (round 13 of issue 38's red team: it kept
    // every mark).
    "the best found from a score of -Infinity up": decodeChanged([
      "    let best = allowed[0];\n    for (const id of allowed) if (scores[id] > scores[best]) best = id;",
      "    let best = -1, high = -Infinity;\n    for (const id of allowed) if (scores[id] > high) { best = id; high = scores[id]; }",
    ]),
  },
};

// -------------------------------------------------------------------- nextMove

const move = (body: string) =>
  `\nexport function nextMove(outcome, attempt, maxAttempts) {${body}\n}`;

const nextMove: Catalogue = {
  unit: "lab-03",
  fn: "nextMove",
  right: {
    "the worked solution's way": move(`
  if (outcome.kind === "result") return { action: "done" };
  if (outcome.kind === "ToolError" && attempt < maxAttempts) {
    return { action: "retry", context: outcome.message };
  }
  return { action: "stop", error: outcome.kind };`),
    "a switch": move(`
  switch (outcome.kind) {
    case "result":
      return { action: "done" };
    case "ToolError":
      if (maxAttempts - attempt > 0) return { action: "retry", context: outcome.message };
      return { action: "stop", error: "ToolError" };
    default:
      return { action: "stop", error: outcome.kind };
  }`),
    "one conditional expression": move(`
  return outcome.kind === "result"
    ? { action: "done" }
    : outcome.kind === "ToolError" && attempt + 1 <= maxAttempts
    ? { action: "retry", context: outcome.message }
    : { action: "stop", error: outcome.kind };`),
    "the stops first, by a set": move(`
  const never = new Set(["ProtocolError", "TimeoutError"]);
  if (never.has(outcome.kind)) return { action: "stop", error: outcome.kind };
  if (outcome.kind !== "ToolError") return { action: "done" };
  const left = maxAttempts - attempt;
  return left >= 1 ? { action: "retry", context: outcome.message } : { action: "stop", error: outcome.kind };`),
  },
  wrong: {
    // A ProtocolError tried again, like any failure.
    "ProtocolError retried": move(`
  if (outcome.kind === "result") return { action: "done" };
  if (attempt < maxAttempts) return { action: "retry", context: outcome.message };
  return { action: "stop", error: outcome.kind };`),
    // A TimeoutError taken as passing: tried again.
    "TimeoutError retried": move(`
  if (outcome.kind === "result") return { action: "done" };
  if (outcome.kind !== "ProtocolError" && attempt < maxAttempts) {
    return { action: "retry", context: outcome.message };
  }
  return { action: "stop", error: outcome.kind };`),
    // One attempt more than allowed.
    "attempt <= maxAttempts": move(`
  if (outcome.kind === "result") return { action: "done" };
  if (outcome.kind === "ToolError" && attempt <= maxAttempts) {
    return { action: "retry", context: outcome.message };
  }
  return { action: "stop", error: outcome.kind };`),
    // Attempts counted from 0: one attempt fewer.
    "attempts counted from 0": move(`
  if (outcome.kind === "result") return { action: "done" };
  if (outcome.kind === "ToolError" && attempt + 1 < maxAttempts) {
    return { action: "retry", context: outcome.message };
  }
  return { action: "stop", error: outcome.kind };`),
    // A retry with no context: the next try learns nothing from the error.
    "context missing": move(`
  if (outcome.kind === "result") return { action: "done" };
  if (outcome.kind === "ToolError" && attempt < maxAttempts) return { action: "retry" };
  return { action: "stop", error: outcome.kind };`),
    // The stop names the message, not the error.
    "the message as the error": move(`
  if (outcome.kind === "result") return { action: "done" };
  if (outcome.kind === "ToolError" && attempt < maxAttempts) {
    return { action: "retry", context: outcome.message };
  }
  return { action: "stop", error: outcome.message };`),
    // The error's kind as the context, not its message.
    "the kind as the context": move(`
  if (outcome.kind === "result") return { action: "done" };
  if (outcome.kind === "ToolError" && attempt < maxAttempts) {
    return { action: "retry", context: outcome.kind };
  }
  return { action: "stop", error: outcome.kind };`),
    // Whatever came, tried again while attempts remain: a result too.
    "everything retried, results too": move(`
  if (attempt < maxAttempts && outcome.kind !== "ProtocolError") {
    return { action: "retry", context: outcome.message };
  }
  return outcome.kind === "result" ? { action: "done" } : { action: "stop", error: outcome.kind };`),
    // The first ToolError stops the agent.
    "stop at the first ToolError": move(`
  if (outcome.kind === "result") return { action: "done" };
  return { action: "stop", error: outcome.kind };`),
    // An empty message taken as nothing to try again with.
    "an empty message stops": move(`
  if (outcome.kind === "result") return { action: "done" };
  if (outcome.kind === "ToolError" && outcome.message && attempt < maxAttempts) {
    return { action: "retry", context: outcome.message };
  }
  return { action: "stop", error: outcome.kind };`),
    // Only the very last attempt stops: one past it tries again.
    "stop only at attempt === maxAttempts": move(`
  if (outcome.kind === "result") return { action: "done" };
  if (outcome.kind === "ToolError" && attempt !== maxAttempts) {
    return { action: "retry", context: outcome.message };
  }
  return { action: "stop", error: outcome.kind };`),
    // Every stop named ToolError, whatever ended the call.
    "every stop a ToolError": move(`
  if (outcome.kind === "result") return { action: "done" };
  if (outcome.kind === "ToolError" && attempt < maxAttempts) {
    return { action: "retry", context: outcome.message };
  }
  return { action: "stop", error: "ToolError" };`),
    // The next attempt's number added to the move.
    "the next attempt in the move": move(`
  if (outcome.kind === "result") return { action: "done" };
  if (outcome.kind === "ToolError" && attempt < maxAttempts) {
    return { action: "retry", context: outcome.message, attempt: attempt + 1 };
  }
  return { action: "stop", error: outcome.kind };`),
    // The message tidied into the context (round 13 of issue 38's red team: it kept every mark).
    "the context trimmed": move(`
  if (outcome.kind === "result") return { action: "done" };
  if (outcome.kind === "ToolError" && attempt < maxAttempts) {
    return { action: "retry", context: outcome.message.trim() };
  }
  return { action: "stop", error: outcome.kind };`),
  },
};

// ---------------------------------------------------------------- retryRequest

/** The worked retry, in plain JavaScript. */
const RETRY = String.raw`
export function retryRequest(first, result, answers, id) {
  if (id === first.id) {
    throw new RangeError("A retry is a new request: the id " + JSON.stringify(id) + " is spent");
  }
  const { inputResponses: _, requestState: __, ...params } = first.params;
  if (result.inputRequests !== undefined) {
    const responses = {};
    for (const key of Object.keys(result.inputRequests)) {
      if (!Object.hasOwn(answers, key)) throw new RangeError("The server asked " + key + ": no answer");
      responses[key] = answers[key];
    }
    params.inputResponses = responses;
  }
  if (result.requestState !== undefined) params.requestState = result.requestState;
  return { jsonrpc: first.jsonrpc, id, method: first.method, params };
}`;

const retryChanged = (...changes: [string, string][]) =>
  changes.reduce((source, [from, to]) => mutate(source, from, to), RETRY);

const retryRequest: Catalogue = {
  unit: "lab-03",
  fn: "retryRequest",
  right: {
    "the worked solution's way": RETRY,
    "a copy of the params, and delete": String.raw`
export function retryRequest(first, result, answers, id) {
  if (Object.is(id, first.id)) throw new RangeError("the id is the first request's");
  const params = structuredClone(first.params);
  delete params.inputResponses;
  delete params.requestState;
  const asked = Object.keys(result.inputRequests ?? {});
  // Own answers only: key in answers finds constructor on every object's prototype.
  const missing = asked.filter((key) => !Object.hasOwn(answers, key));
  if (missing.length > 0) throw new RangeError("no answer to " + missing.join(", "));
  if ("inputRequests" in result) {
    params.inputResponses = Object.fromEntries(asked.map((key) => [key, answers[key]]));
  }
  if (typeof result.requestState === "string") params.requestState = result.requestState;
  return { jsonrpc: "2.0", id, method: first.method, params };
}`,
    "entries filtered, spreads": String.raw`
export function retryRequest(first, result, answers, id) {
  if (id === first.id) throw new RangeError("same id");
  const asked = result.inputRequests;
  const given = Object.entries(answers).filter(([key]) => asked !== undefined && key in asked);
  if (asked !== undefined && given.length < Object.keys(asked).length) {
    throw new RangeError("a question has no answer");
  }
  const { inputResponses, requestState, ...kept } = first.params;
  return {
    jsonrpc: first.jsonrpc,
    id,
    method: first.method,
    params: {
      ...kept,
      ...(asked === undefined ? {} : { inputResponses: Object.fromEntries(given) }),
      ...(result.requestState === undefined ? {} : { requestState: result.requestState }),
    },
  };
}`,
    "a reduce, and undefined left to the wire": String.raw`
export function retryRequest(first, result, answers, id) {
  if (first.id === id) throw new RangeError("the retry needs a new id");
  const inputResponses = result.inputRequests === undefined
    ? undefined
    : Object.keys(result.inputRequests).reduce((found, key) => {
      if (!Object.prototype.hasOwnProperty.call(answers, key)) throw new RangeError(key);
      return { ...found, [key]: answers[key] };
    }, {});
  const params = { ...first.params, inputResponses, requestState: result.requestState };
  return { jsonrpc: "2.0", id, method: first.method, params };
}`,
    // inputRequests: {} taken to ask nothing, so the retry carries no inputResponses (round 13
    // left it open). Either is right: "For each key in the response's inputRequests field, the
    // same key must appear here" (InputResponseRequestParams, whose inputResponses is optional,
    // 2026-07-28's schema): with no key, none must, whether inputResponses is {} or not there.
    "an empty question list taken to ask nothing": retryChanged([
      "  if (result.inputRequests !== undefined) {",
      "  if (Object.keys(result.inputRequests ?? {}).length > 0) {",
    ]),
  },
  wrong: {
    // The retry sent as the same request: its id reused.
    "the first request's id reused": retryChanged(
      [
        "return { jsonrpc: first.jsonrpc, id, method",
        "return { jsonrpc: first.jsonrpc, id: first.id, method",
      ],
      ["  if (id === first.id) {", "  if (false) {"],
    ),
    // The same id not refused: the caller is trusted to give a new one.
    "the same id not refused": retryChanged(["  if (id === first.id) {", "  if (false) {"]),
    // Ids compared loosely: "1" taken for 1, and a new id refused.
    "ids compared loosely": retryChanged(["  if (id === first.id) {", "  if (id == first.id) {"]),
    // The id taken for absent when falsy: 0 replaced by the next one counted by hand.
    "the id 0 taken for none": retryChanged([
      "return { jsonrpc: first.jsonrpc, id, method",
      "return { jsonrpc: first.jsonrpc, id: id || Number(first.id) + 1, method",
    ]),
    // The state tidied: spaces trimmed.
    "requestState trimmed": retryChanged([
      "params.requestState = result.requestState;",
      "params.requestState = result.requestState.trim();",
    ]),
    // The state made safe for a URL.
    "requestState URL-encoded": retryChanged([
      "params.requestState = result.requestState;",
      "params.requestState = encodeURIComponent(result.requestState);",
    ]),
    // The state read as JSON where it looks like JSON, and written back.
    "requestState parsed and written again": retryChanged([
      "params.requestState = result.requestState;",
      `{
    let state = result.requestState;
    try {
      state = JSON.stringify(JSON.parse(state));
    } catch { /* not JSON: kept */ }
    params.requestState = state;
  }`,
    ]),
    // An empty state taken for none.
    "an empty requestState dropped": retryChanged([
      "if (result.requestState !== undefined) params.requestState",
      "if (result.requestState) params.requestState",
    ]),
    // The last round's state kept when this round has none.
    "an earlier round's state carried on": retryChanged([
      "const { inputResponses: _, requestState: __, ...params } = first.params;",
      "const { inputResponses: _, ...params } = first.params;",
    ]),
    // The last round's answers kept beside this round's.
    "answers piled up across rounds": retryChanged([
      "const { inputResponses: _, requestState: __, ...params } = first.params;",
      "const { requestState: __, ...params } = first.params;",
    ], ["const responses = {};", "const responses = { ...params.inputResponses };"]),
    // Every answer the client holds sent, asked or not.
    "every answer sent": retryChanged([
      "    params.inputResponses = responses;",
      "    params.inputResponses = { ...answers };",
    ]),
    // A question without an answer sent without one.
    "a missing answer not refused": retryChanged([
      '      if (!Object.hasOwn(answers, key)) throw new RangeError("The server asked " + key + ": no answer");\n',
      "",
    ]),
    // The params rebuilt from the tool's name and arguments: _meta and the rest lost.
    "params rebuilt from name and arguments": retryChanged([
      "const { inputResponses: _, requestState: __, ...params } = first.params;",
      "const params = { name: first.params.name, arguments: first.params.arguments };",
    ]),
    // The result's questions sent back beside the answers.
    "the questions sent back": retryChanged([
      "    params.inputResponses = responses;",
      "    params.inputResponses = responses;\n    params.inputRequests = result.inputRequests;",
    ]),
    // Every retry a tools/call.
    "the method always tools/call": retryChanged([
      "id, method: first.method, params",
      'id, method: "tools/call", params',
    ]),
    // An empty inputResponses sent when nothing was asked.
    "inputResponses always sent": retryChanged([
      "  if (result.inputRequests !== undefined) {\n    const responses = {};\n    for (const key of Object.keys(result.inputRequests)) {",
      "  {\n    const responses = {};\n    for (const key of Object.keys(result.inputRequests ?? {})) {",
    ]),
    // Round 13 of issue 38's red team: each kept every mark. An answer found on the prototype of
    // answers: a question named constructor is answered with Object.
    "an answer looked up through the prototype": retryChanged([
      "if (!Object.hasOwn(answers, key))",
      "if (answers[key] === undefined)",
    ]),
    "an answer found with in": retryChanged([
      "if (!Object.hasOwn(answers, key))",
      "if (!(key in answers))",
    ]),
  },
};

/** Lab 03's catalogue. */
export const LAB_03: readonly Catalogue[] = [
  prefixStatus,
  tokenMask,
  buildTrie,
  trieMask,
  decode,
  nextMove,
  retryRequest,
];
