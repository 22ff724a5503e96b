/**
 * A notebook's cells as one module, the way the Deno kernel runs them: cells
 * in notebook order, in one scope, where a later cell may declare a name an
 * earlier cell declared (the kernel allows it; a module does not), and where
 * a cell the learner added may hold a helper a graded function uses. Of a
 * cell the learner added, only its imports and declarations are kept: what
 * it does when run (start a server, print, await) is the notebook's business,
 * not the grader's.
 *
 * @module
 */

/** One top-level statement of a cell: its text, and the name it declares, if any. */
export interface Statement {
  text: string;
  /** What it is: `import`, a declaration's keyword, or `other`. */
  kind: "import" | "function" | "class" | "const" | "let" | "var" | "type" | "other";
  /** The name it declares (for a declaration of one simple name). */
  name?: string;
}

const DECLARATION =
  /^(?:export\s+)?(?:declare\s+)?(?:(async\s+)?function\s*\*?|(abstract\s+)?class|const|let|var|type|interface|enum)\s+([A-Za-z_$][\w$]*)/;

/**
 * The top-level statements of `source`, in order: a statement ends at a `;`
 * or at the end of a line at the top level when the next line does not go on
 * with it. Strings, templates, comments and regular expressions are skipped
 * over whole.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const source = "const a = 1;\nfunction f(x) {\n  return x + a;\n}\nconsole.log(f(\n  2,\n));\n";
 * assert.deepEqual(topLevelStatements(source).map((s) => [s.kind, s.name]), [
 *   ["const", "a"],
 *   ["function", "f"],
 *   ["other", undefined],
 * ]);
 * ```
 */
export function topLevelStatements(source: string): Statement[] {
  const statements: Statement[] = [];
  let start = 0;
  let depth = 0;
  let i = 0;
  let last = ""; // the last significant character, for regular expressions and continuations
  const templates: number[] = []; // the depth at which each open template's ${ began
  const end = (at: number) => {
    const text = source.slice(start, at).trim();
    // A comment alone is not a statement: it stays with the one it comes before.
    if (text.replace(/(\s|\/\/[^\n]*|\/\*.*?\*\/)+/gs, "") === "") return;
    if (text !== ";") statements.push(classify(text));
    start = at;
  };
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      const stop = source.indexOf("\n", i);
      i = stop === -1 ? source.length : stop;
      continue;
    }
    if (c === "/" && next === "*") {
      const stop = source.indexOf("*/", i + 2);
      i = stop === -1 ? source.length : stop + 2;
      continue;
    }
    if (c === '"' || c === "'") {
      i = skipString(source, i, c);
      last = c;
      continue;
    }
    if (c === "`" || (c === "}" && templates.at(-1) === depth)) {
      if (c === "}") templates.pop();
      const [stop, opened] = skipTemplate(source, i + 1);
      i = stop;
      if (opened) {
        templates.push(depth);
      }
      last = "`";
      continue;
    }
    if (c === "/" && /^$|[(,=:[!&|?{};+\-*%<>~^]$/.test(last)) {
      i = skipRegExp(source, i);
      last = "/";
      continue;
    }
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth = Math.max(0, depth - 1);
    if (depth === 0 && c === ";") {
      end(i + 1);
      last = ";";
      i++;
      continue;
    }
    if (depth === 0 && c === "\n" && !continues(last, source.slice(i + 1))) {
      end(i + 1);
      last = "";
      i++;
      continue;
    }
    if (!/\s/.test(c)) last = c;
    i++;
  }
  end(source.length);
  return statements;
}

/** Whether a line that ended on `last` is carried on by the text after it. */
function continues(last: string, rest: string): boolean {
  if (last === "") return false;
  if (/[=,([{+\-*/%&|^!~?:<>.]$/.test(last)) return true;
  const next = rest.replace(/^(\s|\/\/[^\n]*|\/\*.*?\*\/)*/s, "");
  return /^([.?:)\]},+\-*/%&|^=<>]|as\b|satisfies\b|else\b|catch\b|finally\b|extends\b|implements\b)/
    .test(next);
}

function skipString(source: string, from: number, quote: string): number {
  let i = from + 1;
  while (i < source.length && source[i] !== quote && source[i] !== "\n") {
    i += source[i] === "\\" ? 2 : 1;
  }
  return i + 1;
}

/** Past a template's text from `from`: where it stopped, and whether at a `${` (true) or its end. */
function skipTemplate(source: string, from: number): [number, boolean] {
  let i = from;
  while (i < source.length) {
    if (source[i] === "\\") i += 2;
    else if (source[i] === "`") return [i + 1, false];
    else if (source[i] === "$" && source[i + 1] === "{") return [i + 2, true];
    else i++;
  }
  return [i, false];
}

function skipRegExp(source: string, from: number): number {
  let i = from + 1;
  let inClass = false;
  while (i < source.length && source[i] !== "\n") {
    const c = source[i];
    if (c === "\\") i++;
    else if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    else if (c === "/" && !inClass) break;
    i++;
  }
  i++;
  while (i < source.length && /[a-z]/i.test(source[i])) i++;
  return i;
}

/** What a statement is, from its first words. */
function classify(text: string): Statement {
  const code = text.replace(/^(\s|\/\/[^\n]*|\/\*.*?\*\/)*/s, "");
  if (/^import\s*[\w${*"']/.test(code) && !/^import\s*\(/.test(code)) {
    return { text, kind: "import" };
  }
  const found = code.match(DECLARATION);
  if (found === null) return { text, kind: "other" };
  const word = code.slice(0, found[0].length - found[3].length).replace(
    /^(export\s+)?(declare\s+)?/,
    "",
  ).trim();
  const kind = word.includes("function")
    ? "function"
    : word.includes("class")
    ? "class"
    : ["const", "let", "var"].includes(word)
    ? word as "const" | "let" | "var"
    : "type";
  // `const { a, b } = ...` declares no one simple name: DECLARATION never matches it.
  return { text, kind, name: found[3] };
}

/** A cell as the module takes it: its id, its source, and whether the learner added it. */
export interface ModuleCell {
  id: string;
  source: string;
  /** A cell the course does not have: only its imports and declarations are kept. */
  added?: boolean;
}

/**
 * `cells` as one module's text, in their order, as the kernel runs them: a
 * name declared again in a later cell is assigned there instead (and an
 * earlier `const` of it becomes a `let`), and a cell the learner added keeps
 * its imports and its declarations, but for a `const`, `let` or `var` that
 * awaits or touches `Deno` (work the notebook does, not a helper).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const text = kernelModule([
 *   { id: "a", source: "const encoder = new TextEncoder();\nfunction f() { return encoder; }" },
 *   { id: "b", source: "const encoder: TextEncoder = new TextEncoder();" },
 *   { id: "mine", added: true, source: "function helper() { return 1; }\nawait Deno.mkdir('x');" },
 * ]);
 * assert.match(text, /^let encoder = new TextEncoder\(\);$/m);
 * assert.match(text, /^encoder = new TextEncoder\(\);$/m);
 * assert.match(text, /function helper\(\)/);
 * assert.doesNotMatch(text, /Deno\.mkdir/);
 * ```
 */
export function kernelModule(cells: readonly ModuleCell[]): string {
  const parts = cells.map((cell) => {
    const statements = topLevelStatements(cell.source);
    return {
      cell,
      statements: cell.added ? statements.filter(keptFromAddedCell) : statements,
    };
  });
  const declared = new Map<string, number>();
  for (const { statements } of parts) {
    for (const statement of statements) {
      if (statement.name !== undefined && statement.kind !== "type") {
        declared.set(statement.name, (declared.get(statement.name) ?? 0) + 1);
      }
    }
  }
  const seen = new Set<string>();
  return parts.map(({ cell, statements }) => {
    const again = statements.some((s) =>
      s.name !== undefined && s.kind !== "type" && (declared.get(s.name) ?? 0) > 1
    );
    if (!again && !cell.added) return `// cell ${cell.id}\n${cell.source}`;
    const text = statements.map((statement) => {
      const { name, kind } = statement;
      if (name === undefined || kind === "type" || (declared.get(name) ?? 0) < 2) {
        return statement.text;
      }
      if (!seen.has(name)) {
        seen.add(name);
        const [lead, code] = leadingComments(statement.text);
        return kind === "const"
          ? lead + code.replace(/^(export\s+)?const\b/, "let")
          : statement.text;
      }
      return assignment(statement);
    });
    return `// cell ${cell.id}${cell.added ? " (added by the learner)" : ""}\n${text.join("\n")}`;
  }).join("\n\n");
}

/** Whether a statement of a cell the learner added is kept: an import, or a declaration. */
function keptFromAddedCell(statement: Statement): boolean {
  if (statement.kind === "import") return true;
  if (statement.kind === "other") return false;
  if (["const", "let", "var"].includes(statement.kind)) {
    return !/\bawait\b|\bDeno\s*\./.test(statement.text);
  }
  return true;
}

/** A declaration of a name declared before, as an assignment to it. */
function assignment(statement: Statement): string {
  const { kind, name } = statement;
  const [lead, text] = leadingComments(statement.text);
  const code = text.replace(/^(?:export\s+)?(?:declare\s+)?/, "");
  if (kind === "function" || kind === "class") {
    return `${lead}${name} = ${code.replace(/;?\s*$/, "")};`;
  }
  // const NAME[: TYPE] = VALUE  →  NAME = VALUE
  const head = (code.match(/^(const|let|var)\s+/)?.[0].length ?? 0) + name!.length;
  const equals = initializerAt(code, head);
  return equals === -1 ? lead : `${lead}${name} = ${code.slice(equals + 1).trim()}`;
}

/** A statement's leading comments (and white space), and the rest. */
function leadingComments(text: string): [string, string] {
  const lead = text.match(/^(\s|\/\/[^\n]*|\/\*.*?\*\/)*/s)![0];
  return [lead, text.slice(lead.length)];
}

/** Where the `=` of a declaration's initializer is, past its type annotation; -1 when none. */
function initializerAt(code: string, from: number): number {
  let depth = 0;
  for (let i = from; i < code.length; i++) {
    const c = code[i];
    if ("([{<".includes(c)) depth++;
    else if (")]}".includes(c) || (c === ">" && code[i - 1] !== "=")) {
      depth = Math.max(0, depth - 1);
    } else if (
      c === "=" && depth === 0 && code[i + 1] !== ">" && code[i + 1] !== "=" &&
      !"=!<>".includes(code[i - 1])
    ) {
      return i;
    }
  }
  return -1;
}
