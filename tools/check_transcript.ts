// `deno run --allow-read tools/check_transcript.ts TRANSCRIPT...`: compare
// each learner's Lab 02 transcript (their work/lab-02/transcript.txt) with the
// instructors' reference of the era its probe found (2026-07-28, or the
// handshake for a server of that era), as JSON line by line (white space and
// the order of keys do not count), and say where each differs. Exit status 0
// when every one matches, 1 when one differs, 2 when one cannot be read.

import { referenceTranscriptFor, transcriptDifferences } from "../lib/course/transcript_check.ts";

if (Deno.args.length === 0) {
  console.error("check_transcript: name one or more transcripts (work/lab-02/transcript.txt)");
  Deno.exit(2);
}
let status = 0;
for (const path of Deno.args) {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    console.error(`check_transcript: ${path}: ${(error as Error).message}`);
    status = 2;
    continue;
  }
  const reference = await Deno.readTextFile(referenceTranscriptFor(text));
  const differences = transcriptDifferences(text, reference);
  if (differences.length === 0) console.log(`${path}: matches the reference`);
  else {
    console.log(`${path}: ${differences.length} difference(s) from the reference`);
    for (const difference of differences) console.log(`  ${difference}`);
    status = Math.max(status, 1);
  }
}
Deno.exit(status);
