// The course's client against servers written with the TypeScript SDK's v2
// package (`@modelcontextprotocol/server` 2.4.0), held to each era as the
// SDK sets one up (fixtures/sdk_v2_peer.ts): both eras (its default entries),
// 2026-07-28 alone, and each handshake version alone; over stdio and
// Streamable HTTP. The dual-era client agrees on the newest version both
// speak; a client of one era is refused by a server of the other, having
// sent only its own era's opening. Each session's answers are checked (word
// counts, structured results, a tool's failure, and a tool that asks the
// user and the model: by multi round-trip requests at 2026-07-28, by the
// server's own requests in a handshake session from 2025-06-18, never before)
// and so is its wire (tests/_era_wire.ts).

import assert from "node:assert/strict";
import type { SamplingAnswer } from "../lib/mcp/client/sampling.ts";
import { LEGACY_VERSIONS, MCP_VERSIONS, MODERN_VERSIONS } from "../lib/mcp/shared/versions.ts";
import { crowdedSession, peerSession, refusedSession } from "./_peer_sessions.ts";
import { freePort, listeningServer } from "./_listening.ts";
import { LEGACY, type PeerEra, sdkV2Peer } from "./_peers.ts";

/** Whether `ask` can reach the user at `version` over a channel the server can ask on. */
const asks = (version: string) => version >= "2025-06-18";

Deno.test("the course's client speaks each era of the SDK v2 server over stdio", async (t) => {
  await t.step("both eras: 2026-07-28, by multi round-trip requests", async () => {
    await peerSession(sdkV2Peer("dual"), MCP_VERSIONS, { version: "2026-07-28", asks: true });
  });
  await t.step("2026-07-28 alone", async () => {
    await peerSession(sdkV2Peer("modern"), MCP_VERSIONS, { version: "2026-07-28", asks: true });
  });
  for (const era of LEGACY) {
    await t.step(`${era} alone: the handshake, after the probe`, async () => {
      await peerSession(sdkV2Peer(era), MCP_VERSIONS, { version: era as never, asks: asks(era) });
    });
  }
  await t.step("at 2024-11-05, a question the server takes back is not answered", async () => {
    // The SDK's shim asks the model beside the user; when the user's question fails
    // (2024-11-05 has no elicitation), it cancels the model's. A model that takes its
    // time hears of it, and its answer is never sent (the judge of the wire would see it).
    const stopped: boolean[] = [];
    const model = (_request: unknown, options?: { signal: AbortSignal }) =>
      new Promise<SamplingAnswer>((resolve, reject) => {
        const signal = options!.signal;
        // Its answer, if no one stops it first: sent, it would fail the test.
        const answer = setTimeout(
          () => resolve({ text: "Hello", model: "slow", stopReason: "endTurn" }),
          10_000,
        );
        signal.addEventListener("abort", () => {
          clearTimeout(answer);
          stopped.push(true);
          reject(signal.reason);
        });
      });
    await peerSession(sdkV2Peer("2024-11-05"), MCP_VERSIONS, {
      version: "2024-11-05",
      asks: false,
      model,
    });
    assert.deepEqual(stopped, [true]);
  });
  await t.step("eight calls, four in flight, in each era", async () => {
    await crowdedSession(sdkV2Peer("dual"), MCP_VERSIONS, "2026-07-28");
    await crowdedSession(sdkV2Peer("2025-11-25"), MCP_VERSIONS, "2025-11-25");
  });
  await t.step("a client of the handshake alone with a dual-era server: 2025-11-25", async () => {
    await peerSession(sdkV2Peer("dual"), LEGACY_VERSIONS, { version: "2025-11-25", asks: true });
  });
  await t.step("a client of the handshake alone is refused by 2026-07-28 alone", async () => {
    await refusedSession(sdkV2Peer("modern"), LEGACY_VERSIONS, /-32022|2026-07-28/);
  });
  await t.step("a client of 2026-07-28 alone is refused by a handshake server", async () => {
    await refusedSession(sdkV2Peer("2025-11-25"), MODERN_VERSIONS, /not a modern one/);
  });
});

Deno.test("the course's client speaks each era of the SDK v2 server over Streamable HTTP", async (t) => {
  const eras: PeerEra[] = ["dual", "modern", ...LEGACY];
  const servers = new Map<PeerEra, Awaited<ReturnType<typeof listeningServer>>>();
  try {
    // Each server starts once, all at once, and serves every session of its era.
    await Promise.all(eras.map(async (era) => {
      const port = freePort();
      servers.set(era, await listeningServer(sdkV2Peer(era, port), port));
    }));
    const url = (era: PeerEra) => servers.get(era)!.url;
    await t.step("both eras: 2026-07-28, by multi round-trip requests", async () => {
      await peerSession(url("dual"), MCP_VERSIONS, { version: "2026-07-28", asks: true });
    });
    await t.step("2026-07-28 alone", async () => {
      await peerSession(url("modern"), MCP_VERSIONS, { version: "2026-07-28", asks: true });
    });
    for (const era of LEGACY) {
      await t.step(`${era} alone, in a session: the handshake, after the probe`, async () => {
        await peerSession(url(era), MCP_VERSIONS, { version: era as never, asks: asks(era) });
      });
    }
    await t.step("eight calls, four in flight, in each era", async () => {
      await crowdedSession(url("dual"), MCP_VERSIONS, "2026-07-28");
      await crowdedSession(url("2025-11-25"), MCP_VERSIONS, "2025-11-25");
    });
    await t.step(
      "a client of the handshake alone with a dual-era server: 2025-11-25, served per request, so the server cannot ask",
      async () => {
        await peerSession(url("dual"), LEGACY_VERSIONS, { version: "2025-11-25", asks: false });
      },
    );
    await t.step("a client of the handshake alone is refused by 2026-07-28 alone", async () => {
      await refusedSession(url("modern"), LEGACY_VERSIONS, /-32022|2026-07-28/);
    });
    await t.step("a client of 2026-07-28 alone is refused by a handshake server", async () => {
      await refusedSession(url("2025-11-25"), MODERN_VERSIONS, /not a modern one/);
    });
  } finally {
    for (const server of servers.values()) await server[Symbol.asyncDispose]();
  }
});
