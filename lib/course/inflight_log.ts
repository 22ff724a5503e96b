/**
 * Lab 04's server's own account of a run (`servers/inflight.ts` writes it):
 * read back, and counted in turns. How long calls take on the clock depends
 * on how busy the machine is; which call began after which one ended does
 * not, so the lab's steps measure time in turns of the server's log.
 *
 * @module
 */

import type { JsonObject, RequestId } from "../mcp/shared/jsonrpc.ts";

/** One line of the server's log: a call received, a reply sent to one, or a cancellation. */
export type InflightEntry =
  | { id: RequestId; name: string; arguments: JsonObject }
  | { answered: RequestId }
  | { cancelled: RequestId | null };

/** The turns of a run, as {@linkcode turnsOf} counts them. */
export interface Turns {
  /** The most calls in one chain, each received after the one before it was answered. */
  turns: number;
  /** The most milliseconds asked for (`ms`) along any such chain: the run's length at the server's pace. */
  ms: number;
  /** The most calls the server held unanswered at once. */
  most: number;
}

/**
 * The entries of the log at `path`, in order. Throws `SyntaxError` naming
 * the line when one is not JSON.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, '{"id":0,"name":"slow_count","arguments":{"ms":100}}\n{"answered":0}\n');
 * assert.deepEqual(await inflightLog(path), [
 *   { id: 0, name: "slow_count", arguments: { ms: 100 } },
 *   { answered: 0 },
 * ]);
 * await Deno.remove(path);
 * ```
 */
export async function inflightLog(path: string): Promise<InflightEntry[]> {
  const lines = (await Deno.readTextFile(path)).split("\n").filter((line) => line !== "");
  return lines.map((line, index) => {
    try {
      return JSON.parse(line);
    } catch {
      throw new SyntaxError(`Line ${index + 1} of ${path} is not JSON`);
    }
  });
}

/**
 * Count a run in turns, from the order of its log alone: a call received
 * after another was answered waited for it (a bound on requests in flight
 * makes it so), one received before ran beside it. Each call counts the
 * milliseconds it asked for, however long the machine took to give them.
 *
 * @example Six calls of 100 ms, two at a time: three turns, 300 ms
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const call = (id: number) => ({ id, name: "slow_count", arguments: { text: "a", ms: 100 } });
 * const log = [
 *   call(0), call(1), { answered: 0 }, call(2), { answered: 1 }, call(3),
 *   { answered: 2 }, call(4), { answered: 3 }, call(5), { answered: 4 }, { answered: 5 },
 * ];
 * assert.deepEqual(turnsOf(log), { turns: 3, ms: 300, most: 2 });
 * ```
 */
export function turnsOf(entries: readonly InflightEntry[]): Turns {
  const chains = new Map<RequestId, { turns: number; ms: number }>();
  const done = { turns: 0, ms: 0 };
  let open = 0;
  let most = 0;
  for (const entry of entries) {
    if ("name" in entry) {
      const ms = typeof entry.arguments.ms === "number" ? entry.arguments.ms : 0;
      chains.set(entry.id, { turns: done.turns + 1, ms: done.ms + ms });
      most = Math.max(most, ++open);
    } else if ("answered" in entry) {
      const chain = chains.get(entry.answered);
      if (chain === undefined) continue;
      chains.delete(entry.answered);
      open--;
      done.turns = Math.max(done.turns, chain.turns);
      done.ms = Math.max(done.ms, chain.ms);
    }
  }
  return { ...done, most };
}
