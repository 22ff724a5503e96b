/**
 * What the object grammar (`object_grammar.ts`) needs from the schema
 * compiler, and the most it tracks at once.
 *
 * @module
 */

import type { ByteDfa } from "./byte_dfa.ts";
import type { Frame, Reached } from "./schema_frame.ts";

/** What the object grammar needs from the schema compiler. */
export interface ValueCompiler {
  /** The automaton of a value that satisfies every one of `conjuncts` (none: any value), at `frame`. */
  at(conjuncts: Reached[], frame: Frame, path: string): ByteDfa;
  /** The same, of objects only. */
  objectsAt(conjuncts: Reached[], frame: Frame, path: string): ByteDfa;
  /** Schemas with their `$ref`s followed and `allOf` spread; unsupported keywords refused. */
  flatten(entries: Reached[], path: string): Reached[];
  /** The automaton of a JSON string other than these (a key not declared). */
  keyDfa(excluded: string[]): ByteDfa;
}

/** The most atoms (names, value tests, other names) the grammar tracks at once. */
export const MAX_TRACKED = 14;
