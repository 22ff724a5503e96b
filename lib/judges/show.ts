/**
 * A judge's report as a notebook shows it: one table of what the client
 * saw, titled with the verdict, then what went wrong.
 *
 * @module
 */

import { notice, showTable } from "../notebook/display.ts";
import type { ClientName, ClientReport } from "./expected.ts";

const TITLES: Record<ClientName, string> = {
  bytes: "a hand-crafted byte stream",
  course: "the course's Client",
  sdk_v2: "the MCP SDK's v2 Client",
  sdk: "the MCP SDK's 1.x Client",
  inspector: "the MCP Inspector's command-line mode",
};

/** What each version a judge spoke is, in a table. */
const ERAS: Readonly<Record<string, string>> = {
  "2026-07-28": "2026-07-28 (today's protocol)",
  "2025-06-18": "2025-06-18 (the handshake)",
  "2024-11-05": "2024-11-05 (the handshake)",
};

/**
 * Show `report`: a table titled with the verdict (✓ passed, ✗ failed, ↷
 * not run) whose first row says which protocol versions the judge spoke,
 * then, when the judge failed the server, its problems in one box, each
 * kind of problem once, however many lines it was found on.
 *
 * @example
 * ```ts
 * await showReport({
 *   client: "inspector",
 *   status: "NOT_RUN",
 *   spoke: [],
 *   tools: [],
 *   answers: {},
 *   errors: {},
 *   problems: ["the MCP Inspector is not installed"],
 * });
 * ```
 */
export async function showReport(report: ClientReport): Promise<void> {
  const spoke = report.spoke.map((version) => ERAS[version] ?? version).join(", then ");
  const rows = [
    {
      saw: "spoke",
      what: spoke ||
        (report.client === "inspector" && report.status !== "NOT_RUN"
          ? "the handshake (its command-line mode does not say which version)"
          : "nothing"),
    },
    { saw: "the tools listed", what: report.tools.join(", ") || "none" },
    ...Object.entries(report.answers).map(([tool, answer]) => ({
      saw: `${tool} answered`,
      what: JSON.stringify(answer) ?? "nothing",
    })),
    ...Object.entries(report.errors).map(([mistake, outcome]) => ({
      saw: `${mistake.replaceAll("_", " ")} came back as`,
      what: String(outcome),
    })),
  ];
  const [mark, words] = VERDICTS[report.status];
  await showTable(rows, { title: `${mark} ${TITLES[report.client]}: ${words}` });
  const problems = collapsed(report.problems);
  if (report.status === "FAILED") {
    await notice("missed", `${TITLES[report.client]} failed your server: ${problems.join("; ")}`);
  } else if (problems.length > 0) {
    await notice("info", `${TITLES[report.client]} did not run: ${problems.join("; ")}`);
  }
}

const VERDICTS: Record<ClientReport["status"], [mark: string, words: string]> = {
  PASSED: ["✓", "PASSED"],
  FAILED: ["✗", "FAILED"],
  NOT_RUN: ["↷", "NOT RUN"],
};

/**
 * `problems` with each kind (the words before its first colon) said once:
 * a kind found several times is said with how many times, and its first
 * detail.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(collapsed(["stray: a", "stray: b", "exit 1"]), [
 *   "stray (2 times); the first: a",
 *   "exit 1",
 * ]);
 * ```
 */
export function collapsed(problems: readonly string[]): string[] {
  const kinds = new Map<string, string[]>();
  for (const problem of problems) {
    const colon = problem.indexOf(": ");
    const kind = colon < 0 ? problem : problem.slice(0, colon);
    kinds.set(kind, [...kinds.get(kind) ?? [], colon < 0 ? "" : problem.slice(colon + 2)]);
  }
  return [...kinds].map(([kind, details]) =>
    details.length === 1
      ? (details[0] === "" ? kind : `${kind}: ${details[0]}`)
      : `${kind} (${details.length} times)${details[0] === "" ? "" : `; the first: ${details[0]}`}`
  );
}
