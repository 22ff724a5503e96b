/**
 * Lab 02's visible cases: the notebook's grade tables show them, and the
 * autograder runs them again on the learner's code. The hidden cases are
 * held back: only the instructors' grader has them. The client's layers and the named tests have theirs in
 * `lab_02_client.ts`, with the helpers that write them.
 *
 * @module
 */

import type { GradeCase } from "../lib/grading/grading.ts";
import { CLIENT_CASES, type ClientLayer, type NamedTestName, TEST_CASES } from "./lab_02_client.ts";

const refused = { throws: "ProtocolError" };

/** The versions Lab 02's client speaks, newest first: today's, and its handshake's. */
export const LAB_VERSIONS = ["2026-07-28", "2025-06-18"];

/** What a probe got when the server answered with a `DiscoverResult` naming `versions`. */
export function discovered(versions: unknown, capabilities: unknown = { tools: {} }): unknown {
  return { result: { supportedVersions: versions, capabilities } };
}

/** What a probe got when the server answered with an `UnsupportedProtocolVersionError`. */
export function unsupported(supported: unknown, requested = "2026-07-28"): unknown {
  return {
    error: {
      code: -32022,
      message: "Unsupported protocol version",
      data: { supported, requested },
    },
  };
}

/** What a probe got when the server answered with the error `code`. */
export function failed(code: number, message: string, data?: unknown): unknown {
  return { error: { code, message, ...(data === undefined ? {} : { data }) } };
}

/** What eraOf returns: the era and version to speak. */
export const speak = (era: "modern" | "legacy", version: string) => ({ era, version });

/** Lab 02's visible cases, by the graded function's (or class's, or test's) name. */
export const CASES: Readonly<
  Record<"correlate" | "unwrap" | "eraOf" | ClientLayer | NamedTestName, readonly GradeCase[]>
> = {
  ...CLIENT_CASES,
  ...TEST_CASES,
  eraOf: [
    {
      label: "a DiscoverResult that names 2026-07-28: today's protocol",
      args: [discovered(["2026-07-28", "2025-11-25"]), LAB_VERSIONS],
      expected: speak("modern", "2026-07-28"),
    },
    {
      label: "the newest version both speak, not the server's first",
      args: [discovered(["2025-06-18", "2026-07-28"]), LAB_VERSIONS],
      expected: speak("modern", "2026-07-28"),
    },
    {
      label: "-32601, method not found: a legacy server, so the handshake",
      args: [failed(-32601, "Method not found"), LAB_VERSIONS],
      expected: speak("legacy", "2025-06-18"),
    },
    {
      label: "-32602 is a legacy server's answer too: the fallback is keyed to no code",
      args: [failed(-32602, "Not initialized"), LAB_VERSIONS],
      expected: speak("legacy", "2025-06-18"),
    },
    {
      label: "no answer before the deadline: a legacy server, so the handshake",
      args: [{ silence: true }, LAB_VERSIONS],
      expected: speak("legacy", "2025-06-18"),
    },
    {
      label: "UnsupportedProtocolVersionError: the version is chosen from its list",
      args: [unsupported(["2025-11-25", "2025-06-18"]), LAB_VERSIONS],
      expected: speak("legacy", "2025-06-18"),
    },
    {
      label: "UnsupportedProtocolVersionError naming none of the client's: refused, no fall back",
      args: [unsupported(["2025-11-25"]), LAB_VERSIONS],
      expected: refused,
    },
    {
      label: "a DiscoverResult that shares no version with the client: refused",
      args: [discovered(["2025-11-25"]), LAB_VERSIONS],
      expected: refused,
    },
  ],
  correlate: [
    {
      label: "the reply to request 1",
      args: [1, { jsonrpc: "2.0", id: 1, result: { ok: true } }],
      expected: { ok: true },
    },
    {
      label: "a reply to another request",
      args: [2, { jsonrpc: "2.0", id: 1, result: { ok: true } }],
      expected: refused,
    },
    {
      label: 'the string "1" does not answer request 1',
      args: [1, { jsonrpc: "2.0", id: "1", result: {} }],
      expected: refused,
    },
    {
      label: "a string id that matches exactly",
      args: ["req-7", { jsonrpc: "2.0", id: "req-7", result: { n: 7 } }],
      expected: { n: 7 },
    },
    {
      label: "an error reply keeps the server's code",
      args: [3, { jsonrpc: "2.0", id: 3, error: { code: -32602, message: "Unknown tool: x" } }],
      expected: { throws: "ProtocolError", with: { code: -32602 } },
    },
    {
      label: "an error with id null answers no request",
      args: [3, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }],
      expected: refused,
    },
  ],
  unwrap: [
    { label: "a verb form stays a string", args: ["ate"], expected: "ate" },
    { label: "an accented word stays a string", args: ["comió"], expected: "comió" },
    {
      label: "a JSON object becomes an object",
      args: ['{"verb":"go","irregular":true}'],
      expected: { verb: "go", irregular: true },
    },
    { label: "a JSON number becomes a number", args: ["42"], expected: 42 },
    { label: "a quoted JSON string loses its quotes", args: ['"went"'], expected: "went" },
    {
      label: "text that only starts like JSON stays text",
      args: ['{"verb": go'],
      expected: '{"verb": go',
    },
  ],
};
