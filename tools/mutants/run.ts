/**
 * Mutation testing of every graded function's worked solution: StrykerJS
 * makes the mutants (its mutant schemata, in the worked code only) and runs
 * the judge ({@linkcode judgeMutant}) once per mutant, which grades it as the
 * grader grades a learner. Each mutant comes back killed by a visible case,
 * killed by hidden cases only, surviving, or an error of the run itself.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import type { SandboxOptions } from "../grading/sandbox.ts";
import { UNITS } from "../grading/units/mod.ts";
import { JUDGE_PATH, type JudgeConfig, type Judged } from "./judge.ts";
import { type SolutionModule, solutionModule, workedNotebooks } from "./sources.ts";

/** Options for {@linkcode runMutants}. */
export interface MutantsOptions {
  /** The units whose functions are mutated. @default {every unit the grader knows} */
  units?: readonly string[];
  /** Only these functions' worked code is mutated. @default {every graded function} */
  functions?: readonly string[];
  /** Cases left out of the judging, as `unit/function/label`. @default {[]} */
  leaveOut?: readonly string[];
  /** Mutants judged at a time. @default {the number of CPUs} */
  concurrency?: number;
  /** The sandbox's options. @default {the grader's defaults} */
  sandbox?: SandboxOptions;
}

/** One mutant of a worked solution, and what the cases made of it. */
export interface MutantOutcome {
  unit: string;
  fn: string;
  /** StrykerJS's mutator, such as `EqualityOperator`. */
  mutator: string;
  /** The worked code it replaced, on one line. */
  original: string;
  replacement: string;
  /** Its line in the unit's graded cells, counted from the function's first worked line. */
  line: number;
  /**
   * `visible`: a visible case fails on it; `hidden`: only hidden cases do;
   * `survived`: every case passes; `error`: the run could not judge it.
   */
  status: "visible" | "hidden" | "survived" | "error";
  /** The cases it fails, as `function: label` (hidden ones marked), or what went wrong. */
  detail: string[];
}

/** The part of StrykerJS's result for one mutant that the run reads. */
interface StrykerMutant {
  id: string;
  fileName: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  statusReason?: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}

const STRYKER = fileURLToPath(new URL("./stryker.ts", import.meta.url));
const CONFIG = fileURLToPath(new URL("../../deno.json", import.meta.url));

/**
 * Mutate the worked solutions selected by `options` and judge every mutant.
 * Throws when StrykerJS cannot run, or when the worked solutions themselves
 * fail a case (then no mutant could be judged).
 *
 * @example
 * ```ts ignore
 * const outcomes = await runMutants({ functions: ["authorize"] });
 * console.log(outcomes.filter((outcome) => outcome.status === "survived"));
 * ```
 */
export async function runMutants(options: MutantsOptions = {}): Promise<MutantOutcome[]> {
  const notebooks = await workedNotebooks();
  const modules: SolutionModule[] = [];
  for (const unit of options.units ?? [...UNITS.keys()]) {
    const spec = UNITS.get(unit);
    if (spec === undefined) throw new Error(`no unit ${unit}; known: ${[...UNITS.keys()]}`);
    const notebook = notebooks.get(unit);
    if (notebook === undefined) throw new Error(`no worked notebook in solutions/ for ${unit}`);
    const module = solutionModule(spec, notebook);
    const lines = module.lines.filter((range) => options.functions?.includes(range.fn) ?? true);
    if (lines.length > 0) modules.push({ ...module, lines });
  }
  if (modules.length === 0) throw new Error(`no graded function among ${options.functions}`);

  const folder = await Deno.makeTempDir({ prefix: "mutants-" });
  try {
    const project = `${folder}/project`;
    const results = `${folder}/results`;
    await Deno.mkdir(project);
    await Deno.mkdir(results);
    const config: JudgeConfig = {
      results,
      modules: Object.fromEntries(modules.map(({ unit }) => [unit, `${unit}.ts`])),
      leaveOut: [...options.leaveOut ?? []],
      sandbox: options.sandbox ?? {},
    };
    for (const { unit, text } of modules) await Deno.writeTextFile(`${project}/${unit}.ts`, text);
    await Deno.writeTextFile(`${project}/mutants.json`, JSON.stringify(config));
    const mutants = await stryker(project, `${results}/stryker.json`, {
      mutate: modules.flatMap(({ unit, lines }) =>
        lines.map(({ start, end }) => `${unit}.ts:${start}-${end}`)
      ),
      concurrency: options.concurrency ?? navigator.hardwareConcurrency,
    });
    const outcomes: MutantOutcome[] = [];
    for (const mutant of mutants) {
      const module = modules.find(({ unit }) => mutant.fileName.endsWith(`/${unit}.ts`))!;
      outcomes.push(await outcomeOf(mutant, { module, results }));
    }
    return outcomes;
  } finally {
    await Deno.remove(folder, { recursive: true }).catch(() => {});
  }
}

/** Run StrykerJS in `project` with the judge as its command; every mutant's result. */
async function stryker(
  project: string,
  resultsFile: string,
  options: { mutate: string[]; concurrency: number },
): Promise<StrykerMutant[]> {
  const judge = [
    Deno.execPath(),
    "run",
    "--no-prompt",
    // The project's imports: Chapter 15's cases run the intruder, whose client needs npm packages.
    `--config=${CONFIG}`,
    // The grader's sandbox watches its memory in /proc, which Deno opens only with --allow-all.
    "--allow-all",
    JUDGE_PATH,
  ].map(quoted).join(" ");
  const strykerOptions = {
    ...options,
    testRunner: "command",
    commandRunner: { command: judge },
    reporters: [],
    plugins: [],
    checkers: [],
    logLevel: "warn",
    fileLogLevel: "off",
    allowConsoleColors: false,
    tempDirName: ".stryker-tmp",
    cleanTempDir: "always",
    // The judge's sandbox stops any case that runs too long: StrykerJS need not.
    timeoutMS: 300_000,
    incremental: false,
  };
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      `--config=${CONFIG}`,
      STRYKER,
      JSON.stringify(strykerOptions),
      resultsFile,
    ],
    cwd: project,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    const said = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
    throw new Error(`StrykerJS did not finish (exit ${code}):\n${said.trim().slice(-4000)}`);
  }
  return JSON.parse(await Deno.readTextFile(resultsFile));
}

/** What the cases made of `mutant` of `module`, from StrykerJS's result and the judge's record. */
async function outcomeOf(
  mutant: StrykerMutant,
  { module, results }: { module: SolutionModule; results: string },
): Promise<MutantOutcome> {
  const { start, end } = mutant.location;
  const range = module.lines.find((range) => range.start <= start.line && start.line <= range.end)!;
  const lines = module.text.split("\n").slice(start.line - 1, end.line);
  lines[lines.length - 1] = lines[lines.length - 1].slice(0, end.column - 1);
  lines[0] = lines[0].slice(start.column - 1);
  const outcome: MutantOutcome = {
    unit: module.unit,
    fn: range.fn,
    mutator: mutant.mutatorName,
    original: oneLine(lines.join("\n")),
    replacement: oneLine(mutant.replacement ?? ""),
    line: start.line - range.start + 1,
    status: "error",
    detail: [],
  };
  let judged: Judged | undefined;
  try {
    judged = JSON.parse(await Deno.readTextFile(`${results}/mutant-${mutant.id}.json`));
  } catch {
    // Not judged: StrykerJS's status says why.
  }
  if (judged === undefined || !judged.units.includes(module.unit)) {
    outcome.detail = [`not judged: StrykerJS says ${mutant.status} ${mutant.statusReason ?? ""}`];
  } else if (mutant.status === "Survived" && judged.failed.length === 0) {
    outcome.status = "survived";
  } else if (mutant.status === "Killed" && judged.failed.length > 0) {
    outcome.status = judged.failed.some((failed) => !failed.hidden) ? "visible" : "hidden";
    outcome.detail = judged.failed.map((failed) =>
      `${failed.fn}: ${failed.hidden ? "(hidden) " : ""}${failed.case}`
    );
  } else {
    outcome.detail = [
      `StrykerJS says ${mutant.status}, the judge saw ${judged.failed.length} fail`,
    ];
  }
  return outcome;
}

/** `text` with its runs of white space made one space. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** `word` quoted for the shell that StrykerJS runs its command in. */
function quoted(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
