/**
 * The course's client acting as each client scenario of the official
 * conformance suite asks (it names the scenario in
 * `MCP_CONFORMANCE_SCENARIO`), over Streamable HTTP to the suite's server at
 * `URL`: the handshake, a tool call, a stream resumed after the server's
 * `retry`, an elicitation answered with its defaults, and the OAuth
 * authorization the `auth/*` scenarios demand before anything else. It exits 0 when the
 * scenario's work was done, 1 with the reason on stderr when it was not.
 *
 *     MCP_CONFORMANCE_SCENARIO=tools_call deno run --allow-net --allow-env tools/conformance_client.ts URL
 *
 * @module
 */

import { Client } from "../lib/mcp/client/client.ts";
import { HttpTransport } from "../lib/mcp/client/http_transport.ts";
import { OAuthAuthorization } from "../lib/mcp/client/oauth.ts";

/** What the client does in each scenario, by name. */
const SCENARIOS: Record<string, (url: URL) => Promise<void>> = {
  initialize: async (url) => {
    await using client = new Client(url);
    await client.initialize();
  },
  tools_call: async (url) => {
    await using client = new Client(url, { allowed: ["add_numbers"] });
    await client.initialize();
    await client.listTools();
    console.log(await client.callTool("add_numbers", { a: 2, b: 3 }));
  },
  // The server closes the call's event stream after a priming event that names `retry`:
  // the client resumes it with a GET (Last-Event-ID) after that long, and reads the reply there.
  "sse-retry": async (url) => {
    await using client = new Client(url, { allowed: ["test_reconnection"] });
    await client.initialize();
    await client.listTools();
    console.log(await client.callTool("test_reconnection"));
  },
  // The user accepts and types nothing: every field takes its schema's default.
  "elicitation-sep1034-client-defaults": async (url) => {
    const elicit = () => Promise.resolve({ action: "accept" as const, content: {} });
    await using client = new Client(url, { allowed: ["test_client_elicitation_defaults"], elicit });
    await client.initialize();
    await client.listTools();
    console.log(await client.callTool("test_client_elicitation_defaults"));
  },
};

/**
 * The client ID metadata document the `auth/*` scenarios expect a client to
 * name itself by, where the authorization server takes one.
 */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/**
 * The `auth/*` scenarios: every one authorizes, then lists and calls the
 * server's tool. Credentials the scenario hands over in
 * `MCP_CONFORMANCE_CONTEXT` (`client_id`, `client_secret`) are the client's
 * pre-registered ones.
 */
async function authorized(url: URL): Promise<void> {
  const context = JSON.parse(Deno.env.get("MCP_CONFORMANCE_CONTEXT") ?? "{}");
  const authorization = new OAuthAuthorization({
    authorize: followRedirect,
    allowHttp: true,
    clientMetadataUrl: CLIENT_METADATA_URL,
    ...(typeof context.client_id === "string"
      ? {
        preRegistered: {
          clientId: context.client_id,
          ...(typeof context.client_secret === "string"
            ? { clientSecret: context.client_secret }
            : {}),
        },
      }
      : {}),
  });
  await using client = new Client(new HttpTransport(url, { authorization }), {
    allowed: ["test-tool"],
  });
  await client.initialize();
  await client.listTools();
  console.log(await client.callTool("test-tool"));
}

/**
 * The user agent's part, with no user: ask for the authorization page and
 * take the redirect it answers with, which carries the code.
 */
async function followRedirect(url: URL): Promise<URL> {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel();
  const location = response.headers.get("location");
  if (response.status < 300 || response.status >= 400 || location === null) {
    throw new Error(`The authorization endpoint answered ${response.status}, not a redirect`);
  }
  return new URL(location, url);
}

if (import.meta.main) {
  const scenario = Deno.env.get("MCP_CONFORMANCE_SCENARIO") ?? "";
  const [target] = Deno.args;
  const run = scenario.startsWith("auth/") ? authorized : SCENARIOS[scenario];
  if (run === undefined || target === undefined) {
    console.error(
      `conformance client: usage: MCP_CONFORMANCE_SCENARIO=NAME conformance_client.ts URL; ` +
        `scenarios: ${[...Object.keys(SCENARIOS), "auth/*"].join(", ")}`,
    );
    Deno.exit(2);
  }
  try {
    await run(new URL(target));
  } catch (error) {
    console.error(
      `conformance client: ${scenario}: ${(error as Error).name}: ${(error as Error).message}`,
    );
    Deno.exit(1);
  }
}
