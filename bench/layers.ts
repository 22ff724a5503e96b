// Where a round trip's time goes in the library: the client's CPU per call as
// the layers are added one at a time, from the bare loop to the Client. Not a
// row of `deno task bench`: an investigation, kept so that it can be repeated.
// It is steadiest with the client and its server on one core:
//
//     taskset -c 1 deno task bench:layers [--smoke]

import { Connection } from "../lib/mcp/client/connection.ts";
import { readFrames } from "../lib/mcp/shared/framing.ts";
import { parseMessage } from "../lib/mcp/shared/jsonrpc.ts";
import {
  bareLoop,
  clientSession,
  ECHO,
  echoRequest,
  measureSessions,
  medians,
  type Session,
  startEcho,
  TEXT,
} from "./_sessions.ts";
import { textTable } from "./table.ts";

/** The layers, each doing what the one before it does and more; the last is for comparison. */
const LAYERS: Record<string, () => Promise<Session>> = {
  "bare loop, one reused buffer": () => Promise.resolve(bareLoop({ reuse: true })),
  "+ readFrames, parseMessage": () => Promise.resolve(framesAndParse()),
  "+ Connection: ids, deadline, queue": connection,
  "+ Client: allowlist, schemas, result checks": () => clientSession(ECHO, "echo", TEXT),
  "(bare loop, default reader)": () => Promise.resolve(bareLoop({ reuse: false })),
};

/** readFrames over the server's stdout, each frame parsed; the call ends at its reply. */
function framesAndParse(): Session {
  const child = startEcho();
  const writer = child.stdin.getWriter();
  let answered = () => {};
  const reading = (async () => {
    for await (const frames of readFrames(child.stdout)) {
      for (const frame of frames) parseMessage(frame);
      answered();
    }
  })();
  return {
    call: (id) =>
      new Promise((resolve) => {
        answered = resolve;
        writer.write(echoRequest(id)).catch(() => {});
      }),
    async close() {
      await writer.close();
      await reading;
      await child.status;
    },
  };
}

/** The Connection under the Client: `tools/call` requests, without the Client's checks. */
async function connection(): Promise<Session> {
  const connection = new Connection(ECHO);
  await connection.request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "bench", version: "1.0.0" },
  });
  const params = { name: "echo", arguments: { text: TEXT } };
  return {
    call: async () => void await connection.request("tools/call", params),
    close: async () => void await connection.close(),
  };
}

if (import.meta.main) {
  const smoke = Deno.args.includes("--smoke");
  const { rates, cpuUs } = await measureSessions(
    LAYERS,
    smoke ? { calls: 50, warmup: 10, rounds: 1 } : { calls: 20_000, warmup: 1000, rounds: 7 },
  );
  const [rate, cpu] = [medians(rates), medians(cpuUs)];
  const rows = Object.keys(LAYERS).map((layer, i, layers) => {
    const added = i === 0 || layer.startsWith("(")
      ? ""
      : (cpu[layer] - cpu[layers[i - 1]]).toFixed(1);
    return [layer, cpu[layer].toFixed(1), added, Math.round(rate[layer]).toLocaleString("en-US")];
  });
  const headings = ["layer", "client CPU µs/call", "added", "calls/s"];
  console.log(textTable([headings, ...rows], { rightAligned: [1, 2, 3] }));
}
