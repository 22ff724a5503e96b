// A raw Streamable HTTP server for the tests: it answers each POSTed request
// with the result its method has in a table, as a legacy server that checks
// nothing would, and records the methods it received.

import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";

/**
 * POST `body` (as JSON) to a Streamable HTTP endpoint at `url`, with the
 * content type and `Accept` every MCP POST carries, `headers` besides, and
 * `signal` to abort it.
 */
export function postJson(
  url: URL,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
    signal,
  });
}

/** A raw legacy server at `version`: `initialize` answered with it and `capabilities`, and `results` by method. */
export function rawHttpServer(
  version: string,
  results: Record<string, object>,
  options: { capabilities?: JsonObject; otherwise?: () => Response } = {},
) {
  const methods: string[] = [];
  const answers: Record<string, object> = {
    initialize: {
      protocolVersion: version,
      capabilities: options.capabilities ?? { tools: {} },
      serverInfo: { name: "raw", version: "1" },
    },
    ...results,
  };
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    if (request.method !== "POST") return new Response(null, { status: 405 });
    const message = await request.json();
    methods.push(message.method);
    if (message.id === undefined) return new Response(null, { status: 202 });
    const result = answers[message.method];
    if (result === undefined && options.otherwise !== undefined) return options.otherwise();
    return Response.json({ jsonrpc: "2.0", id: message.id, result });
  });
  return {
    url: new URL(`http://127.0.0.1:${server.addr.port}/mcp`),
    methods,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** One request a {@linkcode recordingProxy} passed on. */
export interface Passed {
  method: string;
  headers: Headers;
  body?: JsonObject;
}

/**
 * A proxy in front of the MCP endpoint `target` that records each request
 * (its HTTP method, headers and JSON body) and passes it on, unless `tamper`
 * answers it instead; `close` is called when the proxy is disposed.
 */
export function recordingProxy(
  target: URL,
  options: {
    tamper?: (body: JsonObject, count: number) => Response | undefined;
    close?: () => Promise<void>;
  } = {},
) {
  const seen: Passed[] = [];
  const proxy = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    const text = request.method === "POST" ? await request.text() : undefined;
    const body = text === undefined ? undefined : JSON.parse(text);
    seen.push({ method: request.method, headers: request.headers, body });
    const tampered = body === undefined ? undefined : options.tamper?.(body, seen.length);
    if (tampered !== undefined) return tampered;
    const headers = new Headers(request.headers);
    headers.set("host", target.host);
    return await fetch(target, { method: request.method, headers, body: text, redirect: "manual" });
  });
  return {
    url: new URL(`http://127.0.0.1:${proxy.addr.port}/mcp`),
    seen,
    async [Symbol.asyncDispose]() {
      await proxy.shutdown();
      await options.close?.();
    },
  };
}
