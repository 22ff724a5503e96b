// A server writes 200 MB without a newline in reply to a call. The client must
// refuse it once 64 KiB have arrived, and its memory must stay flat while the
// rest of the flood is drained and the server is ended.
//
//     deno task bench:flood
//
// Prints the client's resident memory before, at its peak, and the growth,
// and the time from sending the call to its refusal.

import { Client } from "../lib/client.ts";
import { fixtureCommand } from "../tests/_helpers.ts";

const MB = 1024 * 1024;
const rss = () => Deno.memoryUsage().rss;

// Warm up: the same code paths once, on a well-behaved server.
{
  await using warm = new Client(fixtureCommand("first-call-late"), { allowed: ["echo"] });
  await warm.initialize();
  await warm.listTools();
  await warm.callTool("echo", { text: "warm" });
}

const client = new Client(fixtureCommand("flood"), { allowed: ["echo"], graceMs: 1000 });
await client.initialize();
await client.listTools();
const baseline = rss();
let peak = baseline;
const sampler = setInterval(() => peak = Math.max(peak, rss()), 2);
const sent = performance.now();
const refusal = await client.callTool("echo", { text: "flood" }).then(
  () => "accepted (wrong!)",
  (error: Error) => `${error.name}: ${error.message}`,
);
const refusedAfter = performance.now() - sent;
const status = await client.close();
clearInterval(sampler);
peak = Math.max(peak, rss());

const growth = (peak - baseline) / MB;
console.log(`outcome:            ${refusal}`);
console.log(`refused after:      ${refusedAfter.toFixed(1)} ms from sending the call`);
console.log(`server ended by:    ${status.signal ?? `exit ${status.code}`}`);
console.log(
  `client rss:         ${(baseline / MB).toFixed(1)} MB before, ${
    (peak / MB).toFixed(1)
  } MB at peak`,
);
console.log(`growth:             ${growth.toFixed(1)} MB (target: under 8 MB)`);
Deno.exit(growth < 8 && refusal.startsWith("ProtocolError") ? 0 : 1);
