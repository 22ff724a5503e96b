/**
 * From the paths an instructor names to the submissions to grade: each is a
 * learner's code (a notebook or a module) and, beside it, the evidence JSON
 * it saved. Anything that cannot be read as what it claims to be is a
 * problem, reported in one line naming the file.
 *
 * @module
 */

import { type EvidenceKind, evidenceProblems } from "../../lib/evidence.ts";
import { NotebookError, parseNotebook } from "../editions/notebook.ts";
import { UNITS } from "./units/mod.ts";

/** The evidence each unit saves, by the kind of its schema. */
const EVIDENCE: Record<string, EvidenceKind> = {
  "ch14-a": "ch14-a-handoff",
  "ch14-b": "ch14-b-submission",
};

/** One learner's work on one unit. */
export interface Submission {
  /** What the report calls it: the folder, or the file. */
  name: string;
  unit: string;
  code?: { kind: "notebook" | "module"; path: string };
  evidence?: { path: string; value: Record<string, unknown> };
}

/** A path that cannot be graded, and why. */
export interface InputProblem {
  path: string;
  problem: string;
}

/** Submissions found under `paths`, in a stable order, and the problems met on the way. */
export async function collectSubmissions(
  paths: readonly string[],
  unitOverride?: string,
): Promise<{ submissions: Submission[]; problems: InputProblem[] }> {
  const problems: InputProblem[] = [];
  const submissions: Submission[] = [];
  if (unitOverride !== undefined && !(unitOverride in UNITS)) {
    problems.push({
      path: "--unit",
      problem: `unknown unit ${unitOverride}; known: ${Object.keys(UNITS).join(", ")}`,
    });
    return { submissions, problems };
  }
  for (const path of paths) {
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(path);
    } catch {
      problems.push({ path, problem: "no such file or folder" });
      continue;
    }
    const groups = info.isDirectory ? await folderGroups(path) : new Map([[path, [path]]]);
    for (const [name, files] of groups) {
      const found = new Map<string, Submission>();
      for (const file of files) {
        const read = await readFile(file, unitOverride, !info.isDirectory);
        if (read === undefined) continue;
        if ("problem" in read) {
          problems.push({ path: file, problem: read.problem });
          continue;
        }
        const submission = found.get(read.unit) ?? { name, unit: read.unit };
        if ("code" in read) {
          if (submission.code !== undefined) {
            problems.push({
              path: file,
              problem: `a second piece of code for ${read.unit} beside ${submission.code.path}`,
            });
            continue;
          }
          submission.code = read.code;
        } else {
          if (submission.evidence !== undefined) {
            problems.push({
              path: file,
              problem: `a second submission for ${read.unit} beside ${submission.evidence.path}`,
            });
            continue;
          }
          submission.evidence = read.evidence;
        }
        found.set(read.unit, submission);
      }
      submissions.push(...[...found.values()].sort((a, b) => a.unit.localeCompare(b.unit)));
    }
  }
  return { submissions, problems };
}

type Read =
  | { unit: string; code: Submission["code"] & object }
  | { unit: string; evidence: Submission["evidence"] & object }
  | { problem: string };

/**
 * What one file is. In a folder, files that are not the course's (JSON with
 * no `unit`, other extensions) are passed over; named on their own, they are
 * problems.
 */
async function readFile(
  path: string,
  unitOverride: string | undefined,
  named: boolean,
): Promise<Read | undefined> {
  const extension = path.slice(path.lastIndexOf("."));
  if (![".json", ".ipynb", ".ts"].includes(extension)) {
    return named
      ? { problem: "not a submission JSON, a notebook (.ipynb) or a module (.ts)" }
      : undefined;
  }
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    return { problem: `cannot be read: ${(error as Error).message}` };
  }
  if (extension === ".ts") {
    const unit = unitOverride ?? unitOfModule(text);
    if (unit === undefined) {
      return { problem: "cannot tell which unit this module is for: pass --unit" };
    }
    return { unit, code: { kind: "module", path: await Deno.realPath(path) } };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: "is not JSON" };
  }
  if (extension === ".ipynb") {
    try {
      const notebook = parseNotebook(text, path);
      const marked = (notebook.metadata.course as { unit?: string } | undefined)?.unit;
      const stem = path.split("/").at(-1)!.replace(/\.ipynb$/, "");
      const unit = unitOverride ?? marked ?? (stem in UNITS ? stem : undefined);
      if (unit === undefined) {
        return { problem: "cannot tell which unit this notebook is for: pass --unit" };
      }
      if (!(unit in UNITS)) {
        return { problem: `is for unit ${unit}, which the grader does not know` };
      }
      return { unit, code: { kind: "notebook", path: await Deno.realPath(path) } };
    } catch (error) {
      if (error instanceof NotebookError) return { problem: error.message.replace(`${path} `, "") };
      throw error;
    }
  }
  const record = value as Record<string, unknown>;
  const unit = typeof record?.unit === "string" ? record.unit : undefined;
  if (unit === undefined) {
    return named ? { problem: "is not a submission: it names no unit" } : undefined;
  }
  if (!(unit in EVIDENCE)) {
    return { problem: `names unit ${JSON.stringify(unit)}, which the grader does not know` };
  }
  if (unitOverride !== undefined && unit !== unitOverride) {
    return { problem: `is for ${unit}, not the --unit ${unitOverride}` };
  }
  const schemaProblems = await evidenceProblems(EVIDENCE[unit], value);
  if (schemaProblems.length > 0) {
    return { problem: `does not match the ${EVIDENCE[unit]} schema: ${schemaProblems.join("; ")}` };
  }
  return { unit, evidence: { path, value: record } };
}

/** The unit whose graded functions a module exports, when exactly one unit matches. */
function unitOfModule(text: string): string | undefined {
  const matches = Object.values(UNITS).filter((spec) =>
    spec.functions.some((fn) =>
      new RegExp(`export\\s+(async\\s+)?(function|const|let)\\s+${fn.name}\\b`).test(text)
    )
  );
  return matches.length === 1 ? matches[0].unit : undefined;
}

/** The files under `root`, grouped by the folder that holds them, in sorted order. */
async function folderGroups(root: string): Promise<Map<string, string[]>> {
  const groups = new Map<string, string[]>();
  const walk = async (folder: string) => {
    const entries = [];
    for await (const entry of Deno.readDir(folder)) {
      if (!entry.name.startsWith(".") && entry.name !== "node_modules") entries.push(entry);
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile) groups.set(folder, [...(groups.get(folder) ?? []), path]);
    }
  };
  await walk(root.replace(/\/+$/, ""));
  return new Map([...groups].sort(([a], [b]) => a.localeCompare(b)));
}
