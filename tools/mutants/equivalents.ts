/**
 * The mutants of the worked solutions that no case can kill, each with one
 * line saying why. `deno task mutants` fails on any other survivor (a
 * missing case), and on an entry here that a case kills or that no longer
 * names a mutant, so this list stays exact.
 *
 * - `equivalent`: the mutant behaves exactly as the solution does on every
 *   input the function can be given (JSON values, as the contract says).
 * - `open`: it differs only where the contract leaves the behaviour to the
 *   learner (the words of an error's message, above all), so no case may
 *   judge it.
 *
 * A mutant is named as the report names it: its line, counted from the
 * function's first line of worked code; its mutator, the worked code it
 * replaces (on one line), an arrow, and its replacement.
 *
 * @module
 */

/** A mutant no case can kill, and why. */
export interface Unkillable {
  unit: string;
  fn: string;
  /** Its line, counted from the function's first worked line (a name may occur twice). */
  line: number;
  mutant: string;
  kind: "equivalent" | "open";
  why: string;
}

/** Every mutant of the worked solutions that no case can kill. */
export const UNKILLABLE: readonly Unkillable[] = [
  {
    unit: "ch14-a",
    fn: "answerFor",
    line: 3,
    mutant:
      "StringLiteral: `The reply's id ${JSON.stringify(message.id)} does not match the request's id ${ JSON.stringify(requestId) }` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "ch14-a",
    fn: "answerFor",
    line: 10,
    mutant: "StringLiteral: `The server answered with error ${code}: ${text}` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "ch14-a",
    fn: "answerFor",
    line: 10,
    mutant: "ObjectLiteral: { code } → {}",
    kind: "open",
    why:
      "Unit A asks only for a ProtocolError; keeping the server's code is advised there, and graded in Lab 02's correlate",
  },
  {
    unit: "ch14-b",
    fn: "splitFrames",
    line: 5,
    mutant:
      "StringLiteral: `A frame of ${end - start + 1} bytes exceeds the ${limit}-byte limit` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "ch14-b",
    fn: "splitFrames",
    line: 5,
    mutant: "ArithmeticOperator: end - start + 1 → end - start - 1",
    kind: "open",
    why:
      "inside the message of the RangeError for a frame over the limit: its words are the learner's",
  },
  {
    unit: "ch14-b",
    fn: "splitFrames",
    line: 5,
    mutant: "ArithmeticOperator: end - start → end + start",
    kind: "open",
    why:
      "inside the message of the RangeError for a frame over the limit (the check itself is killed)",
  },
  {
    unit: "ch14-b",
    fn: "splitFrames",
    line: 12,
    mutant:
      "StringLiteral: `${buffer.length - start} bytes without a newline reached the ${limit}-byte limit` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "ch14-b",
    fn: "splitFrames",
    line: 12,
    mutant: "ArithmeticOperator: buffer.length - start → buffer.length + start",
    kind: "open",
    why: "inside the message of the RangeError for an endless line (the check itself is killed)",
  },
  {
    unit: "ch14-b",
    fn: "transferProblems",
    line: 4,
    mutant:
      'LogicalOperator: typeof value === "number" && Number.isFinite(value) → typeof value === "number" || Number.isFinite(value)',
    kind: "equivalent",
    why: "differs only for NaN and ±Infinity, which no JSON argument can hold",
  },
  {
    unit: "ch14-b",
    fn: "transferProblems",
    line: 4,
    mutant: 'ConditionalExpression: typeof value === "number" → true',
    kind: "equivalent",
    why: "Number.isFinite is true only for numbers, so the typeof test adds nothing",
  },
  {
    unit: "ch14-b",
    fn: "transferProblems",
    line: 17,
    mutant: "OptionalChaining: properties[key]?.type → properties[key].type",
    kind: "equivalent",
    why:
      "the key is the schema's own property, and a property's schema is an object or a boolean, never null",
  },
  {
    unit: "ch14-b",
    fn: "transferProblems",
    line: 18,
    mutant: 'ConditionalExpression: typeof kind === "string" → true',
    kind: "open",
    why:
      'differs only for a type written as a list of names (["integer"]), which the contract leaves open',
  },
  {
    unit: "lab-02",
    fn: "correlate",
    line: 3,
    mutant:
      "StringLiteral: `reply id ${JSON.stringify(reply.id)} does not answer request ${JSON.stringify(requestId)}` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-02",
    fn: "correlate",
    line: 8,
    mutant: "StringLiteral: `request ${requestId} failed on the server: ${message}` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-02",
    fn: "unwrap",
    line: 4,
    mutant: "ConditionalExpression: error instanceof SyntaxError → true",
    kind: "equivalent",
    why: "JSON.parse of a string throws nothing but a SyntaxError",
  },
  {
    unit: "lab-01",
    fn: "handleMessage",
    line: 20,
    mutant: 'StringLiteral: "; " → ""',
    kind: "open",
    why: "the words of an error's message (what joins the problems): only its code is compared",
  },
  {
    unit: "lab-01",
    fn: "handleMessage",
    line: 1,
    mutant: 'ConditionalExpression: method === "server/discover" || method === "tools/list" → true',
    kind: "open",
    why:
      "caching hints on a tool call's result too: 2026-07-28 asks for them on discovery and lists, and a result may carry keys beyond its own, which a client ignores",
  },
  {
    unit: "ch15",
    fn: "denoFlags",
    line: 4,
    mutant: "StringLiteral: `Deno's flags cannot name a path with a comma: ${comma}` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-02",
    fn: "ServerLink",
    line: 8,
    mutant: "CallExpression: clearTimeout(timer); → ;",
    kind: "equivalent",
    why:
      "the timer it leaves only resolves a race already settled; at most it keeps a program alive for the grace period, which no case can see",
  },
  {
    unit: "lab-02",
    fn: "RpcLink",
    line: 19,
    mutant:
      "StringLiteral: `the server sent a request (${message.method}) while ${method} waited: none is taken` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-02",
    fn: "RpcLink",
    line: 5,
    mutant:
      "BlockStatement: { throw new ProtocolError(`cannot send ${message.method}: the server is gone`, { cause: error, }); } → {}",
    kind: "equivalent",
    why:
      "a write fails only once the server has exited, and then its output has ended too: the read that follows refuses the request with a ProtocolError all the same",
  },
  {
    unit: "lab-02",
    fn: "RpcLink",
    line: 6,
    mutant: "StringLiteral: `cannot send ${message.method}: the server is gone` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-02",
    fn: "RpcLink",
    line: 6,
    mutant: "ObjectLiteral: { cause: error, } → {}",
    kind: "open",
    why: "the contract asks for a ProtocolError, not for the error that caused it",
  },
  {
    unit: "lab-02",
    fn: "RpcLink",
    line: 6,
    mutant:
      "StringLiteral: `the server closed its output before it answered ${method} (id ${id})` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-02",
    fn: "RpcLink",
    line: 8,
    mutant: "StringLiteral: `no reply within ${deadlineMs} ms` → ``",
    kind: "open",
    why: "the words of a cancellation's reason: the specification leaves them to the client",
  },
  {
    unit: "lab-02",
    fn: "RpcLink",
    line: 10,
    mutant: "StringLiteral: `${method} (id ${id}) had ${reason}` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-02",
    fn: "eraOf",
    line: 13,
    mutant:
      'StringLiteral: `the server is not a modern one, and this client speaks ${versions.join(", ")} only` → ``',
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-02",
    fn: "eraOf",
    line: 13,
    mutant: 'StringLiteral: ", " → ""',
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-02",
    fn: "eraOf",
    line: 21,
    mutant:
      'StringLiteral: `the server speaks ${JSON.stringify(named)}; this client speaks ${versions.join(", ")}` → ``',
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-02",
    fn: "eraOf",
    line: 21,
    mutant: 'StringLiteral: ", " → ""',
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-02",
    fn: "HandshakeClient",
    line: 8,
    mutant:
      "StringLiteral: `the server answered protocol version ${ JSON.stringify(result.protocolVersion) }; this client speaks ${PROTOCOL_VERSION} only` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-02",
    fn: "HandshakeClient",
    line: 15,
    mutant:
      "StringLiteral: `the server offers no tools (capabilities ${ JSON.stringify(result.capabilities) }): every call would fail` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-02",
    fn: "HandshakeClient",
    line: 7,
    mutant: "ObjectLiteral: { silence: true } → {}",
    kind: "equivalent",
    why:
      "to the worked eraOf, silence is any answer that names no versions: an empty one too (a learner's own eraOf is graded apart)",
  },
  {
    unit: "lab-02",
    fn: "HandshakeClient",
    line: 7,
    mutant: "BooleanLiteral: true → false",
    kind: "equivalent",
    why:
      "to the worked eraOf, silence is any answer that names no versions, whatever it holds (a learner's own eraOf is graded apart)",
  },
  {
    unit: "lab-02",
    fn: "HandshakeClient",
    line: 23,
    mutant:
      "StringLiteral: `the server offers no tools (capabilities ${ JSON.stringify(discover.capabilities) }): every call would fail` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-02",
    fn: "HandshakeClient",
    line: 2,
    mutant: "ConditionalExpression: version === undefined → false",
    kind: "equivalent",
    why:
      "isModern(undefined) is false (undefined compares with no string): the check is there for the type, and a request before connect() goes as it is either way",
  },
  {
    unit: "lab-02",
    fn: "ListingClient",
    line: 8,
    mutant:
      'StringLiteral: "tools/list did not answer with a list of tools, each with a name and an inputSchema" → ""',
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-02",
    fn: "McpClient",
    line: 4,
    mutant:
      "StringLiteral: `no tool named ${JSON.stringify(name)} has been listed: nothing was sent` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-02",
    fn: "McpClient",
    line: 10,
    mutant:
      'StringLiteral: `${name}\'s schema refuses these arguments (${problems.join("; ")}): nothing was sent` → ``',
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-02",
    fn: "McpClient",
    line: 10,
    mutant: 'StringLiteral: "; " → ""',
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-02",
    fn: "McpClient",
    line: 16,
    mutant: "StringLiteral: `the result of ${name} has no text to read` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-02",
    fn: "testUnknownToolRaisesProtocolError",
    line: 4,
    mutant: 'StringLiteral: "not_a_tool" → ""',
    kind: "equivalent",
    why: "a tool named by the empty string is as unknown to the grammar server as not_a_tool",
  },
  {
    unit: "lab-03",
    fn: "prefixStatus",
    line: 64,
    mutant: 'ConditionalExpression: typeof m === "string" → true',
    kind: "open",
    why: "the contract's enums hold strings only",
  },
  {
    unit: "lab-03",
    fn: "prefixStatus",
    line: 80,
    mutant: 'StringLiteral: "object" → ""',
    kind: "equivalent",
    why:
      "a frame's kind is read only to tell a value and a string apart: any other frame is an object's",
  },
  {
    unit: "lab-03",
    fn: "prefixStatus",
    line: 132,
    mutant: 'StringLiteral: "key" → ""',
    kind: "equivalent",
    why: "an object's phase is compared only with start and after: any other phase reads a name",
  },
  {
    unit: "lab-03",
    fn: "prefixStatus",
    line: 144,
    mutant: 'StringLiteral: "" → "Stryker was here!"',
    kind: "equivalent",
    why:
      "the name read so far is used only while reading a name, and a comma starts the next one afresh",
  },
  {
    unit: "lab-03",
    fn: "prefixStatus",
    line: 148,
    mutant: 'StringLiteral: "key" → ""',
    kind: "equivalent",
    why: "an object's phase is compared only with start and after: any other phase reads a name",
  },
  {
    unit: "lab-03",
    fn: "decode",
    line: 2,
    mutant: "ConditionalExpression: trie === undefined → true",
    kind: "equivalent",
    why: "the prefix tree of the same tokens, built again, is the same tree",
  },
  {
    unit: "lab-03",
    fn: "decode",
    line: 10,
    mutant: "ConditionalExpression: allowed.length === 0 → false",
    kind: "equivalent",
    why:
      "a text no token may follow never completes, so the budget ends it with the same RangeError",
  },
  {
    unit: "lab-03",
    fn: "decode",
    line: 10,
    mutant: "StringLiteral: `no token may follow ${JSON.stringify(text)}` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-03",
    fn: "decode",
    line: 13,
    mutant:
      "StringLiteral: `no complete call within ${maxTokens} tokens: ${JSON.stringify(text)}` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-03",
    fn: "retryRequest",
    line: 2,
    mutant: "StringLiteral: `A retry is a new request: the id ${JSON.stringify(id)} is spent` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-03",
    fn: "retryRequest",
    line: 8,
    mutant: "StringLiteral: `The server asked ${key}: no answer` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-03",
    fn: "retryRequest",
    line: 13,
    mutant: "ConditionalExpression: result.requestState !== undefined → true",
    kind: "equivalent",
    why:
      "a requestState of undefined is not sent: the retry is judged as the wire carries it (asSent)",
  },
  {
    unit: "lab-04",
    fn: "routeReply",
    line: 5,
    mutant:
      "StringLiteral: `reply id ${JSON.stringify(reply.id)} answers none of the requests in flight` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-04",
    fn: "progressOf",
    line: 6,
    mutant: "StringLiteral: `progress for request ${held[1]} is not a finite number` → ``",
    kind: "open",
    why: "the words of an error's message: the contract names the error's class, not its text",
  },
  {
    unit: "lab-04",
    fn: "replyKind",
    line: 4,
    mutant: 'StringLiteral: "" → "Stryker was here!"',
    kind: "equivalent",
    why: "a missing content type and any other word are alike neither JSON nor an event stream",
  },
];
