/**
 * The form of code, formatting aside: a token stream without comments or
 * white space, string quotes and number spellings made one, and every name
 * (but a property after `.`) renamed in the order it first appears. Two
 * blocks of code have the same form when one is the other reformatted, its
 * local names renamed, or its quotes changed; the grader uses it to know a
 * pasted copy of the library's (or the sealed library's) own function, and
 * the release's test to prove no graded function's body is in the release.
 *
 * @module
 */

/** Words that are the language's, never renamed. */
const KEYWORDS = new Set(
  ("break case catch class const continue debugger default delete do else export extends " +
    "false finally for function if import in instanceof new null return super switch this " +
    "throw true try typeof var void while with yield let static async await of get set as " +
    "interface type enum implements private protected public readonly declare keyof infer " +
    "is satisfies abstract namespace unknown never any undefined")
    .split(" "),
);

/** What a token is: a name, a literal (string, number, template, regex) or punctuation. */
export interface Token {
  kind: "name" | "literal" | "punct";
  text: string;
  /** The line it starts on, counted from 1 (inside a template's `${…}`, the template's). */
  line?: number;
}

/** After these, a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = new Set([
  "return",
  "typeof",
  "case",
  "do",
  "else",
  "in",
  "of",
  "throw",
  "void",
]);

/**
 * The tokens of `source` (JavaScript or TypeScript), comments and white
 * space left out. Unterminated strings and comments end at the end of the text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const texts = tokens("const a = 'x'; // note\n").map((token) => token.text);
 * assert.deepEqual(texts, ["const", "a", "=", '"x"', ";"]);
 * ```
 */
export function tokens(source: string): Token[] {
  const found: Token[] = [];
  let at = 0;
  let line = 1;
  let counted = 0;
  const regexMayStart = () => {
    const last = found.at(-1);
    if (last === undefined) return true;
    if (last.kind === "literal") return false;
    if (last.kind === "name") return BEFORE_REGEX.has(last.text);
    return !/^[)\]}]$/.test(last.text);
  };
  while (at < source.length) {
    const char = source[at];
    const [before, from] = [found.length, at];
    if (/\s/.test(char)) {
      at++;
    } else if (source.startsWith("//", at)) {
      const end = source.indexOf("\n", at);
      at = end === -1 ? source.length : end;
    } else if (source.startsWith("/*", at)) {
      const end = source.indexOf("*/", at + 2);
      at = end === -1 ? source.length : end + 2;
    } else if (char === '"' || char === "'") {
      let end = at + 1;
      while (end < source.length && source[end] !== char && source[end] !== "\n") {
        end += source[end] === "\\" ? 2 : 1;
      }
      const body = source.slice(at + 1, end).replace(/\\(['"])/g, "$1");
      found.push({ kind: "literal", text: JSON.stringify(body) });
      at = end + 1;
    } else if (char === "`") {
      at = template(source, at, found);
    } else if (/[A-Za-z_$\u0080-\uffff]/.test(char)) {
      const match = /^[\w$\u0080-\uffff]+/.exec(source.slice(at, at + 200))!;
      found.push({ kind: "name", text: match[0] });
      at += match[0].length;
    } else if (/[0-9]/.test(char) || (char === "." && /[0-9]/.test(source[at + 1] ?? ""))) {
      const match = /^(0[xXoObB][\da-fA-F_]+n?|[\d_]*\.?[\d_]+(?:[eE][+-]?\d+)?n?)/.exec(
        source.slice(at, at + 100),
      )!;
      const text = match[0].replaceAll("_", "");
      const value = text.endsWith("n") ? text : String(Number(text));
      found.push({ kind: "literal", text: value });
      at += match[0].length;
    } else if (char === "/" && regexMayStart()) {
      let end = at + 1;
      let inClass = false;
      while (end < source.length && source[end] !== "\n") {
        if (source[end] === "\\") end++;
        else if (source[end] === "[") inClass = true;
        else if (source[end] === "]") inClass = false;
        else if (source[end] === "/" && !inClass) break;
        end++;
      }
      end++;
      while (/[a-z]/.test(source[end] ?? "")) end++;
      found.push({ kind: "literal", text: source.slice(at, end) });
      at = end;
    } else {
      const match =
        /^(>>>=|\.\.\.|===|!==|\*\*=|<<=|>>=|>>>|\?\?=|&&=|\|\|=|=>|==|!=|<=|>=|&&|\|\||\?\?|\?\.|\+\+|--|\+=|-=|\*=|\/=|%=|&=|\|=|\^=|\*\*|<<|.)/s
          .exec(source.slice(at, at + 4))!;
      found.push({ kind: "punct", text: match[0] });
      at += match[0].length;
    }
    if (found.length > before) {
      for (; counted < from; counted++) if (source[counted] === "\n") line++;
      for (let index = before; index < found.length; index++) found[index].line ??= line;
    }
  }
  return found;
}

/**
 * Push the tokens of the template literal at `start` onto `found` (its text
 * as literals, each `${…}` as the tokens of its expression, so that a
 * formatter's line breaks inside one change nothing); where it ends.
 */
function template(source: string, start: number, found: Token[]): number {
  let at = start + 1;
  let chunk = "`";
  while (at < source.length) {
    if (source[at] === "\\") {
      chunk += source.slice(at, at + 2);
      at += 2;
    } else if (source[at] === "`") {
      found.push({ kind: "literal", text: chunk + "`" });
      return at + 1;
    } else if (source.startsWith("${", at)) {
      found.push({ kind: "literal", text: chunk + "${" });
      let depth = 1;
      let end = at + 2;
      while (end < source.length && depth > 0) {
        if (source[end] === "`") {
          end = template(source, end, []);
          continue;
        }
        if (source[end] === "{") depth++;
        else if (source[end] === "}") depth--;
        end++;
      }
      found.push(...tokens(source.slice(at + 2, end - 1)));
      chunk = "}";
      at = end;
    } else chunk += source[at++];
  }
  found.push({ kind: "literal", text: chunk });
  return source.length;
}

/**
 * The form of `list`: each token's text, names renamed `$1`, `$2`… in the
 * order they first appear (keywords and a property after `.` or `?.` kept),
 * semicolons and trailing commas left out (where a formatter adds or drops them).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(form(tokens("{ return a.b + a; }")), form(tokens("{return x.b+x;}")));
 * assert.notEqual(form(tokens("{ return a.b; }")), form(tokens("{ return a.c; }")));
 * ```
 */
export function form(list: readonly Token[]): string {
  const names = new Map<string, string>();
  const kept = list.filter((token, index) =>
    token.kind !== "punct" ||
    !(token.text === ";" || (token.text === "," && /^[)\]}]$/.test(list[index + 1]?.text ?? "")))
  );
  return kept.map((token, index) => {
    if (token.kind !== "name" || KEYWORDS.has(token.text)) return token.text;
    const before = kept[index - 1]?.text;
    if (before === "." || before === "?.") return token.text;
    let renamed = names.get(token.text);
    if (renamed === undefined) names.set(token.text, renamed = `$${names.size + 1}`);
    return renamed;
  }).join(" ");
}

/** The fewest tokens a block must have to be judged by its form: shorter ones say too little. */
export const MIN_TOKENS = 12;

/**
 * The form of every block (`{` to its matching `}`) in `source` of at least
 * {@linkcode MIN_TOKENS} tokens: a function's body, a class's, a branch's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const a = blockForms("function f(x) { const y = x * 2; return [y, y + 1, 'z']; }");
 * const b = blockForms("const g = (q) => {\n  const r = q * 2\n  ;return [r, r + 1, \"z\"]\n}");
 * assert.equal(a.size, 1);
 * assert.deepEqual([...a], [...b]);
 * ```
 */
export function blockForms(source: string): Set<string> {
  const list = tokens(source);
  const forms = new Set<string>();
  const open: number[] = [];
  for (let index = 0; index < list.length; index++) {
    const { kind, text } = list[index];
    if (kind !== "punct") continue;
    if (text === "{") open.push(index);
    else if (text === "}" && open.length > 0) {
      const start = open.pop()!;
      if (index - start + 1 >= MIN_TOKENS) forms.add(form(list.slice(start, index + 1)));
    }
  }
  return forms;
}

/**
 * The form of the body of the function, method or class `name` declared in
 * `source` (the first such declaration), or undefined when it declares none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const source = "export function twice(n: number): number[] {\n  return [n, n, 0, 1, 2];\n}\n";
 * const body = bodyForm(source, "twice")!;
 * assert.ok(blockForms("const twice = function (m) { return [m, m, 0, 1, 2]; };").has(body));
 * assert.equal(bodyForm(source, "thrice"), undefined);
 * ```
 */
export function bodyForm(source: string, name: string): string | undefined {
  const body = bodyTokens(source, name);
  return body === undefined ? undefined : form(body);
}

/**
 * The tokens of the body of the function, method or class `name` declared
 * in `source` (the first such declaration), braces included, or undefined
 * when it declares none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const body = bodyTokens("const x = 1;\nfunction f(a) {\n  return a;\n}\n", "f")!;
 * assert.deepEqual(body.map((token) => token.text), ["{", "return", "a", ";", "}"]);
 * assert.deepEqual(body.map((token) => token.line), [2, 3, 3, 3, 4]);
 * ```
 */
export function bodyTokens(source: string, name: string): Token[] | undefined {
  const list = tokens(source);
  for (let index = 0; index < list.length - 1; index++) {
    const declares = list[index].text === name && list[index].kind === "name" &&
      /^(function|class|const|let|var|\*)$/.test(list[index - 1]?.text ?? "");
    if (!declares) continue;
    // The first `{` at the declaration's own depth past its parameters opens its body.
    let depth = 0;
    for (let at = index + 1; at < list.length; at++) {
      const text = list[at].text;
      if (text === "(" || text === "[") depth++;
      else if (text === ")" || text === "]") depth--;
      else if (text === "{" && depth === 0) {
        const end = matching(list, at);
        return end === undefined ? undefined : list.slice(at, end + 1);
      } else if (text === ";" && depth === 0) break;
    }
  }
  return undefined;
}

/** The index of the `}` that closes the `{` at `start`. */
function matching(list: readonly Token[], start: number): number | undefined {
  let depth = 0;
  for (let at = start; at < list.length; at++) {
    if (list[at].text === "{") depth++;
    else if (list[at].text === "}" && --depth === 0) return at;
  }
  return undefined;
}
