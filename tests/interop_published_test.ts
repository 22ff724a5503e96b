// The careful client beside the official SDK's client, against every tool,
// resource and prompt of the three published servers (tests/published_servers.ts,
// which README.md's table shows): each client makes the same calls to a
// server of its own, and each comes out as the table says. Where both
// answer, their answers are the same, item for item (or, where a clock is in
// them, kind for kind); where they differ, the table says why.

import assert from "node:assert/strict";
import { templateVariables } from "../lib/mcp/server/resource.ts";
import { cachePinnedPackages } from "./_interop.ts";
import { runPeers } from "./_published_peers.ts";
import { describeCall, PUBLISHED_SERVERS } from "./published_servers.ts";

for (const server of PUBLISHED_SERVERS) {
  Deno.test(`server-${server.name}: the careful client beside the SDK's, call by call`, async (t) => {
    await t.step("the pinned packages are in the cache", cachePinnedPackages);
    const { observed, listed } = await runPeers(server);

    await t.step("both clients list the same tools, resources, templates and prompts", () => {
      assert.deepEqual(listed.differences, []);
    });

    await t.step("every one of them is called, read or got", () => {
      const calls = server.steps.map((step) => step.call);
      const called = new Set(calls.flatMap((call) => "tool" in call ? [call.tool] : []));
      const read = calls.flatMap((call) => "read" in call ? [call.read] : []);
      const got = new Set(calls.flatMap((call) => "prompt" in call ? [call.prompt] : []));
      assert.deepEqual(
        [...listed.tools].filter((name) => !called.has(name)),
        [],
        "tools not called",
      );
      assert.deepEqual(
        [...listed.resources].filter((uri) => !read.includes(uri)),
        [],
        "resources not read",
      );
      const unread = [...listed.templates].filter((template) =>
        !read.some((uri) => templateVariables(template, uri) !== undefined)
      );
      assert.deepEqual(unread, [], "templates none of whose resources was read");
      assert.deepEqual([...listed.prompts].filter((name) => !got.has(name)), [], "prompts not got");
    });

    for (const seen of observed) {
      const { step } = seen;
      await t.step(describeCall(step.call), () => {
        const context = `the careful client said: ${seen.said}\nthe SDK's: ${seen.sdkSaid}`;
        assert.equal(seen.course, step.course, context);
        assert.equal(seen.sdk, step.sdk, context);
        if (step.says !== undefined) assert.match(seen.said ?? "", step.says);
        assert.equal(seen.text, step.text, "what callTool makes of the same result");
        assert.equal(seen.mismatch, undefined);
        // A difference is named and justified, and only a difference.
        assert.equal(
          step.why !== undefined,
          step.course !== step.sdk,
          "why, exactly when they differ",
        );
      });
    }
  });
}
