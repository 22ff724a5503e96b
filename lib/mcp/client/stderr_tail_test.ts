import assert from "node:assert/strict";
import { StderrTail } from "./stderr_tail.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("StderrTail keeps the last lines, across chunk boundaries", () => {
  const tail = new StderrTail({ lines: 3 });
  for (const chunk of ["fir", "st\nsec", "ond\nthird\nfou", "rth\n"]) tail.push(bytes(chunk));
  assert.deepEqual(tail.lines(), ["second", "third", "fourth"]);
});

Deno.test("StderrTail stays small whatever arrives", () => {
  const tail = new StderrTail({ lines: 2, width: 10 });
  for (let i = 0; i < 1000; i++) tail.push(bytes("y".repeat(10_000)));
  assert.deepEqual(tail.lines(), ["y".repeat(10) + "…"]);
  tail.push(bytes("\n" + "line\n".repeat(10_000)));
  assert.deepEqual(tail.lines(), ["line", "line"]);
});

Deno.test("StderrTail decodes characters split across chunks", () => {
  const tail = new StderrTail();
  const encoded = bytes("comió\n");
  tail.push(encoded.subarray(0, 4));
  tail.push(encoded.subarray(4));
  assert.deepEqual(tail.lines(), ["comió"]);
});

Deno.test("StderrTail hands each complete line to onLine", () => {
  const seen: string[] = [];
  const tail = new StderrTail({ onLine: (line) => seen.push(`[server] ${line}`) });
  tail.push(bytes("ready\nlistening\npart"));
  assert.deepEqual(seen, ["[server] ready", "[server] listening"]);
});
