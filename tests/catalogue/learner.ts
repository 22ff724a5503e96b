// What a catalogue holds, for the data modules beside this one.

/** A graded function's implementations, as learners' modules, by what they show. */
export interface Catalogue {
  unit: string;
  fn: string;
  /** Correct implementations, each by its style. */
  right: Record<string, string>;
  /** Wrong implementations, each by the misconception it shows. */
  wrong: Record<string, string>;
}

/** The import a learner's module writes to use `ProtocolError` (the library sits at ../lib/). */
export const USES_PROTOCOL_ERROR = 'import { ProtocolError } from "../lib/mcp/shared/errors.ts";';
