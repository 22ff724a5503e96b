/**
 * A judge's report as a notebook shows it: one table of what the client
 * saw, titled with the verdict, then each problem on a line of its own.
 *
 * @module
 */

import { say, showTable } from "../notebook/display.ts";
import type { ClientName, ClientReport } from "./expected.ts";

const TITLES: Record<ClientName, string> = {
  bytes: "a hand-crafted byte stream",
  course: "the course's Client",
  sdk: "the MCP SDK's Client",
  inspector: "the MCP Inspector's command-line mode",
};

/**
 * Show `report`.
 *
 * @example
 * ```ts
 * await showReport({
 *   client: "inspector",
 *   status: "NOT_RUN",
 *   tools: [],
 *   answers: {},
 *   errors: {},
 *   problems: ["the MCP Inspector is not installed"],
 * });
 * ```
 */
export async function showReport(report: ClientReport): Promise<void> {
  const rows = [
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
  await showTable(rows, { title: `${TITLES[report.client]}: ${report.status}` });
  for (const problem of report.problems) await say(`problem: ${problem}`);
}
