// What Deno's permission flags let a course server touch. The client contains
// a server's processes (its process group); the flags on the server's command
// contain what those processes may do. A probe put in the server's place, with
// the very flags the course starts it with, shows what is allowed; and taking
// away any one flag breaks the real server, so the flags are the narrowest
// that work.

import assert from "node:assert/strict";
import { Client } from "../lib/mcp/client/client.ts";
import { deliveryCommand, freshLog, serverCommand } from "../lib/course/course.ts";
import { ProtocolError } from "../lib/mcp/shared/errors.ts";
import { assertGroupGone } from "./_helpers.ts";
import { fileURLToPath } from "node:url";

const PROBE = fileURLToPath(new URL("./fixtures/permission_probe.ts", import.meta.url));

/** `command` with its server script (the part ending in `script`) swapped for the probe. */
function probing(command: string[], script: string): string[] {
  const at = command.findIndex((part) => part.endsWith(script));
  assert.notEqual(at, -1, `no ${script} in ${command.join(" ")}`);
  return command.with(at, PROBE);
}

/** Run the probe as `command` and return what it was allowed to do. */
async function probe(command: string[]): Promise<Record<string, string>> {
  const [program, ...args] = command;
  const { success, stdout, stderr } = await new Deno.Command(program, {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(success, new TextDecoder().decode(stderr));
  return JSON.parse(new TextDecoder().decode(stdout));
}

/** Every attempt the probe makes refused, except those in `allowed`. */
function onlyAllowed(...allowed: string[]): Record<string, string> {
  const attempts = [
    "append to its log",
    "write its grandchild's pid file",
    "write another file beside its log",
    "write in /tmp",
    "read its own log",
    "read /etc/passwd",
    "read the course's code",
    "read an environment variable",
    "run sleep",
    "run sh",
    "open a network connection",
    "read system information",
    "load a native library",
  ];
  return Object.fromEntries(
    attempts.map((attempt) => [attempt, allowed.includes(attempt) ? "allowed" : "refused"]),
  );
}

Deno.test("with every permission, the probe can do all it tries", async () => {
  const log = await freshLog("test-probe-all");
  const command = [Deno.execPath(), "run", "--no-config", "--quiet", "--allow-all", PROBE];
  const outcomes = await probe([...command, "--log", log]);
  assert.deepEqual(outcomes, Object.fromEntries(Object.keys(outcomes).map((k) => [k, "allowed"])));
  assert.deepEqual(Object.keys(outcomes), Object.keys(onlyAllowed()));
});

Deno.test("a teaching server may append to its log, and nothing else", async () => {
  const log = await freshLog("test-probe-normal");
  const outcomes = await probe(probing(serverCommand("normal", log), "servers/teaching.ts"));
  assert.deepEqual(outcomes, onlyAllowed("append to its log"));
});

Deno.test("a lingering teaching server may also write its pid file and run sleep", async () => {
  const log = await freshLog("test-probe-lingering");
  const outcomes = await probe(probing(serverCommand("lingering", log), "servers/teaching.ts"));
  assert.deepEqual(
    outcomes,
    onlyAllowed("append to its log", "write its grandchild's pid file", "run sleep"),
  );
});

Deno.test("the delivery server may append to its log, and nothing else", async () => {
  const log = await freshLog("test-probe-delivery");
  const outcomes = await probe(probing(deliveryCommand(log), "servers/delivery.ts"));
  assert.deepEqual(outcomes, onlyAllowed("append to its log"));
});

/**
 * Start `command` with a careful client: the server must exit with code 1 (a
 * `ProtocolError` for the client) and say `says` on stderr.
 */
async function refusedToStart(command: string[], says: RegExp): Promise<void> {
  const client = new Client(command, { timeoutMs: 60_000 });
  try {
    await assert.rejects(client.initialize(), (error: Error) => {
      assert.ok(error instanceof ProtocolError, `${error}`);
      assert.match(error.message, /The server exited with status 1/);
      return true;
    });
    assert.match(client.stderrLines().join("\n"), says);
  } finally {
    await client.close();
  }
  assertGroupGone(client.pid);
}

Deno.test("without any one of its flags, each course server fails to start", async (t) => {
  await t.step("teaching, without --allow-write", async () => {
    const log = await freshLog("test-narrow-normal");
    const command = serverCommand("normal", log).filter((part) => part !== `--allow-write=${log}`);
    await refusedToStart(command, /Requires write access/);
  });
  await t.step("lingering, allowed to write its log only", async () => {
    const log = await freshLog("test-narrow-lingering-write");
    const command = serverCommand("lingering", log)
      .map((part) => part.startsWith("--allow-write=") ? `--allow-write=${log}` : part);
    // It started its grandchild before it failed: close() ends that one too.
    await refusedToStart(command, /Requires write access to ".*\.grandchild"/);
  });
  await t.step("lingering, without --allow-run=sleep", async () => {
    const log = await freshLog("test-narrow-lingering-run");
    const command = serverCommand("lingering", log).filter((part) => part !== "--allow-run=sleep");
    await refusedToStart(command, /Requires run access to "sleep"/);
  });
  await t.step("delivery, without --allow-write", async () => {
    const log = await freshLog("test-narrow-delivery");
    const command = deliveryCommand(log).filter((part) => part !== `--allow-write=${log}`);
    await refusedToStart(command, /Requires write access/);
  });
});
