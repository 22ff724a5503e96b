/**
 * Graded functions a learner copied from the library rather than wrote: a
 * block of the learner's code whose form (`code_form.ts`: formatting, names
 * and quotes aside) is the body of the library's own copy of a graded
 * function, readable (`lib/`) or sealed (its `.sealed.js`, all the learners'
 * release holds), or that shares most of that body's fingerprints
 * (winnowing, `tools/similarity/winnow.ts`: a copy with statements added,
 * reordered or renamed). The function it is the copy of scores 0, with a
 * line saying why, wherever in the learner's code the copy is (its own cell,
 * a helper it calls, a cell the learner added). A seal carried in a form no
 * token can show (encoded, then evaluated, or obfuscated again) is found by
 * what it does instead: its watermark answers the grader's probes
 * (`watermark.ts`).
 *
 * @module
 */

import { blockForms, bodyTokens, form, type Token, tokens } from "./code_form.ts";
import { type Fingerprint, fingerprints, hashSimilarity } from "../similarity/winnow.ts";
import { sealedPath, STARTER_HUSK } from "./library_copies.ts";
import type { UnitSpec } from "./spec.ts";

const ROOT = new URL("../../", import.meta.url);

/**
 * The fewest tokens a readable copy's body must have to be judged by its
 * form: a shorter one (the allowlist's one line) says no more than the rule
 * the unit states in words, and a learner's own may well be the same. A
 * sealed copy's body is judged whatever its length: nobody writes it so.
 */
const READABLE_MIN_TOKENS = 40;

/**
 * How similar (winnowing's, from 0 to 1) a block of a learner's code must be
 * to a library copy's body to be taken for a copy of it. The catalogue's
 * honest answers score at most 0.11 against a seal, and at most 0.79 against
 * a readable copy (the worked answerFor, which is the library's own way):
 * a readable copy is judged so only when it is this close.
 */
const SIMILAR = { sealed: 0.65, readable: 0.9 };
/** The fewest fingerprints a library copy's body needs to be judged by them. */
const MIN_PRINTS = 4;

/** One library copy of a graded function: what it is, its body's form, and its fingerprints. */
export interface LibraryCopy {
  what: string;
  form: string;
  prints: Fingerprint[];
  sealed: boolean;
  /** Its body's statements' forms ({@linkcode pieceForms}). @default {none: judged by form and fingerprints only} */
  pieces?: string[];
}

/** For each graded function of a unit, its library copies. */
export type CopyForms = Map<string, LibraryCopy[]>;

/**
 * The forms of the library copies of `spec`'s graded functions, from the
 * readable and sealed files this copy of the course holds: the body of each
 * function a graded function names as its `library` copy, and every block of
 * {@linkcode READABLE_MIN_TOKENS} tokens or more (a function's, a method's, a
 * branch's) of each module it names in `libraryModules`. Throws `Error` when
 * a module of `libraryModules` is not there: the check would be silently off.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * const forms = await copyForms(UNITS.get("ch14-a")!);
 * assert.ok(forms.get("answerFor")!.some((copy) => copy.what === "answerFor, sealed"));
 * const mask = await copyForms(UNITS.get("lab-03")!);
 * assert.ok(mask.get("prefixStatus")!.some((copy) => copy.what === "lib/mask/byte_dfa.ts, readable"));
 * ```
 */
export async function copyForms(spec: UnitSpec): Promise<CopyForms> {
  const forms: CopyForms = new Map();
  for (const fn of spec.functions) {
    const found: LibraryCopy[] = [];
    for (const { file, name } of fn.library ?? []) {
      for (const [path, sealed] of [[file, false], [sealedPath(file), true]] as const) {
        let text: string;
        try {
          text = await Deno.readTextFile(new URL(path, ROOT));
        } catch (error) {
          if (error instanceof Deno.errors.NotFound) continue;
          throw error;
        }
        // The learners' release's husk of a copy is the unit's starter, which every learner starts from.
        if (text.startsWith(STARTER_HUSK)) continue;
        const body = bodyTokens(text, name);
        if (body === undefined) continue;
        const bodyForm = form(body);
        if (!sealed && bodyForm.split(" ").length < READABLE_MIN_TOKENS) continue;
        const what = `${name}, ${sealed ? "sealed" : "readable"}`;
        found.push({
          what,
          form: bodyForm,
          prints: fingerprints(withoutNoOps(body)),
          sealed,
          pieces: [...pieceForms(body)],
        });
      }
    }
    for (const file of fn.libraryModules ?? []) found.push(...await moduleCopies(file));
    if (found.length > 0) forms.set(fn.name, found);
  }
  return forms;
}

/** The blocks of each readable module, as copies: read once a process, as the files do not change. */
const MODULES = new Map<string, Promise<LibraryCopy[]>>();

/** Every block of {@linkcode READABLE_MIN_TOKENS} tokens or more of the module `file`, each a readable copy. */
function moduleCopies(file: string): Promise<LibraryCopy[]> {
  let copies = MODULES.get(file);
  if (copies === undefined) {
    copies = Deno.readTextFile(new URL(file, ROOT)).then((text) =>
      blocks(withoutNoOps(tokens(text)), READABLE_MIN_TOKENS).map((block) => ({
        what: `${file}, readable`,
        form: form(block),
        prints: fingerprints(block),
        pieces: [...pieceForms(block)],
        sealed: false,
      }))
    );
    MODULES.set(file, copies);
  }
  return copies;
}

/**
 * For each graded function whose library copy is in `source` (the learner's
 * module), by form or by most of its fingerprints, what was found
 * (`"answerFor, sealed"`; past three, how many more); functions with none
 * are left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bodyTokens, form } from "./code_form.ts";
 * import { fingerprints } from "../similarity/winnow.ts";
 *
 * const library = "function twice(a) {\n  const b = a * 2;\n  const c = [a, b, a + b, 'x'];\n  return c.map((v) => v + 1).filter((v) => v > 2);\n}";
 * const body = bodyTokens(library, "twice")!;
 * const copy = { what: "twice, sealed", form: form(body), prints: fingerprints(body), sealed: true };
 * const forms = new Map([["twice", [copy]]]);
 * const pasted = library.replace("twice(a)", "mine(q)").replaceAll("a", "q").replace("return", "const unused = 1;\n  return");
 * assert.deepEqual(copiedFunctions(pasted, forms), { twice: ["twice, sealed"] });
 * assert.deepEqual(copiedFunctions("function mine(q) { return q; }", forms), {});
 * ```
 */
export function copiedFunctions(source: string, forms: CopyForms): Record<string, string[]> {
  const list = tokens(source);
  const whole = blockForms(source);
  const printed = blocks(withoutNoOps(list), 0).map((block) =>
    new Set(fingerprints(block).map((f) => f.hash))
  );
  const pieced = blocks(list, 0).map(pieceForms);
  const judged = new Map<LibraryCopy, boolean>();
  const isCopy = (copy: LibraryCopy): boolean => {
    let copied = judged.get(copy);
    if (copied === undefined) {
      const hashes = new Set(copy.prints.map((print) => print.hash));
      const least = SIMILAR[copy.sealed ? "sealed" : "readable"];
      copied = whole.has(copy.form) ||
        (hashes.size >= MIN_PRINTS && printed.some((block) =>
          // Sets of sizes far apart cannot be this similar: most pairs need no count.
          2 * Math.min(block.size, hashes.size) >= least * (block.size + hashes.size) &&
          hashSimilarity(block, hashes) >= least
        )) ||
        ((copy.pieces?.length ?? 0) >= MIN_PIECES &&
          pieced.some((pieces) => contained(copy.pieces!, pieces) >= least));
      judged.set(copy, copied);
    }
    return copied;
  };
  const copied: Record<string, string[]> = {};
  for (const [fn, copies] of forms) {
    const found = [...new Set(copies.filter(isCopy).map((copy) => copy.what))];
    // A bundle holds many modules: three of them say enough.
    if (found.length > 3) found.splice(3, Infinity, `${found.length - 3} more of its modules`);
    if (found.length > 0) copied[fn] = found;
  }
  return copied;
}

/** The fewest tokens a statement (or a line of one) needs to be one of a copy's pieces: shorter ones are anyone's. */
const PIECE_TOKENS = 6;
/** The fewest pieces a library copy's body needs to be judged by them. */
const MIN_PIECES = 8;

/**
 * The forms of the statements of `block` (its braces left out), each cut at a `;`, `{` or `}`
 * and at a line's end, those of {@linkcode PIECE_TOKENS} tokens or more. A copy with statements
 * put between the library's (a dead declaration, a counter: round 22 of the red team) shares
 * none of winnowing's runs that cross a statement's end, but holds every statement of the
 * library's, each whole: it is judged by the share of the library's pieces it holds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tokens } from "./code_form.ts";
 *
 * const library = pieceForms(tokens("{\n  const total = items.length + extra;\n  if (total > limit) {\n}"));
 * const padded = pieceForms(tokens("{\n  const t = items.length + extra\n  let d = 0\n  if (t > lim) {\n}"));
 * assert.deepEqual([...library].filter((piece) => !padded.has(piece)), []);
 * ```
 */
export function pieceForms(block: readonly Token[]): Set<string> {
  const found = new Set<string>();
  let piece: Token[] = [];
  const end = () => {
    if (piece.length >= PIECE_TOKENS) found.add(form(piece));
    piece = [];
  };
  const inner = block.slice(1, -1);
  inner.forEach((token, index) => {
    piece.push(token);
    const next = inner[index + 1];
    if (
      (token.kind === "punct" && ";{}".includes(token.text)) ||
      (next !== undefined && next.line !== undefined && token.line !== undefined &&
        next.line !== token.line)
    ) end();
  });
  end();
  return found;
}

/** The share of `pieces` that `found` holds. */
const contained = (pieces: readonly string[], found: ReadonlySet<string>) =>
  pieces.filter((piece) => found.has(piece)).length / pieces.length;

/** Words of the language a statement of one word cannot be left out as doing nothing: `break;` does something. */
const STATEMENT_WORDS = new Set(["break", "continue", "debugger", "return", "this", "super"]);

/**
 * `list` without the statements that do nothing, on both sides of a comparison: an empty one
 * (`;` after a statement's end or a block's start), and one that is a lone value, perhaps
 * after `void` and between parentheses (`void 1;`, `(0);`, `"x";`, `x;`). Round 22 of the red
 * team: a copy of every module of Lab 03's mask with `void 1;` after each statement kept
 * none of the fingerprints it shared (a run of eight tokens crosses a statement's end), and
 * was taken for no copy; `const` made `let` did not hide it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tokens } from "./code_form.ts";
 *
 * const texts = (source: string) => withoutNoOps(tokens(source)).map((token) => token.text);
 * assert.deepEqual(texts("a = 1;void 1;\nb(); (0); ;break;"), texts("a = 1;\nb();break;"));
 * assert.deepEqual(texts("return x;"), ["return", "x", ";"]);
 * ```
 */
export function withoutNoOps(list: readonly Token[]): Token[] {
  const kept: Token[] = [];
  const startsStatement = () => {
    const last = kept.at(-1);
    return last === undefined || (last.kind === "punct" && ";{}".includes(last.text));
  };
  let index = 0;
  while (index < list.length) {
    if (startsStatement()) {
      if (list[index].kind === "punct" && list[index].text === ";") {
        index++;
        continue;
      }
      let at = index;
      if (list[at]?.kind === "name" && list[at].text === "void") at++;
      let open = 0;
      while (list[at]?.kind === "punct" && list[at].text === "(") open++, at++;
      const value = list[at];
      const lone = value !== undefined &&
        (value.kind === "literal" || (value.kind === "name" && !STATEMENT_WORDS.has(value.text) &&
          !["void", "let", "const", "var", "throw", "yield", "await"].includes(value.text)));
      if (lone) {
        at++;
        let closed = 0;
        while (closed < open && list[at]?.kind === "punct" && list[at].text === ")") closed++, at++;
        if (closed === open && list[at]?.kind === "punct" && list[at].text === ";") {
          index = at + 1;
          continue;
        }
      }
    }
    kept.push(list[index]);
    index++;
  }
  return kept;
}

/** The tokens of every block (`{` to its `}`) of `list` with at least `least` tokens, inner ones first. */
function blocks(list: readonly Token[], least: number): Token[][] {
  const found: Token[][] = [];
  const open: number[] = [];
  for (let index = 0; index < list.length; index++) {
    if (list[index].kind !== "punct") continue;
    if (list[index].text === "{") open.push(index);
    else if (list[index].text === "}" && open.length > 0) {
      const start = open.pop()!;
      if (index - start + 1 >= least) found.push(list.slice(start, index + 1));
    }
  }
  return found;
}
