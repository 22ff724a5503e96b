// Round 15 of the red team: a peer of the other protocol era against the
// course's client and servers, where round 14 left off. A 2026-07-28 stdio
// server (the TypeScript SDK's v2 server, tests/fixtures/round15_crash_peer.ts)
// that exits in the middle of a call: the call fails by name at once and is
// not sent again (it had its effect), the old process group is gone, and the
// next request starts the server again, as 2026-07-28's stdio transport says
// a client SHOULD ("Because the protocol is stateless, any in-flight requests
// are simply lost"); a legacy server, whose session ended with it, is not.

import { Client as SdkClient } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import assert from "node:assert/strict";
import { Client } from "../../lib/mcp/client/client.ts";
import { ProtocolError } from "../../lib/mcp/shared/errors.ts";
import { MCP_VERSIONS } from "../../lib/mcp/shared/versions.ts";
import { assertGroupGone } from "../_helpers.ts";
import { type PeerEra, sdkV2Peer } from "../_peers.ts";

/** The round 15 peer of `era` that exits in `crash`, recording each run of it in `log`. */
function crashPeer(era: PeerEra, log: string): string[] {
  const command = sdkV2Peer(era, undefined, "round15_crash_peer.ts");
  command.splice(command.indexOf("--quiet"), 0, `--allow-write=${log}`);
  return [...command, log];
}

/** The runs of `crash` that `log` records, one line each. */
const crashes = (log: string) => Deno.readTextFileSync(log).split("\n").filter(Boolean);

Deno.test("a 2026-07-28 stdio server that exits in the middle of a call: the call fails by name and is not sent again; the next request starts the server again", async (t) => {
  for (const era of ["modern", "dual"] as const) {
    await t.step(era, async () => {
      const log = await Deno.makeTempFile();
      const client = new Client(crashPeer(era, log), {
        versions: MCP_VERSIONS,
        allowed: ["crash", "pid"],
        timeoutMs: 20_000,
      });
      const pids: number[] = [];
      try {
        await client.initialize();
        assert.equal(client.protocolVersion, "2026-07-28");
        await client.listTools();
        pids.push(client.pid);
        assert.equal(await client.callTool("pid"), String(pids[0]));
        await assert.rejects(
          client.callTool("crash"),
          (error: unknown) =>
            error instanceof ProtocolError && /exited with status 3/.test(error.message),
        );
        assert.deepEqual(crashes(log), [`crash ${pids[0]}`], "the call that exited was sent again");
        const answered = await client.callTool("pid");
        pids.push(client.pid);
        assert.notEqual(pids[1], pids[0], "the server was not started again");
        assert.equal(answered, String(pids[1]));
        assertGroupGone(pids[0]);
      } finally {
        await client.close();
        await Deno.remove(log);
      }
      for (const pid of pids) assertGroupGone(pid);
    });
  }
  await t.step("a legacy server is not started again: its session ended with it", async () => {
    const log = await Deno.makeTempFile();
    const client = new Client(crashPeer("2025-11-25", log), { allowed: ["crash", "pid"] });
    try {
      await client.initialize();
      await client.listTools();
      const exited = (error: unknown) =>
        error instanceof ProtocolError && /exited with status 3/.test(error.message);
      await assert.rejects(client.callTool("crash"), exited);
      await assert.rejects(client.callTool("pid"), exited);
      assert.equal(crashes(log).length, 1);
    } finally {
      await client.close();
      await Deno.remove(log);
    }
    assertGroupGone(client.pid);
  });
  await t.step("the SDK v2 client, auto, also loses the call and sends it no more", async () => {
    const log = await Deno.makeTempFile();
    const [command, ...args] = crashPeer("modern", log);
    const client = new SdkClient({ name: "v2", version: "2.4.0" }, {
      versionNegotiation: { mode: "auto" },
    });
    try {
      await client.connect(new StdioClientTransport({ command, args, stderr: "ignore" }));
      await assert.rejects(client.callTool({ name: "crash", arguments: {} }), /closed/i);
      assert.equal(crashes(log).length, 1);
    } finally {
      await client.close();
      await Deno.remove(log);
    }
  });
});
