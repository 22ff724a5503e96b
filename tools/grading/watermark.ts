/**
 * The seals' watermark: how a graded function that runs a seal of the
 * library, in whatever form the learner carried it (encoded, then evaluated
 * or imported from a `data:` URL), is found by what it does. `deno task
 * seal` puts a check at the start of each sealed graded function: given
 * the probe, a BigInt (no JSON message, and so no graded function's
 * contract, carries one) as any argument, it throws an `Error` whose message
 * is the token and the function's name. The grader calls each graded
 * function that has library copies once more with the probe in every
 * argument, after its hidden cases, in the same realm; a reply that holds the
 * token scores the function 0 (`grade_learner.ts`). An honest function
 * cannot answer so: the token is in no argument. The probe and the token are
 * kept with the hidden cases (`watermark.json` in their folder), which the learners'
 * release does not hold; there, nothing is probed.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import type { GradedCase, GradedFunction } from "./spec.ts";

/** The probe the grader sends, and the token only a seal answers it with. */
export interface Watermark {
  /** A BigInt, in decimal. */
  probe: string;
  /** Letters no argument holds, which a seal's answer to the probe starts with. */
  token: string;
}

const WATERMARK = new URL("../../holdouts/watermark.json", import.meta.url);

/** A watermark file that is there but does not hold a probe and a token. */
export class WatermarkError extends Error {
  override name = "WatermarkError";
}

/**
 * The watermark, or `undefined` when this copy of the course has none (the
 * learners' release). Throws {@linkcode WatermarkError} when the file is not
 * a probe and a token.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const watermark = await loadWatermark();
 * assert.ok(watermark === undefined || BigInt(watermark.probe) < 0n);
 * ```
 */
export async function loadWatermark(): Promise<Watermark | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(WATERMARK);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  const { probe, token } = JSON.parse(text);
  if (
    typeof probe !== "string" || !/^-\d{30,}$/.test(probe) ||
    typeof token !== "string" || !/^[0-9a-f]{32}$/.test(token)
  ) {
    throw new WatermarkError(
      `${
        fileURLToPath(WATERMARK)
      } must hold a probe (a negative BigInt of 30 digits or more, in decimal) and a token (32 hex digits)`,
    );
  }
  return { probe, token };
}

/**
 * The probe case of `fn`, with as many arguments as its cases take, each the
 * probe; none for a function without library copies or run by a driver, or
 * without a `watermark`. It is never a mark: its result carries only
 * whether, and whose, watermark answered ({@linkcode watermarkIn}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UNITS } from "./units/mod.ts";
 *
 * const [answerFor] = UNITS.get("ch14-a")!.functions;
 * const [probe] = probeCases(answerFor, { probe: "-1234", token: "ab" });
 * assert.deepEqual(probe.args, [-1234n, -1234n]);
 * assert.equal(probe.probe, "ab");
 * ```
 */
export function probeCases(fn: GradedFunction, watermark: Watermark | undefined): GradedCase[] {
  if (watermark === undefined || !fn.library?.length || fn.driver !== undefined) return [];
  const arity = Math.max(1, ...fn.cases.map((testCase) => testCase.args.length));
  return [{
    label: "the seals' watermark probe",
    args: Array.from({ length: arity }, () => BigInt(watermark.probe)),
    expected: null,
    hidden: true,
    probe: watermark.token,
  }];
}

/**
 * The names of the library functions whose watermark `reply` (what a probe
 * case came to: returned or thrown, anywhere in it) holds, for `token`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const reply = { threw: "ProtocolError", message: "wrapped: ab answerFor" };
 * assert.deepEqual(watermarkIn(reply, "ab"), ["answerFor"]);
 * assert.deepEqual(watermarkIn({ returned: [-1234n, "ab"] }, "ab"), []);
 * ```
 */
export function watermarkIn(reply: unknown, token: string): string[] {
  const found = new Set<string>();
  const mark = new RegExp(`${token} ([A-Za-z_$][\\w$]*)`, "g");
  const seen = new Set<unknown>();
  const walk = (value: unknown) => {
    if (typeof value === "string") {
      for (const [, name] of value.matchAll(mark)) found.add(name);
    } else if (typeof value === "object" && value !== null && !seen.has(value)) {
      seen.add(value);
      for (const item of value instanceof Map ? value.entries() : Object.values(value)) walk(item);
    }
  };
  walk(reply);
  return [...found].sort();
}

/**
 * `code` (a bundled library module) with the watermark's check at the start
 * of each function of `names`: any argument that is the probe makes it throw
 * an `Error` whose message is the token and the function's name. A function
 * that reads a stream (its first parameter) checks what flows through it too,
 * so that a seal reached through a wrapper that turns the probe into bytes
 * (Lab 04's `sseData` over the SSE reader) answers as well. Throws `Error`
 * when `code` declares no function of one of the names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const code = "function twice(n, { by = 2 } = {}) {\n  return n * by;\n}\nexport { twice };\n";
 * const marked = watermarked(code, ["twice"], { probe: "-1234", token: "ab" });
 * const { twice } = await import(`data:text/javascript,${encodeURIComponent(marked)}`);
 * assert.equal(twice(3), 6);
 * assert.throws(() => twice(-1234n), { message: "ab twice" });
 * ```
 *
 * @example A stream that carries the probe
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const code = "async function size(stream) {\n  return (await new Response(stream).text()).length;\n}\nexport { size };\n";
 * const { size } = await import(`data:text/javascript,${encodeURIComponent(watermarked(code, ["size"], { probe: "-1234", token: "ab" }))}`);
 * const streamOf = (text: string) => ReadableStream.from([new TextEncoder().encode(text)]);
 * assert.equal(await size(streamOf("data: 1")), 7);
 * await assert.rejects(size(streamOf(String(-1234n))), { message: "ab size" });
 * ```
 */
export function watermarked(code: string, names: readonly string[], watermark: Watermark): string {
  let marked = code;
  for (const name of names) {
    const declaration = new RegExp(`(^|[;{}\\s])(async )?function(\\* ?| )${name}\\(`, "m");
    const found = declaration.exec(marked);
    if (found === null) throw new Error(`the bundle declares no function ${name} to watermark`);
    // The body opens at the first `{` after the parameters' closing parenthesis.
    let depth = 0;
    const params = found.index + found[0].length;
    let at = params - 1;
    do {
      if (marked[at] === "(") depth++;
      else if (marked[at] === ")") depth--;
      at++;
    } while (depth > 0);
    const open = marked.indexOf("{", at) + 1;
    const message = JSON.stringify(`${watermark.token} ${name}`);
    const probe = JSON.stringify(watermark.probe);
    let check = `for (const __arg of arguments) if (typeof __arg === "bigint" && ` +
      `String(__arg) === ${probe}) throw new Error(${message});`;
    const first = marked.slice(params, at - 1).split(/[,=]/)[0].trim();
    if (/^[A-Za-z_$][\w$]*$/.test(first)) {
      check += ` if (${first} instanceof ReadableStream) ${first} = ${first}.pipeThrough(` +
        `new TransformStream({ transform(chunk, controller) { if (new TextDecoder()` +
        `.decode(chunk).includes(${probe})) throw new Error(${message}); ` +
        `controller.enqueue(chunk); } }));`;
    }
    marked = `${marked.slice(0, open)}\n  ${check}${marked.slice(open)}`;
  }
  return marked;
}
