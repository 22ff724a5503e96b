/**
 * From the paths an instructor names to the learners to grade. A file named
 * on its own is one learner's work. A folder is one learner when it holds
 * course files itself (a notebook, a module, a submission JSON, or the
 * course's `notebooks/` and `work/` folders); otherwise each folder inside it
 * is one learner, however deeply their files are nested. Within a learner,
 * each unit has at most one piece of code and one submission JSON.
 *
 * Anything that cannot be read as what it claims to be is a problem, reported
 * in one line naming the file; what is passed over on purpose (hidden
 * folders, symbolic links, the course's library copied beside a Lab 01 server,
 * work moved aside by the starter) is a note, also one line each.
 *
 * @module
 */

import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type EvidenceKind, firstEvidenceProblem } from "../../lib/course/evidence.ts";
import { isObject } from "../../lib/mcp/shared/jsonrpc.ts";
import { NotebookError, parseNotebook } from "../editions/notebook.ts";
import { UNITS } from "./units/mod.ts";
import { tempFolder } from "../../lib/course/temp_folders.ts";

/** The evidence each unit saves, by the kind of its schema, and its file name. */
const EVIDENCE: ReadonlyMap<string, { kind: EvidenceKind; file: string }> = new Map([
  ["ch14-a", { kind: "ch14-a-handoff", file: "ch14-unit-a-handoff-v1.json" }],
  ["ch14-b", { kind: "ch14-b-submission", file: "ch14-b-submission-v1.json" }],
  ["lab-01", { kind: "lab-01-submission", file: "lab-01-submission-v1.json" }],
  ["lab-03", { kind: "lab-03-submission", file: "lab-03-submission-v1.json" }],
  ["ch15", { kind: "ch15-submission", file: "ch15-submission-v1.json" }],
  ["lab-04", { kind: "lab-04-submission", file: "lab-04-submission-v1.json" }],
]);
const EVIDENCE_FILES = new Set([...EVIDENCE.values()].map(({ file }) => file));
/**
 * The largest notebook, module, JSON or Lab 02 transcript the grader reads
 * (the worked editions are under 150 KB). Each is read and parsed whole in
 * the grader's own process, outside any budget: 300 MB of `{},` in one learner's notebook took
 * the class run past its heap and ended it with nobody's results written.
 */
const MAX_FILE_MB = 16;
/**
 * The largest submission JSON the grader keeps (the worked editions' are
 * under 10 KB). Each learner's is kept for the whole run, as its text: parsed,
 * a schema that takes any JSON somewhere (Unit B's `observed`) let 15.6 MB of
 * `{},` hold 355 MB of the grader's heap, and twelve such learners end the
 * run with nobody's results written.
 */
const MAX_EVIDENCE_MB = 4;
/**
 * The largest Lab 02 saved file (`transcript.txt`, `results.json`) the grader
 * reads (the reference transcripts are under 6 KB). Each is parsed and
 * compared with the reference in the grader's own event loop, outside any
 * budget: a 12 MB transcript whose first line held 1.4 million keys took it
 * 7 s, then threw (the learner "could not be graded").
 */
const MAX_LAB_02_FILE_KB = 256;
/**
 * The most of one learner's files the grader reads, together: each is read
 * and parsed in the grader's own process, before any budget of the learner's,
 * and 100 files of 15 MB took it 50 s (a copy of the course with every
 * notebook and every saved file is under 2 MB).
 */
const MAX_LEARNER_MB = 64;
/**
 * The most files and folders the grader walks in one learner's folder (a
 * copy of the course, with every notebook and saved file, holds under 200).
 * Every learner's folder is walked before anyone is graded: 200,000 empty
 * modules in one cost the class 20 s and 200,000 problem lines.
 */
const MAX_LEARNER_ENTRIES = 10_000;
/**
 * The most problems, and the most notes, listed for one learner's folder;
 * the rest are counted in one line (9,000 links, hidden files and folders moved aside were 9,000 notes).
 */
const MAX_LEARNER_LINES = 20;

/** The course's own handouts, beside this grader: what is written in them, nobody grades. */
const HANDOUTS = fileURLToPath(new URL("../../notebooks", import.meta.url));

/** One learner's work on one unit. */
export interface Submission {
  unit: string;
  code?: { kind: "notebook" | "module"; path: string };
  /** The submission JSON, as its text (parse it when it is scored: parsed, it can be many times larger). */
  evidence?: { path: string; text: string };
  /** Lab 02's saved files, by name, where the learner's work holds them (`work/lab-02/`). */
  files?: Partial<Record<Lab02File, string>>;
  /** A notebook's cells the grader leaves out of its module, by id, each with why (they do not parse). */
  leftOut?: Record<string, string>;
}

/** The files Lab 02 saves that the grader checks, as `work/lab-02/NAME`. */
const LAB_02_FILES = { "transcript.txt": "transcript", "results.json": "results" } as const;
type Lab02File = (typeof LAB_02_FILES)[keyof typeof LAB_02_FILES];

/** One learner: what the report calls them (their folder, or their file) and their work. */
export interface Learner {
  name: string;
  submissions: Submission[];
}

/** A path that cannot be graded, and why. */
export interface InputProblem {
  path: string;
  problem: string;
}

/** What {@linkcode collectLearners} found. */
export interface Collected {
  learners: Learner[];
  problems: InputProblem[];
  /** Paths passed over on purpose, one line each. */
  notes: string[];
  /** A folder of the grader's holding links to learners' folders it could not open by name (a {@linkcode tempFolder}). */
  links?: string;
}

/**
 * The learners under `paths`, in a stable order, with the problems and notes
 * met on the way.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const { learners, problems } = await collectLearners(["no/such/path"]);
 * assert.deepEqual(learners, []);
 * assert.equal(problems[0].problem, "no such file or folder");
 * ```
 */
export async function collectLearners(
  paths: readonly string[],
  unitOverride?: string,
): Promise<Collected> {
  const found: Collected = { learners: [], problems: [], notes: [] };
  if (unitOverride !== undefined && !UNITS.has(unitOverride)) {
    found.problems.push({
      path: "--unit",
      problem: `unknown unit ${unitOverride}; known: ${[...UNITS.keys()].join(", ")}`,
    });
    return found;
  }
  for (const path of paths) {
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(path);
    } catch {
      found.problems.push({ path, problem: "no such file or folder" });
      continue;
    }
    if (!info.isDirectory) {
      const learner = await learnerFrom(
        path,
        [path],
        true,
        unitOverride,
        found.problems,
        found.notes,
      );
      if (learner !== undefined) found.learners.push(learner);
      continue;
    }
    const root = path.length > 1 ? path.replace(/\/+$/, "") : path;
    let folders: LearnerFolder[];
    try {
      folders = await isLearnerFolder(root)
        ? [{ path: root, name: root }]
        : await learnerFolders(root, found);
    } catch (error) {
      found.problems.push({ path, problem: `cannot be read: ${(error as Error).message}` });
      continue;
    }
    for (const folder of folders) {
      const [problems, notes] = [found.problems.length, found.notes.length];
      // Whatever one learner's folder holds, the others are graded.
      const walk = { left: MAX_LEARNER_ENTRIES, cut: false };
      try {
        const files = await filesUnder(folder.path, found.problems, found.notes, walk);
        const learner = await learnerFrom(
          folder.path,
          files,
          false,
          unitOverride,
          found.problems,
          found.notes,
        );
        if (learner !== undefined) found.learners.push({ ...learner, name: folder.name });
      } catch (error) {
        found.problems.push({
          path: folder.name,
          problem: `cannot be read: ${(error as Error).message}`,
        });
      }
      if (walk.cut) {
        // First, so that it is listed whatever else this folder holds.
        found.problems.splice(problems, 0, {
          path: folder.name,
          problem: `holds more than ${MAX_LEARNER_ENTRIES} files and folders: the grader ` +
            "read no further (remove what is not the learner's work)",
        });
      }
      const many = found.problems.length - problems - MAX_LEARNER_LINES;
      if (many > 0) {
        found.problems.splice(problems + MAX_LEARNER_LINES, Infinity, {
          path: folder.name,
          problem: `${many} more problems in this folder, not listed`,
        });
      }
      const skipped = found.notes.length - notes - MAX_LEARNER_LINES;
      if (skipped > 0) {
        found.notes.splice(
          notes + MAX_LEARNER_LINES,
          Infinity,
          `${skipped} more notes on ${folder.name}, not listed`,
        );
      }
      // A folder read through a link of the grader's is named as the learner's own, wherever a
      // problem or a note names it (an error's message too).
      const named = (text: string) => text.replaceAll(folder.path, folder.name);
      for (const problem of found.problems.slice(problems)) {
        problem.path = named(problem.path);
        problem.problem = named(problem.problem);
      }
      found.notes.splice(notes, Infinity, ...found.notes.slice(notes).map(named));
    }
  }
  return found;
}

/** A learner made of `files`, or undefined when none of them is the course's. */
async function learnerFrom(
  name: string,
  files: readonly string[],
  named: boolean,
  unitOverride: string | undefined,
  problems: InputProblem[],
  notes: string[],
): Promise<Learner | undefined> {
  const byUnit = new Map<string, Submission>();
  const left = { bytes: MAX_LEARNER_MB << 20 };
  for (const file of files) {
    let read: Read | undefined;
    try {
      read = await readFile(file, unitOverride, named, left);
    } catch (error) {
      read = { problem: `cannot be read: ${(error as Error).message}` };
    }
    if (read === undefined) continue;
    if ("problem" in read) {
      problems.push({ path: file, problem: read.problem });
      continue;
    }
    const submission: Submission = byUnit.get(read.unit) ?? { unit: read.unit };
    byUnit.set(read.unit, submission);
    if ("file" in read) {
      (submission.files ??= {})[read.file[0]] = read.file[1];
      continue;
    }
    if ("code" in read) {
      if (dirname(resolve(file)) === HANDOUTS) {
        notes.push(
          `${file} is the course's handout, which nobody grades: your own copy is ` +
            `work/${basename(file)} (deno task lab makes it)`,
        );
      }
      if (submission.code === undefined) submission.code = read.code;
      else {
        const chosen = preferredCode(read.unit, submission.code.path, read.code.path);
        if (chosen === undefined) {
          problems.push({
            path: file,
            problem: `a second piece of code for ${read.unit} beside ${submission.code.path}`,
          });
        } else {
          const other = chosen === file ? submission.code.path : file;
          notes.push(`skipped ${other}: ${chosen} is the learner's ${read.unit}`);
          if (chosen === file) submission.code = read.code;
        }
      }
    } else if (submission.evidence === undefined) {
      submission.evidence = read.evidence;
    } else {
      const chosen = preferred(read.unit, submission.evidence.path, read.evidence.path);
      if (chosen === undefined) {
        problems.push({
          path: file,
          problem: `a second submission for ${read.unit} beside ${submission.evidence.path}`,
        });
      } else if (chosen === read.evidence.path) submission.evidence = read.evidence;
    }
  }
  if (byUnit.size === 0) return undefined;
  const submissions = [...byUnit.values()].sort((a, b) => compare(a.unit, b.unit));
  return { name, submissions };
}

/**
 * Of two notebooks or modules for a unit, the learner's own: the one in
 * their `work/` (where `deno task lab` puts their copies) over a handout in
 * `notebooks/`, then the one named exactly for the unit (`ch14-b.ipynb`, the
 * copy `deno task lab` makes) over any other (JupyterLab's Duplicate,
 * `ch14-b-Copy1.ipynb`), then one named for it over a backup
 * (`ch14-b.before-2026-11-30T10-00.ipynb`); undefined when no rule tells
 * them apart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(preferredCode("ch14-a", "work/ch14-a-Copy1.ipynb", "work/ch14-a.ipynb"), "work/ch14-a.ipynb");
 * assert.equal(preferredCode("ch14-a", "work/mine.ipynb", "work/theirs.ipynb"), undefined);
 * ```
 */
export function preferredCode(unit: string, first: string, second: string): string | undefined {
  const rules = [
    (path: string) => path.split("/").includes("work"),
    (path: string) => [`${unit}.ipynb`, `${unit}.ts`].includes(basename(path)),
    (path: string) => /^[^.]+\.(ipynb|ts)$/.test(basename(path)) && basename(path).startsWith(unit),
  ];
  for (const rule of rules) {
    if (rule(first) !== rule(second)) return rule(first) ? first : second;
  }
  return undefined;
}

/**
 * Of two copies of a unit's evidence, the one in the unit's own folder
 * (`work/ch14-a/` for Unit A's handoff, which Unit B copies into
 * `work/ch14-b/`), or undefined when neither or both are.
 */
function preferred(unit: string, first: string, second: string): string | undefined {
  const own = [first, second].filter((path) => basename(dirname(path)) === unit);
  return own.length === 1 ? own[0] : undefined;
}

type Read =
  | { unit: string; code: NonNullable<Submission["code"]> }
  | { unit: string; evidence: NonNullable<Submission["evidence"]> }
  | { unit: string; file: [Lab02File, string] }
  | { problem: string };

/**
 * What one file is. In a folder, files that are not the course's (JSON with
 * no `unit`, other extensions) are passed over; named on their own, they are
 * problems. `left` is what the grader may still read of this learner's files.
 */
async function readFile(
  path: string,
  unitOverride: string | undefined,
  named: boolean,
  left: { bytes: number },
): Promise<Read | undefined> {
  const lab02 = LAB_02_FILES[basename(path) as keyof typeof LAB_02_FILES];
  const extension = extensionOf(path);
  const course = [".json", ".ipynb", ".ts"].includes(extension);
  const { size } = course || lab02 !== undefined ? await Deno.stat(path) : { size: 0 };
  if (size > MAX_FILE_MB << 20) {
    return {
      problem: `is ${Math.ceil(size / (1 << 20))} MB, past the ${MAX_FILE_MB} MB a course ` +
        "file may be: not read (clear the notebook's outputs)",
    };
  }
  if (lab02 !== undefined && basename(dirname(path)) === "lab-02") {
    if (size > MAX_LAB_02_FILE_KB << 10) {
      return {
        problem: `is ${Math.ceil(size / (1 << 10))} KB, past the ${MAX_LAB_02_FILE_KB} KB a ` +
          "Lab 02 saved file may be: not read",
      };
    }
    return unitOverride === undefined || unitOverride === "lab-02"
      ? { unit: "lab-02", file: [lab02, path] }
      : undefined;
  }
  if (!course) {
    return named
      ? { problem: "not a submission JSON, a notebook (.ipynb) or a module (.ts)" }
      : undefined;
  }
  if (size > left.bytes) {
    return {
      problem:
        `not read: with it, this learner's files come to more than the ${MAX_LEARNER_MB} MB ` +
        "the grader reads of one learner",
    };
  }
  left.bytes -= size;
  const text = await Deno.readTextFile(path);
  if (extension === ".ts") {
    const unit = unitOverride ?? unitOfModule(text);
    if (unit === undefined) {
      return { problem: "cannot tell which unit this module is for: pass --unit" };
    }
    return { unit, code: { kind: "module", path } };
  }
  if (extension === ".ipynb") return readNotebook(path, text, unitOverride);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: "is not JSON" };
  }
  const unit = isObject(value) && typeof value.unit === "string" ? value.unit : undefined;
  if (unit === undefined) {
    return named ? { problem: "is not a submission: it names no unit" } : undefined;
  }
  const evidence = EVIDENCE.get(unit);
  if (evidence === undefined) {
    return { problem: `names unit ${JSON.stringify(unit)}, which the grader does not know` };
  }
  if (unitOverride !== undefined && unit !== unitOverride) {
    return { problem: `is for ${unit}, not the --unit ${unitOverride}` };
  }
  if (size > MAX_EVIDENCE_MB << 20) {
    return {
      problem: `is ${Math.ceil(size / (1 << 20))} MB, past the ${MAX_EVIDENCE_MB} MB a ` +
        "submission JSON may be: not read",
    };
  }
  const schemaProblem = await firstEvidenceProblem(evidence.kind, value);
  if (schemaProblem !== undefined) {
    return { problem: `does not match the ${evidence.kind} schema: ${schemaProblem}` };
  }
  return { unit, evidence: { path, text } };
}

/** A notebook, with the unit from its metadata, its file name, or `--unit`. */
function readNotebook(path: string, text: string, unitOverride: string | undefined): Read {
  let course: unknown;
  try {
    course = parseNotebook(text, path).metadata.course;
  } catch (error) {
    if (error instanceof NotebookError) return { problem: error.message.replace(`${path} `, "") };
    throw error;
  }
  const marked = isObject(course) ? course.unit : undefined;
  if (marked !== undefined && typeof marked !== "string") {
    return { problem: "its metadata names a unit that is not a string" };
  }
  const stem = basename(path).replace(/\.ipynb$/, "");
  const unit = unitOverride ?? marked ?? (UNITS.has(stem) ? stem : undefined);
  if (unit === undefined) {
    return { problem: "cannot tell which unit this notebook is for: pass --unit" };
  }
  if (!UNITS.has(unit)) {
    return { problem: `is for unit ${JSON.stringify(unit)}, which the grader does not know` };
  }
  return { unit, code: { kind: "notebook", path } };
}

/** The unit whose graded functions (or classes) a module exports, when exactly one unit matches. */
function unitOfModule(text: string): string | undefined {
  const matches = [...UNITS.values()].filter((spec) =>
    spec.functions.some((fn) =>
      new RegExp(`export\\s+(async\\s+)?(function|const|let|class)\\s+${fn.name}\\b`).test(text)
    )
  );
  return matches.length === 1 ? matches[0].unit : undefined;
}

/** The folders of a learner's copy of the course that hold their work. */
const WORK = ["notebooks", "work"];

/** Whether `entries` are a copy of the course's, whose folders other than {@linkcode WORK} are the course's own. */
function isCourseCopy(entries: readonly Deno.DirEntry[]): boolean {
  return WORK.every((name) => entries.some((entry) => entry.isDirectory && entry.name === name));
}

/** Whether `folder` holds course files itself, rather than one folder per learner. */
async function isLearnerFolder(folder: string): Promise<boolean> {
  for await (const entry of Deno.readDir(folder)) {
    if (entry.isDirectory && WORK.includes(entry.name)) return true;
    if (!entry.isFile) continue;
    const extension = extensionOf(entry.name);
    if (extension === ".ipynb" || extension === ".ts" || EVIDENCE_FILES.has(entry.name)) {
      return true;
    }
  }
  return false;
}

/** A learner's folder: where it is read from, and what the report calls it. */
interface LearnerFolder {
  path: string;
  name: string;
}

/**
 * The learners' folders in a class folder, sorted by name; anything else
 * there is a note. A folder whose name is not UTF-8 (as an archive from
 * another system may leave it), which Deno cannot open by name, is found by
 * its inode and read through a link to it ({@linkcode linkByInode}), under its
 * name with the bytes that are not UTF-8 written `\xHH`. Deno gives such a
 * name with U+FFFD for each of those bytes, the same for `café` in Latin-1
 * and `cafè`, and for a folder named `caf\uFFFD` in UTF-8: each of them is
 * a learner of their own. Each name is reported as {@linkcode shownText}
 * writes it, so that one name is never reported as another's.
 */
async function learnerFolders(root: string, found: Collected): Promise<LearnerFolder[]> {
  const folders: LearnerFolder[] = [];
  const odd = await namesNotUtf8(root);
  const unreadable = new Set(odd.map(({ read }) => read));
  for (const entry of await entriesOf(root, found.notes, unreadable)) {
    if (entry.isDirectory) {
      folders.push({ path: join(root, entry.name), name: join(root, shownText(entry.name)) });
    }
  }
  // A name Deno reads as one of those may also be a folder's name in UTF-8, which it opens.
  for (const read of unreadable) {
    if ((await Deno.lstat(join(root, read)).catch(() => undefined))?.isDirectory) {
      folders.push({ path: join(root, read), name: join(root, shownText(read)) });
    }
  }
  for (const { inode, name } of odd) {
    try {
      folders.push({ path: await linkByInode(root, inode, found), name: join(root, name) });
    } catch (error) {
      found.problems.push({
        path: join(root, name),
        problem: `cannot be read: ${(error as Error).message}`,
      });
    }
  }
  return folders.sort((a, b) => compare(a.name, b.name));
}

/** What is left of a learner's walk: how many more entries may be read, and whether it stopped short. */
interface Walk {
  left: number;
  cut: boolean;
}

/**
 * Every file under `folder`, at any depth, in sorted order, among the first
 * `walk.left` entries read; a folder that holds no work of the learner's is a
 * note, and one that cannot be read a problem (it may hold the learner's work).
 */
async function filesUnder(
  folder: string,
  problems: InputProblem[],
  notes: string[],
  walk: Walk,
): Promise<string[]> {
  const files: string[] = [];
  const entries = await entriesOf(folder, notes, new Set(), walk);
  const course = isCourseCopy(entries);
  if (course) {
    const others = entries.filter((entry) => entry.isDirectory && !WORK.includes(entry.name));
    if (others.length > 0) {
      notes.push(
        `skipped ${others.map((entry) => entry.name).join(", ")} in ${folder}: ` +
          "the course's own files beside the learner's notebooks/ and work/",
      );
    }
  }
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (course && entry.isDirectory && !WORK.includes(entry.name)) continue;
    const not = entry.isDirectory ? notTheLearners(folder, entry.name, entries) : undefined;
    if (not !== undefined) notes.push(`skipped ${path}: ${not}`);
    else if (entry.isDirectory && !walk.cut) {
      try {
        files.push(...await filesUnder(path, problems, notes, walk));
      } catch (error) {
        problems.push({
          path,
          problem: `cannot be read, so what it holds is not graded (${(error as Error).message})`,
        });
      }
    } else if (entry.isFile) files.push(path);
  }
  return files;
}

/**
 * Why the folder `name` among `siblings` in `parent` holds no work of the
 * learner's, or undefined when it may: the course's library that Lab 01
 * copies beside the learner's server (a `lib/` beside the server's
 * `import_map.json`), what `deno task starter` moved aside when the course
 * renumbered a unit (`work/UNIT.before-TIME/`, the old unit's saved work
 * under its old name), and what a handout or a worked edition saved when
 * run where it is (`work/handouts/`, `work/worked/`, lib/course/course.ts).
 */
function notTheLearners(
  parent: string,
  name: string,
  siblings: readonly Deno.DirEntry[],
): string | undefined {
  if (basename(parent) === "work" && (name === "handouts" || name === "worked")) {
    return "what a handout or a worked edition saved when run, not the learner's copy";
  }
  if (
    name === "lib" && siblings.some((entry) => entry.isFile && entry.name === "import_map.json")
  ) {
    return "the course's library, copied beside the learner's Lab 01 server";
  }
  if (/^[^.]+\.before-[^.]+$/.test(name)) {
    return "earlier work that deno task starter moved aside";
  }
  return undefined;
}

/**
 * The folders in `folder` whose names are not UTF-8: their inode, their name
 * with those bytes written `\xHH` ({@linkcode escapedBytes}), and the name
 * Deno reads for them (with U+FFFD for each of those bytes), which several
 * may share. Read with `find`, which hands the bytes over as they are.
 */
async function namesNotUtf8(
  folder: string,
): Promise<{ inode: string; name: string; read: string }[]> {
  const found: { inode: string; name: string; read: string }[] = [];
  const { code, stdout } = await new Deno.Command("find", {
    args: [folder, "-mindepth", "1", "-maxdepth", "1", "-type", "d", "-printf", "%i %f\\0"],
    stdout: "piped",
    stderr: "null",
  }).output().catch(() => ({ code: 1, stdout: new Uint8Array() }));
  if (code !== 0) return found;
  const strict = new TextDecoder("utf-8", { fatal: true });
  let start = 0;
  for (let end = stdout.indexOf(0); end !== -1; end = stdout.indexOf(0, start)) {
    const record = stdout.subarray(start, end);
    start = end + 1;
    const space = record.indexOf(32);
    const bytes = record.subarray(space + 1);
    try {
      strict.decode(bytes);
    } catch {
      found.push({
        inode: new TextDecoder().decode(record.subarray(0, space)),
        name: escapedBytes(bytes),
        read: new TextDecoder().decode(bytes),
      });
    }
  }
  return found;
}

/**
 * `bytes` as a learner's name is reported: every byte that is not UTF-8 as
 * `\xHH`, the rest as {@linkcode shownText} writes it, as composed when
 * every run of UTF-8 in it is.
 */
function escapedBytes(bytes: Uint8Array): string {
  const strict = new TextDecoder("utf-8", { fatal: true });
  const runs: (string | number)[] = [];
  for (let at = 0; at < bytes.length;) {
    const lead = bytes[at];
    const length = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 ? 2 : 0;
    try {
      if (length === 0) throw new TypeError("not a lead byte");
      const character = strict.decode(bytes.subarray(at, at + length));
      if (typeof runs.at(-1) === "string") runs[runs.length - 1] += character;
      else runs.push(character);
      at += length;
    } catch {
      runs.push(lead);
      at++;
    }
  }
  const composed = runs.every((run) => typeof run === "number" || run === run.normalize("NFC"));
  return runs.map((run) =>
    typeof run === "number" ? `\\x${run.toString(16).padStart(2, "0")}` : shownText(run, composed)
  ).join("");
}

/** The characters of a composed (NFC) name that are written as escapes: see {@linkcode shownText}. */
const UNSEEN =
  /[\\\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u1735\u2571\uff0f]|(?! )\p{Z}|(?![0-9])\p{N}|(?![+<=>|~])\p{Sm}/gu;
/** The characters of a name that is not composed that are written as escapes: all but printable ASCII. */
const NOT_PLAIN = /[^\x20-\x5b\x5d-\x7e]/gu;

/**
 * `name` as a learner's name is reported, so that no name reads as
 * another's: each backslash written `\x5c` (then `\x` only ever starts a
 * byte written by the grader, and no folder named with the characters
 * `caf\xe9` reads as a classmate's Latin-1 `café`); each character that
 * shows nothing or looks like a space (a zero-width space, a soft hyphen,
 * a no-break space) written `\u{HEX}`, and so is each that reads as a
 * mark's digits or slash and is not one (a digit of another script, a
 * fullwidth or superscript one, a fraction, a fraction or division slash):
 * `bob 40⁄40` never reads as `bob` with 40 of 40; and in a name that is not in
 * Unicode's composed form (NFC), every character but printable ASCII so
 * written, so that `José` decomposed (`e` and a combining accent) or `Åsa`
 * with the Ångström sign never reads as a classmate's `José` or `Åsa`. A
 * space at either end, or among two or more, is written `\u{20}`: the report
 * puts two spaces after a name, and `bob ` read as a second `bob` there,
 * `bob  40⁄40` (a fraction slash) as `bob` with full marks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(shownText("José"), "José");
 * assert.equal(shownText("Jose\u0301"), "Jose\\u{301}");
 * assert.equal(shownText("bob\u200b"), "bob\\u{200b}");
 * assert.equal(shownText("a\\b c"), "a\\x5cb c");
 * assert.equal(shownText(" bob  "), "\\u{20}bob\\u{20}\\u{20}");
 * assert.equal(shownText("bob  40 40"), "bob\\u{20}\\u{20}40 40");
 * assert.equal(shownText("bob 40\u204440"), "bob 40\\u{2044}40");
 * assert.equal(shownText("bob ４0"), "bob \\u{ff14}0");
 * ```
 */
export function shownText(name: string, composed = name === name.normalize("NFC")): string {
  return name.replace(
    composed ? UNSEEN : NOT_PLAIN,
    (character) => character === "\\" ? "\\x5c" : `\\u{${character.codePointAt(0)!.toString(16)}}`,
  ).replace(/^ +| +$| {2,}/g, (spaces) => "\\u{20}".repeat(spaces.length));
}

/**
 * A path Deno can open for the entry of `folder` with inode `inode`: a
 * symbolic link to it, made by `ln` (which `find` hands the name's bytes as
 * they are) in a folder of the grader's. The folder is read where it is,
 * as a folder named in UTF-8 is, within the same caps: a copy of it cost
 * the run all it held (8 GB of a video, a million files) before any cap.
 */
async function linkByInode(folder: string, inode: string, found: Collected): Promise<string> {
  found.links ??= tempFolder("grade-names-");
  const link = `${await Deno.makeTempDir({ dir: found.links })}/learner`;
  const { stderr } = await new Deno.Command("find", {
    args: [
      resolve(folder),
      "-mindepth",
      "1",
      "-maxdepth",
      "1",
      "-inum",
      inode,
      "-exec",
      "ln",
      "-s",
      "--",
      "{}",
      link,
      ";",
    ],
    stdout: "null",
    stderr: "piped",
  }).output();
  // find's status does not say whether ln made the link: a link that is not there says it.
  if (!(await Deno.lstat(link).catch(() => undefined))?.isSymlink) {
    throw new Error(new TextDecoder().decode(stderr).trim() || "it could not be found again");
  }
  return link;
}

/**
 * The entries of `folder` a learner's work may be in, sorted by name, each
 * name once: hidden entries (`.ipynb_checkpoints/`, `.git/`),
 * `node_modules/` and symbolic links are passed over, each with a note, and
 * the names in `notUtf8` (which the caller reads otherwise) without one.
 * Within a learner's `walk`, no more entries are read than it has left.
 */
async function entriesOf(
  folder: string,
  notes: string[],
  notUtf8: ReadonlySet<string> = new Set(),
  walk: Walk = { left: Infinity, cut: false },
): Promise<Deno.DirEntry[]> {
  const entries: Deno.DirEntry[] = [];
  const seen = new Set<string>();
  for await (const entry of Deno.readDir(folder)) {
    if (walk.left-- <= 0) {
      walk.cut = true;
      break;
    }
    const path = join(folder, entry.name);
    // Names that are not UTF-8 can read as one another, or as a name that is.
    if (notUtf8.has(entry.name) || seen.has(entry.name)) continue;
    seen.add(entry.name);
    if (entry.name.includes("\uFFFD") && !await exists(path)) {
      notes.push(`skipped ${path}: its name is not UTF-8 (rename it to grade it)`);
    } else if (entry.isSymlink) {
      notes.push(`skipped ${path}: a symbolic link (grade its target by name)`);
    } else if (entry.name.startsWith(".")) notes.push(`skipped ${path}: a hidden file or folder`);
    else if (entry.name === "node_modules") notes.push(`skipped ${path}: installed packages`);
    else entries.push(entry);
  }
  return entries.sort((a, b) => compare(a.name, b.name));
}

/** Whether `path` can be found by its name. */
async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** A stable order that does not depend on the locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function extensionOf(path: string): string {
  const name = basename(path);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot);
}
