/**
 * The learner's stdio loop, judged in the notebook's own process before any
 * server is started: bytes in (as a stream that delivers them in chosen
 * pieces), reply lines out. Each case says how the bytes arrive; the replies
 * are compared in the shape Lab 01's cases use.
 *
 * @module
 */

import { line, NO_REPLY, replyShape } from "../../cases/lab_01.ts";
import { type GradeCase, type GradeRow, judge, threwOutcome } from "../grading/grading.ts";
import { captureStderr } from "../notebook/stdout_capture.ts";

/** A stdio loop: reads frames from `input` until it ends, writes a line for each reply. */
export type ServeStdio = (
  input: ReadableStream<Uint8Array>,
  output: WritableStream<Uint8Array>,
) => Promise<void>;

const ping = (id: number) => line("ping", undefined, id);
const pong = (id: number) => ({ jsonrpc: "2.0", id, result: {} });
const ANO = new TextEncoder().encode(line("ping", undefined, "año") + "\n");
/** Between the two bytes of the "ñ" in the id "año". */
const INSIDE_N = ANO.indexOf(0xc3) + 1;

/**
 * The cases: each `args[0]` is the pieces the bytes arrive in (text, or bytes
 * where a piece must end inside a character); the expected replies, in order.
 */
export const STDIO_CASES: readonly GradeCase[] = [
  { label: "one request in one piece", args: [[`${ping(1)}\n`]], expected: [pong(1)] },
  {
    label: "a request split across two reads",
    args: [[ping(1).slice(0, 9), `${ping(1).slice(9)}\n`]],
    expected: [pong(1)],
  },
  {
    label: "two requests in one read",
    args: [[`${ping(1)}\n${ping(2)}\n`]],
    expected: [pong(1), pong(2)],
  },
  {
    label: "a notification between two requests",
    args: [[`${ping(1)}\n${line("notifications/initialized")}\n${ping(2)}\n`]],
    expected: [pong(1), pong(2)],
  },
  {
    label: 'a read that ends inside the "ñ" of the id "año"',
    args: [[ANO.slice(0, INSIDE_N), ANO.slice(INSIDE_N)]],
    expected: [{ jsonrpc: "2.0", id: "año", result: {} }],
  },
  { label: "nothing at all", args: [[]], expected: [] },
];

/**
 * Run `serve` on each of {@linkcode STDIO_CASES} and grade what it wrote: a
 * row per case, `UNFINISHED` while it throws `NotImplementedError`. A loop
 * that does not return within `timeoutMs` of its input ending fails.
 *
 * What the loop writes on stderr is its server's log ("input ended,
 * exiting"), which Lab 02's client shows when the server runs as a process;
 * here, in the notebook's own process, it would be shown as the notebook's
 * errors, in red. It is kept back, and a case that fails ends its message
 * with it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NotImplementedError } from "../grading/not_implemented.ts";
 *
 * const starter = () => Promise.reject(new NotImplementedError("serveStdio"));
 * const rows = await gradeStdioLoop(starter);
 * assert.ok(rows.every((row) => row.status === "UNFINISHED"));
 * ```
 *
 * @example A loop's log is kept back, and shown with a case it fails
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const silentAndDeaf = async (input: ReadableStream<Uint8Array>) => {
 *   for await (const _ of input);
 *   console.error("input ended, exiting");
 * };
 * const rows = await gradeStdioLoop(silentAndDeaf);
 * assert.equal(rows.at(-1)!.status, "PASS"); // "nothing at all" owes no reply
 * assert.equal(rows.at(-1)!.message, "");
 * assert.equal(rows[0].status, "FAIL");
 * assert.equal(rows[0].message, 'it wrote on stderr: "input ended, exiting\\n"');
 * ```
 */
export async function gradeStdioLoop(serve: ServeStdio, timeoutMs = 2000): Promise<GradeRow[]> {
  const rows: GradeRow[] = [];
  for (const testCase of STDIO_CASES) {
    const pieces = testCase.args[0] as (string | Uint8Array)[];
    const written: Uint8Array[] = [];
    const output = new WritableStream<Uint8Array>({
      write: (chunk) => void written.push(chunk.slice()),
    });
    let outcome;
    const stop = captureStderr();
    let logged = "";
    try {
      const input = ReadableStream.from(
        pieces.map((piece) => typeof piece === "string" ? new TextEncoder().encode(piece) : piece),
      );
      const finished = serve(input, output).then(() => "returned" as const);
      const late = new Promise<"late">((done) => setTimeout(() => done("late"), timeoutMs));
      if (await Promise.race([finished, late]) === "late") {
        throw new Error(`the loop did not return within ${timeoutMs} ms of its input ending`);
      }
      const text = new TextDecoder().decode(concat(written));
      const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
      if (text !== "" && !text.endsWith("\n")) throw new Error("the last reply has no newline");
      outcome = { returned: lines.map((reply) => replyShape(reply)).filter((r) => r !== NO_REPLY) };
    } catch (error) {
      outcome = threwOutcome(error);
    } finally {
      logged = stop();
    }
    const row = judge(testCase, outcome);
    if (row.status === "FAIL" && logged !== "") {
      row.message = [row.message, `it wrote on stderr: ${JSON.stringify(logged.slice(0, 200))}`]
        .filter(Boolean).join("; ");
    }
    rows.push(row);
  }
  return rows;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.length, 0));
  chunks.reduce((at, chunk) => (joined.set(chunk, at), at + chunk.length), 0);
  return joined;
}
