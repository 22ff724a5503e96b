/**
 * The grammar tools of Labs 01 and 02: four tools over English verbs, one of
 * them answering in Spanish. Pure functions and data, with no access to
 * anything outside: the reference server, the learner's server and the
 * autograder's sandbox all use them as they are.
 *
 * The verb enum is the whole vocabulary, but `conjugate` knows only this
 * unit's verbs: `run` passes the schema and is still refused by the tool, with
 * an outcome that has `isError: true`.
 *
 * @module
 */

import type { JsonObject } from "../mcp/shared/jsonrpc.ts";
import type { ServerTool } from "../mcp/server/tool.ts";

/** A verb's forms, as in a row of {@linkcode TABLE}. */
interface Verb {
  third: string;
  past: string;
  participle: string;
  irregular: boolean;
  spanish: string;
  spanishThird: string;
  spanishPast: string;
}

/**
 * The vocabulary, one verb a row: base form, third person singular, past,
 * past participle, irregular, then the Spanish infinitive, third person
 * present and third person preterite. Every verb here passes the schemas.
 */
const TABLE: [string, string, string, string, boolean, string, string, string][] = [
  ["be", "is", "was", "been", true, "ser", "es", "fue"],
  ["eat", "eats", "ate", "eaten", true, "comer", "come", "comió"],
  ["go", "goes", "went", "gone", true, "ir", "va", "fue"],
  ["have", "has", "had", "had", true, "tener", "tiene", "tuvo"],
  ["run", "runs", "ran", "run", true, "correr", "corre", "corrió"],
  ["see", "sees", "saw", "seen", true, "ver", "ve", "vio"],
  ["speak", "speaks", "spoke", "spoken", true, "hablar", "habla", "habló"],
  ["walk", "walks", "walked", "walked", false, "caminar", "camina", "caminó"],
  ["write", "writes", "wrote", "written", true, "escribir", "escribe", "escribió"],
];

const VOCABULARY: Record<string, Verb> = Object.fromEntries(
  TABLE.map(([base, third, past, participle, irregular, spanish, spanishThird, spanishPast]) => [
    base,
    { third, past, participle, irregular, spanish, spanishThird, spanishPast },
  ]),
);

/** The verbs `conjugate` covers in this unit; the rest of the vocabulary is outside its scope. */
const UNIT_VERBS = ["be", "eat", "go", "have", "see", "speak", "walk", "write"];

const VERBS = Object.keys(VOCABULARY);
const TENSES = ["present_simple", "past_simple", "present_perfect", "future_simple"];
const PERSONS = ["1sg", "2sg", "3sg", "1pl", "2pl", "3pl"];
const SUBJECTS: Record<string, string> = {
  I: "1sg",
  you: "2sg",
  he: "3sg",
  she: "3sg",
  it: "3sg",
  we: "1pl",
  they: "3pl",
};

/** The form of the vocabulary verb `base` in `tense` for `person`. */
function formOf(base: string, tense: string, person: string): string {
  const forms = VOCABULARY[base];
  const third = person === "3sg";
  if (base === "be" && tense === "present_simple") {
    return person === "1sg" ? "am" : third ? "is" : "are";
  }
  if (base === "be" && tense === "past_simple") {
    return person === "1sg" || third ? "was" : "were";
  }
  switch (tense) {
    case "present_simple":
      return third ? forms.third : base;
    case "past_simple":
      return forms.past;
    case "present_perfect":
      return `${third ? "has" : "have"} ${forms.participle}`;
    default:
      return `will ${base}`;
  }
}

/** Every English form the Spanish lookup knows, to its Spanish equivalent. */
const SPANISH = new Map<string, string>(
  Object.entries(VOCABULARY).flatMap(([base, forms]) => [
    [base, forms.spanish],
    [forms.third, forms.spanishThird],
    [forms.past, forms.spanishPast],
  ]),
);

/** Which verb an English form belongs to, and whether it is a present or a past form. */
function identify(form: string): { base: string; kind: "present" | "past" } | undefined {
  for (const [base, forms] of Object.entries(VOCABULARY)) {
    if (form === base || form === forms.third) return { base, kind: "present" };
    if (form === forms.past) return { base, kind: "past" };
  }
  if (["am", "is", "are"].includes(form)) return { base: "be", kind: "present" };
  if (["was", "were"].includes(form)) return { base: "be", kind: "past" };
  return undefined;
}

const json = (value: JsonObject) => ({ text: JSON.stringify(value) });

/**
 * The four tools, in the order `tools/list` gives them. Each `call` expects
 * arguments that already match its `inputSchema`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const conjugate = GRAMMAR_TOOLS.find((tool) => tool.name === "conjugate")!;
 * assert.deepEqual(conjugate.call({ verb: "eat", tense: "past_simple", person: "3sg" }), {
 *   text: "ate",
 * });
 * assert.equal(conjugate.call({ verb: "run", tense: "past_simple", person: "3sg" }).isError, true);
 * ```
 */
export const GRAMMAR_TOOLS: readonly ServerTool[] = [
  {
    name: "conjugate",
    description: "Conjugate a verb of this unit (every vocabulary verb but `run`) in a tense " +
      "and person. Answers with the verb form as plain text, such as `ate`.",
    inputSchema: {
      type: "object",
      properties: {
        verb: { type: "string", enum: VERBS, description: "The verb's base form." },
        tense: { type: "string", enum: TENSES },
        person: { type: "string", enum: PERSONS, description: "Such as 3sg (he, she, it)." },
      },
      required: ["verb", "tense", "person"],
      additionalProperties: false,
    },
    call: ({ verb, tense, person }) =>
      UNIT_VERBS.includes(String(verb))
        ? { text: formOf(String(verb), String(tense), String(person)) }
        : { text: `conjugate: ${verb} is outside this unit's verbs`, isError: true },
  },
  {
    name: "lookup_spanish",
    description: "The Spanish for an English verb form: a base form gives the infinitive, " +
      "a third-person form the third person (ate gives comió). Answers with plain text.",
    inputSchema: {
      type: "object",
      properties: {
        english_form: { type: "string", minLength: 1, description: "Such as ate or goes." },
      },
      required: ["english_form"],
      additionalProperties: false,
    },
    call: ({ english_form }) => {
      const spanish = SPANISH.get(String(english_form));
      return spanish === undefined
        ? { text: `lookup_spanish: no entry for ${english_form}`, isError: true }
        : { text: spanish };
    },
  },
  {
    name: "lookup_irregular_verb",
    description: "A verb's principal parts and whether it is irregular, as a JSON object.",
    inputSchema: {
      type: "object",
      properties: { verb: { type: "string", enum: VERBS } },
      required: ["verb"],
      additionalProperties: false,
    },
    call: ({ verb }) => {
      const forms = VOCABULARY[String(verb)];
      return forms === undefined
        ? { text: `lookup_irregular_verb: ${verb} is not in the vocabulary`, isError: true }
        : json({
          verb: String(verb),
          irregular: forms.irregular,
          past_simple: forms.past,
          past_participle: forms.participle,
        });
    },
  },
  {
    name: "check_subject_verb_agreement",
    description: "Whether a subject pronoun agrees with a simple verb form (he goes, not " +
      "he go), as a JSON object with the form that agrees.",
    inputSchema: {
      type: "object",
      properties: {
        subject: { type: "string", enum: Object.keys(SUBJECTS) },
        verb_form: { type: "string", minLength: 1, description: "Such as go, goes or went." },
      },
      required: ["subject", "verb_form"],
      additionalProperties: false,
    },
    call: ({ subject, verb_form }) => {
      const person = SUBJECTS[String(subject)];
      const found = identify(String(verb_form));
      if (person === undefined || found === undefined) {
        return {
          text: `check_subject_verb_agreement: cannot read ${subject} ${verb_form}`,
          isError: true,
        };
      }
      const tense = found.kind === "present" ? "present_simple" : "past_simple";
      const expected = formOf(found.base, tense, person);
      return json({
        subject: String(subject),
        verb_form: String(verb_form),
        agrees: verb_form === expected,
        expected,
      });
    },
  },
];
