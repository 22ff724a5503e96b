/**
 * What a server's `Bearer` challenge says (RFC 6750 §3, as MCP's
 * authorization uses it): why it refused (`error`), which scopes it wants
 * (`scope`), and where its protected-resource metadata is
 * (`resource_metadata`, RFC 9728 §5.1).
 *
 * @module
 */

/** The parts of a `Bearer` challenge that MCP's authorization reads. */
export interface BearerChallenge {
  /** Why the request was refused, e.g. `invalid_token` or `insufficient_scope`. */
  error?: string;
  /** The scopes the server asks for, in its order. */
  scope?: string[];
  /** Where the protected resource's metadata is. */
  resourceMetadata?: URL;
}

/** A token (RFC 9110 §5.6.2): an auth scheme, or a parameter's name or bare value. */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
/** One scheme name, or one `name=value` parameter, and the comma after it. */
const PART = new RegExp(`\\s*(${TOKEN})(?:\\s*=\\s*("(?:[^"\\\\]|\\\\.)*"|${TOKEN}))?\\s*,?`, "y");

/**
 * The `Bearer` challenge in `response`'s `WWW-Authenticate` header (empty
 * when it has none); other schemes' challenges in the same header are
 * skipped, and a `resource_metadata` that is not a URL is left out.
 *
 * @example A step-up challenge names the wider scope
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const refused = new Response(null, {
 *   status: 403,
 *   headers: {
 *     "www-authenticate": 'Basic realm="x", Bearer error="insufficient_scope", ' +
 *       'scope="mcp:basic mcp:write", resource_metadata="https://a.example/.well-known/x"',
 *   },
 * });
 * const said = bearerChallenge(refused);
 * assert.equal(said.error, "insufficient_scope");
 * assert.deepEqual(said.scope, ["mcp:basic", "mcp:write"]);
 * assert.equal(said.resourceMetadata?.href, "https://a.example/.well-known/x");
 * assert.deepEqual(bearerChallenge(new Response(null, { status: 401 })), {});
 * ```
 */
export function bearerChallenge(response: Response): BearerChallenge {
  const header = response.headers.get("www-authenticate") ?? "";
  const parameters = new Map<string, string>();
  let scheme = "";
  PART.lastIndex = 0;
  for (
    let match = PART.exec(header);
    match !== null && match[0] !== "";
    match = PART.exec(header)
  ) {
    const [, name, value] = match;
    if (value === undefined) scheme = name.toLowerCase();
    else if (scheme === "bearer") {
      const text = value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, "$1") : value;
      parameters.set(name.toLowerCase(), text);
    }
  }
  const said: BearerChallenge = {};
  const error = parameters.get("error");
  if (error !== undefined) said.error = error;
  const scope = parameters.get("scope")?.split(" ").filter((s) => s !== "");
  if (scope !== undefined && scope.length > 0) said.scope = scope;
  const where = parameters.get("resource_metadata");
  if (where !== undefined && URL.canParse(where)) said.resourceMetadata = new URL(where);
  return said;
}
