import assert from "node:assert/strict";
import { lab02FileChecks, readReferences } from "./lab_02_files.ts";

const references = await readReferences();
const reference = references.modern;
const results = (changes: Record<string, unknown> = {}) =>
  JSON.stringify({
    tools_discovered: 4,
    calls_made: 4,
    calls_failed: 0,
    transcript_path: "transcript.txt",
    ...changes,
  });
const problems = async (transcript: string | undefined, saved: string | undefined) =>
  Object.fromEntries(
    (await lab02FileChecks({ transcript, results: saved }, references)).map((check) => [
      check.name,
      check.problems,
    ]),
  );

Deno.test("missing files are named, and a hand-written results.json cannot agree with nothing", async () => {
  assert.deepEqual(await problems(undefined, undefined), {
    transcript: ["there is no transcript.txt"],
    results: ["there is no results.json"],
  });
  assert.deepEqual((await problems(undefined, results())).results, [
    "results.json names a transcript that cannot be read",
  ]);
});

Deno.test("a transcript that is not the canonical flow, or not a transcript, fails", async () => {
  const short = reference.trimEnd().split("\n").slice(0, -2).join("\n");
  assert.match((await problems(short, results())).transcript[0], /not the canonical flow/);
  assert.match((await problems("hello\n", results())).transcript[0], /cannot be read/);
});

Deno.test("the client's lines must be the reference's; the server's may be worded otherwise", async () => {
  const named = reference.replace('"name":"lab-02-client"', '"name":"my-client"');
  assert.match((await problems(named, results())).transcript[0], /differs from the reference's/);
  const ownServer = reference.replaceAll('"name":"grammar"', '"name":"my-grammar"');
  assert.deepEqual((await problems(ownServer, results())).transcript, []);
});

Deno.test("results.json must match its schema and agree with the transcript", async () => {
  assert.match(
    (await problems(reference, results({ calls_made: "4" }))).results[0],
    /must be integer/,
  );
  assert.deepEqual((await problems(reference, results({ calls_failed: 1 }))).results, [
    "results.json says calls_failed 1; the transcript's failed calls number 0",
  ]);
  const failing = reference.replace(
    '"content":[{"type":"text","text":"ate"}],"isError":false',
    '"content":[{"type":"text","text":"no"}],"isError":true',
  );
  assert.deepEqual((await problems(failing, results({ calls_failed: 1 }))).results, []);
});

Deno.test("a transcript of the handshake era is held to the legacy reference, a cancelled probe's line aside", async () => {
  assert.deepEqual(await problems(references.legacy, results()), { transcript: [], results: [] });
  const named = references.legacy.replace('"name":"lab-02-client"', '"name":"my-client"');
  assert.match((await problems(named, results())).transcript[0], /differs from the reference's/);
  // A server silent to the probe: no reply to it, a cancellation, then the same handshake.
  const lines = references.legacy.split("\n");
  const silent = [
    lines[0],
    '> {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0,"reason":"no reply within 5000 ms"}}',
    ...lines.slice(2),
  ].join("\n");
  assert.deepEqual(await problems(silent, results()), { transcript: [], results: [] });
  // The modern flow held to the modern reference: a handshake's lines would not do.
  const handshake = references.modern.replace(
    '"method":"tools/list","params":{"_meta"',
    '"method":"tools/list","params":{"x_meta"',
  );
  assert.match(
    (await problems(handshake, results())).transcript[0],
    /differs from the reference's/,
  );
});
