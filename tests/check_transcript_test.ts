// The instructors' transcript check (`tools/check_transcript.ts`): each
// reference matches itself, a learner's transcript is held to the reference of
// the era its probe found, one that differs is told where, and a path that
// cannot be read is named, each with its exit status.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("../tools/check_transcript.ts", import.meta.url));
const reference = fileURLToPath(new URL("../cases/lab_02_transcript.txt", import.meta.url));
const legacy = fileURLToPath(new URL("../cases/lab_02_transcript_legacy.txt", import.meta.url));

async function check(...paths: string[]) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", script, ...paths],
    env: { NO_COLOR: "1" },
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code, out: decode(stdout), err: decode(stderr) };
}

Deno.test("each reference transcript matches itself, today's with its white space changed", async () => {
  const spaced = await Deno.makeTempFile({ suffix: ".txt" });
  const text = await Deno.readTextFile(reference);
  // Each message laid out with spaces between its tokens, and a blank line after each.
  const loose = text.trimEnd().split("\n").map((line) =>
    `${line[0]}  ${JSON.stringify(JSON.parse(line.slice(2)), null, 1).replaceAll("\n", " ")}\n\n`
  );
  await Deno.writeTextFile(spaced, loose.join(""));
  try {
    const { code, out } = await check(reference, spaced, legacy);
    assert.equal(code, 0);
    assert.equal(out.match(/matches the reference/g)?.length, 3);
  } finally {
    await Deno.remove(spaced);
  }
});

Deno.test("a transcript that differs is told where, and one that cannot be read is named", async () => {
  const mine = await Deno.makeTempFile({ suffix: ".txt" });
  const text = await Deno.readTextFile(reference);
  await Deno.writeTextFile(mine, text.replace('"name":"lab-02-client"', '"name":"my-client"'));
  try {
    const differs = await check(mine);
    assert.equal(differs.code, 1);
    assert.match(
      differs.out,
      /line 1 \(> server\/discover\): params\._meta\["io\.modelcontextprotocol\/clientInfo"\]\.name: expected "lab-02-client", observed "my-client"/,
    );
    const missing = await check(`${mine}.absent`);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /\.absent: No such file/);
  } finally {
    await Deno.remove(mine);
  }
});

Deno.test("a handshake transcript is held to the legacy reference, not today's", async () => {
  const mine = await Deno.makeTempFile({ suffix: ".txt" });
  const text = await Deno.readTextFile(legacy);
  await Deno.writeTextFile(
    mine,
    text.replace('"protocolVersion":"2025-06-18"', '"protocolVersion":"2024-11-05"'),
  );
  try {
    const { code, out } = await check(mine);
    assert.equal(code, 1);
    assert.match(
      out,
      /line 3 \(> initialize\): params\.protocolVersion: expected "2025-06-18", observed "2024-11-05"/,
    );
  } finally {
    await Deno.remove(mine);
  }
});
