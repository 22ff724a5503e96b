// Servers the interop tests start over Streamable HTTP: a port nobody listens
// on yet, a program started to listen there (waited for until it answers), and
// a server on the official TypeScript SDK 1.x's StreamableHTTPServerTransport.

// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/streamableHttp"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { z } from "zod";
import { assertProcessGone } from "./_helpers.ts";

/** A port on 127.0.0.1 nobody listens on yet. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  listener.close();
  return port;
}

/**
 * Start `command`, an HTTP server on `port`, and wait (at most 60 s) until
 * `/mcp` answers; disposing of it ends it, and asserts that it has ended.
 */
export async function listeningServer(command: string[], port: number) {
  const child = new Deno.Command(command[0], {
    args: command.slice(1),
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  try {
    for (const deadline = Date.now() + 60_000;;) {
      const answered = await fetch(url, { method: "GET" }).then(async (response) => {
        await response.body?.cancel();
        return true;
      }, () => false);
      if (answered) break;
      assert.ok(Date.now() < deadline, `${command.join(" ")} did not listen within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (error) {
    child.kill("SIGTERM");
    await child.status;
    throw new Error(`The server did not start: ${await stderr}`, { cause: error });
  }
  return {
    url,
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.status;
      await stderr;
      assertProcessGone(child.pid);
    },
  };
}

/**
 * A server on the SDK 1.x's `StreamableHTTPServerTransport`, with sessions,
 * offering `add({a, b})`: its URL, its transport, and a way to end it.
 */
export async function sdkV1HttpServer() {
  const server = new McpServer({ name: "sdk-http", version: "1.0.0" });
  server.registerTool("add", {
    description: "Add two integers.",
    inputSchema: { a: z.number().int(), b: z.number().int() },
  }, ({ a, b }) => ({ content: [{ type: "text" as const, text: String(a + b) }] }));
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => crypto.randomUUID(),
  });
  await server.connect(transport);
  const http = createServer((request, response) => void transport.handleRequest(request, response));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as { port: number };
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    transport,
    async [Symbol.asyncDispose]() {
      await server.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
