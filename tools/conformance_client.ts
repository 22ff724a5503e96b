/**
 * The course's client acting as each client scenario of the official
 * conformance suite asks (it names the scenario in
 * `MCP_CONFORMANCE_SCENARIO`, and the version it judges in
 * `MCP_CONFORMANCE_PROTOCOL_VERSION`), over Streamable HTTP to the suite's
 * server at `URL`: connecting (the handshake, or at 2026-07-28 the probe and
 * per-request `_meta`), tool calls, a stream resumed after the server's
 * `retry`, an elicitation answered with its defaults, multi round-trip
 * calls, headers mirrored from arguments, and the OAuth authorization the
 * `auth/*` scenarios demand before anything else. It exits 0 when the
 * scenario's work was done (for the scenarios whose right outcome is a
 * refusal, {@linkcode REFUSALS}, when the client refused), 1 with the
 * reason on stderr when it was not.
 *
 *     MCP_CONFORMANCE_SCENARIO=tools_call deno run --allow-net --allow-env tools/conformance_client.ts URL
 *
 * @module
 */

import { Client, type Tool } from "../lib/mcp/client/client.ts";
import type { ClientOptions } from "../lib/mcp/client/client_options.ts";
import { HttpTransport } from "../lib/mcp/client/http_transport.ts";
import { OAuthAuthorization } from "../lib/mcp/client/oauth.ts";
import { type JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import { isMcpVersion, MCP_VERSIONS, versionFeatures } from "../lib/mcp/shared/versions.ts";

/**
 * The versions the client speaks for the run: at a modern version the client
 * is dual-era (it probes, then speaks the newest both speak); at a legacy
 * one it speaks the legacy versions, as it does by default.
 */
const asked = Deno.env.get("MCP_CONFORMANCE_PROTOCOL_VERSION");
const VERSIONS: ClientOptions = isMcpVersion(asked) && versionFeatures(asked).era === "modern"
  ? { versions: MCP_VERSIONS }
  : {};

/** What the scenario hands over (`MCP_CONFORMANCE_CONTEXT`). */
const CONTEXT = JSON.parse(Deno.env.get("MCP_CONFORMANCE_CONTEXT") ?? "{}");

/** The user accepts and types nothing: every field takes its schema's default. */
const elicit = () => Promise.resolve({ action: "accept" as const, content: {} });

/** The client's model, which always says the same. */
const sample = () =>
  Promise.resolve({ text: "Paris", model: "conformance-stand-in", stopReason: "endTurn" as const });

/**
 * The scenarios whose right outcome is a refusal: the client must not
 * authorize with a resource, an issuer or an authorization response that
 * does not match, and must stop asking for a scope the server keeps
 * refusing. The client's work there is to refuse.
 */
const REFUSALS = new Set([
  "auth/resource-mismatch",
  "auth/metadata-issuer-mismatch",
  "auth/iss-supported-missing",
  "auth/iss-wrong-issuer",
  "auth/iss-unexpected",
  "auth/iss-normalized",
  "auth/scope-retry-limit",
]);

/** What the client does in each scenario, by name. */
const SCENARIOS: Record<string, (url: URL) => Promise<void>> = {
  initialize: async (url) => {
    await using client = new Client(url, VERSIONS);
    await client.initialize();
  },
  tools_call: async (url) => {
    await using client = new Client(url, { ...VERSIONS, allowed: ["add_numbers"] });
    await client.initialize();
    await client.listTools();
    console.log(await client.callTool("add_numbers", { a: 2, b: 3 }));
  },
  // The server closes the call's event stream after a priming event that names `retry`:
  // the client resumes it with a GET (Last-Event-ID) after that long, and reads the reply there.
  "sse-retry": async (url) => {
    await using client = new Client(url, { ...VERSIONS, allowed: ["test_reconnection"] });
    await client.initialize();
    await client.listTools();
    console.log(await client.callTool("test_reconnection"));
  },
  "elicitation-sep1034-client-defaults": async (url) => {
    await using client = new Client(url, {
      ...VERSIONS,
      allowed: ["test_client_elicitation_defaults"],
      elicit,
    });
    await client.initialize();
    await client.listTools();
    console.log(await client.callTool("test_client_elicitation_defaults"));
  },
  // The focal tool's inputSchema, as the client took it, goes back through the echo tool.
  "json-schema-2020-12-preservation": async (url) => {
    await using client = new Client(url, { ...VERSIONS, allowed: ["json_schema_echo"] });
    await client.initialize();
    const tools = await client.listTools();
    const schema = tools.json_schema_2020_12_tool.inputSchema;
    console.log(await client.callTool("json_schema_echo", { schema }));
  },
  "request-metadata": exercise,
  "http-standard-headers": exercise,
  "http-custom-headers": exercise,
  "http-invalid-tool-headers": exercise,
  "json-schema-ref-no-deref": exercise,
  "sep-2322-client-request-state": exercise,
};

/**
 * Use everything the server offers: every tool it lists (with the arguments
 * the scenario names in `toolCalls`, or a value of the right type for each
 * argument it requires), every resource and prompt. A call refused is
 * reported, and the rest go on. An argument the scenario gives as `null`
 * is left out: the client checks arguments against the tool's schema, which
 * here allows no null, and to the headers a null and a missing argument are
 * the same ("Parameter value is null" and "Parameter not in arguments": the
 * client omits the header either way).
 */
async function exercise(url: URL): Promise<void> {
  const given: { name: string; arguments: JsonObject }[] = CONTEXT.toolCalls ?? [];
  // The suite's stand-in for an operator allows every tool its server lists.
  await using client = new Client(url, { ...VERSIONS, elicit, sample, authorize: () => true });
  await client.initialize();
  const tools = await client.listTools().catch(() => ({} as Record<string, Tool>));
  const calls = given.length > 0
    ? given.map((call) => ({ ...call, arguments: withoutNulls(call.arguments) }))
    : Object.values(tools).map((tool) => ({ name: tool.name, arguments: required(tool) }));
  for (const call of calls) {
    await client.callTool(call.name, call.arguments).then(
      (text) => console.log(`${call.name}: ${text}`),
      (error) => console.log(`${call.name} refused: ${(error as Error).message}`),
    );
  }
  for (const uri of Object.keys(await client.listResources().catch(() => ({})))) {
    await client.readResource(uri).catch(() => {});
  }
  for (const name of Object.keys(await client.listPrompts().catch(() => ({})))) {
    await client.getPrompt(name).catch(() => {});
  }
}

/** `args` without the arguments given as `null`. */
function withoutNulls(args: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null));
}

/** A value of the declared type for each argument `tool` requires. */
function required(tool: Tool): JsonObject {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonObject>;
  const names = (tool.inputSchema.required ?? []) as string[];
  const example: Record<string, unknown> = {
    integer: 0,
    number: 0,
    boolean: false,
    string: "test",
  };
  return Object.fromEntries(
    names.map((name) => [name, example[String(properties[name]?.type)] ?? "test"]),
  );
}

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
  const authorization = new OAuthAuthorization({
    authorize: followRedirect,
    allowHttp: true,
    clientMetadataUrl: CLIENT_METADATA_URL,
    ...(typeof CONTEXT.client_id === "string"
      ? {
        preRegistered: {
          clientId: CONTEXT.client_id,
          ...(typeof CONTEXT.client_secret === "string"
            ? { clientSecret: CONTEXT.client_secret }
            : {}),
        },
      }
      : {}),
  });
  await using client = new Client(new HttpTransport(url, { authorization }), {
    ...VERSIONS,
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
  const refuses = REFUSALS.has(scenario);
  try {
    await run(new URL(target));
  } catch (error) {
    const said = `${scenario}: ${(error as Error).name}: ${(error as Error).message}`;
    console.error(`conformance client: ${refuses ? "refused, as it must" : "failed"}: ${said}`);
    Deno.exit(refuses ? 0 : 1);
  }
  if (refuses) {
    console.error(`conformance client: ${scenario}: went on where it had to refuse`);
    Deno.exit(1);
  }
}
