/**
 * The course's own servers: how to start the teaching server in a mode, the
 * delivery server and Lab 02's grammar server, and how to read the log of
 * calls a server received.
 *
 * @module
 */

import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadEvidence } from "./evidence.ts";
import { sha256Hex } from "./manifest.ts";
import { tempFolder } from "./temp_folders.ts";
import { MCP_VERSIONS } from "../mcp/shared/versions.ts";

const ROOT = new URL("../../", import.meta.url);

/**
 * The folder where learners' work and the servers' logs are kept: `work/` in
 * the project; `work/worked/` for a worked edition (an instructors'
 * notebook, whose kernel runs in their worked editions' folder), so that an instructor's run never
 * overwrites a learner's files; `work/handouts/` for a handout run where it is (`notebooks/`),
 * so that a learner who opens one never overwrites what their own copy saved; or the folder
 * named by the `COURSE_WORK` environment variable (the tests and the autograder give each run a
 * folder of its own).
 */
export const WORK = workFolder();

function workFolder(): URL {
  let chosen: string | undefined;
  try {
    chosen = Deno.env.get("COURSE_WORK");
  } catch {
    // Without permission to read the environment, the default stands.
  }
  if (chosen === undefined || chosen === "") {
    if (runsIn("solutions")) return new URL("work/worked/", ROOT);
    return new URL(runsIn("notebooks") ? "work/handouts/" : "work/", ROOT);
  }
  return pathToFileURL(resolve(chosen) + "/");
}

/**
 * Whether this code runs in the course's `folder`, as the kernel of a notebook there does (the
 * worked editions' `solutions`, the handouts' `notebooks`).
 */
function runsIn(folder: string): boolean {
  try {
    return Deno.realPathSync(Deno.cwd()) === Deno.realPathSync(new URL(folder, ROOT));
  } catch {
    return false; // without permission to read the folders, the default stands
  }
}

/**
 * The command that starts the teaching server in `mode`, appending each call
 * it receives to `log`. The server may write only its log (and, in the
 * lingering mode, its grandchild's pid file, and start `sleep`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const command = serverCommand("hang", "/tmp/hang.jsonl");
 * assert.equal(command[0], Deno.execPath());
 * assert.ok(command.includes("--allow-write=/tmp/hang.jsonl"));
 * ```
 */
export function serverCommand(mode: string, log: string): string[] {
  flagPath(log);
  const permissions = mode === "lingering"
    ? [`--allow-write=${log},${log}.grandchild`, "--allow-run=sleep"]
    : [`--allow-write=${log}`];
  return [
    Deno.execPath(),
    "run",
    "--no-config",
    "--quiet",
    ...permissions,
    fileURLToPath(new URL("servers/teaching.ts", ROOT)),
    "--mode",
    mode,
    "--log",
    log,
  ];
}

/**
 * The command that starts Lab 04's server (`servers/inflight.ts`, many
 * requests at once) in `mode`, appending each call and cancellation it
 * receives to `log`, which is all it may write.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const command = inflightCommand("reversed", "/tmp/inflight.jsonl");
 * assert.deepEqual(command.slice(-4), ["--mode", "reversed", "--log", "/tmp/inflight.jsonl"]);
 * ```
 */
export function inflightCommand(mode: string, log: string): string[] {
  flagPath(log);
  return [
    Deno.execPath(),
    "run",
    "--no-config",
    "--quiet",
    `--allow-write=${log}`,
    fileURLToPath(new URL("servers/inflight.ts", ROOT)),
    "--mode",
    mode,
    "--log",
    log,
  ];
}

/**
 * The command that starts the delivery server (`record_delivery`), appending
 * each call it receives to `log`, which is all it may write.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(deliveryCommand("/tmp/d.jsonl").at(-3)!.endsWith("servers/delivery.ts"));
 * ```
 */
export function deliveryCommand(log: string): string[] {
  flagPath(log);
  return [
    Deno.execPath(),
    "run",
    "--no-config",
    "--quiet",
    `--allow-write=${log}`,
    fileURLToPath(new URL("servers/delivery.ts", ROOT)),
    "--log",
    log,
  ];
}

/** Options for {@linkcode grammarCommand}: the era the grammar server speaks. */
export interface GrammarCommandOptions {
  /**
   * The protocol versions it speaks, newest first, served as the library's
   * `ServerSession` serves both eras (`--versions`).
   * @default {undefined} (the handshake era: 2025-06-18 and 2024-11-05, -32601 for `server/discover`)
   */
  versions?: readonly string[];
  /** It answers nothing before `initialize` (`--silent-before-initialize`). @default {false} */
  silentBeforeInitialize?: boolean;
}

/**
 * The command that starts Lab 02's grammar server, which needs no permission
 * at all, so it gets none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const command = grammarCommand();
 * assert.equal(command[0], Deno.execPath());
 * assert.ok(command.at(-1)!.endsWith("servers/grammar.ts"));
 * assert.ok(!command.some((part) => part.startsWith("--allow")));
 * assert.deepEqual(grammarCommand({ versions: ["2026-07-28", "2025-06-18"] }).slice(-2), ["--versions", "2026-07-28,2025-06-18"]);
 * ```
 */
export function grammarCommand(options: GrammarCommandOptions = {}): string[] {
  return [
    Deno.execPath(),
    "run",
    "--no-config",
    "--quiet",
    fileURLToPath(new URL("servers/grammar.ts", ROOT)),
    ...(options.versions === undefined ? [] : ["--versions", options.versions.join(",")]),
    ...(options.silentBeforeInitialize ? ["--silent-before-initialize"] : []),
  ];
}

/**
 * The grammar server Lab 02 starts when the learner's own is not at hand:
 * `servers/grammar.ts` speaking every version of both eras, today's
 * (2026-07-28) first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MCP_VERSIONS } from "../mcp/shared/versions.ts";
 *
 * assert.deepEqual(dualEraGrammarCommand().slice(-2), ["--versions", MCP_VERSIONS.join(",")]);
 * ```
 */
export function dualEraGrammarCommand(): string[] {
  return grammarCommand({ versions: MCP_VERSIONS });
}

/**
 * The command that starts a learner's Lab 01 server module, which needs no
 * permission at all, so it gets none: no remote or npm module either, and
 * modules only from its own folder, through the import map beside it
 * (`import_map.json`, which sends every other file elsewhere: Deno's
 * permissions do not cover imports).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const command = learnerServerCommand("/tmp/lab 01/grammar_server.mts");
 * assert.equal(command.at(-1), "/tmp/lab 01/grammar_server.mts");
 * assert.ok(command.includes("--import-map=/tmp/lab 01/import_map.json"));
 * assert.ok(command.includes("--no-remote") && command.includes("--cached-only"));
 * assert.ok(!command.some((part) => part.startsWith("--allow")));
 * ```
 */
export function learnerServerCommand(module: string): string[] {
  const folder = module.slice(0, module.lastIndexOf("/"));
  return [
    Deno.execPath(),
    "run",
    "--no-config",
    "--no-prompt",
    "--quiet",
    "--no-remote",
    "--no-npm",
    "--cached-only",
    `--import-map=${folder}/import_map.json`,
    module,
  ];
}

/**
 * The import map that lets a module in `folder` (a folder URL) load modules
 * from that folder and nowhere else.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const map = folderOnlyImportMap(new URL("file:///tmp/lab/"));
 * assert.equal(map.imports["file:///tmp/lab/"], "file:///tmp/lab/");
 * assert.ok(map.imports["file:///"].startsWith("file:///nonexistent"));
 * ```
 */
export function folderOnlyImportMap(folder: URL): { imports: Record<string, string> } {
  return {
    imports: {
      "file:///": "file:///nonexistent-outside-the-server-folder/",
      [folder.href]: folder.href,
    },
  };
}

/** Which grammar server Lab 02 talks to, and why. */
export interface GrammarServerChoice {
  command: string[];
  /** `learner` when it is the learner's own Lab 01 server, `reference` for `servers/grammar.ts`. */
  source: "learner" | "reference";
  /** Why this one, in a sentence. */
  why: string;
}

/**
 * The grammar server for Lab 02: the learner's own, from Lab 01, when its
 * saved evidence (`work/lab-01/lab-01-submission-v1.json`) matches its
 * schema, says PASSED, and names a module whose SHA-256 is still the one the
 * clients judged; otherwise the course's reference server, of both eras
 * ({@linkcode dualEraGrammarCommand}), saying why.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const choice = await grammarServerForLab02({ folder: new URL("file:///nonexistent/lab-01/") });
 * assert.equal(choice.source, "reference");
 * assert.deepEqual(choice.command, dualEraGrammarCommand());
 * ```
 */
export async function grammarServerForLab02(
  options: { folder?: URL } = {},
): Promise<GrammarServerChoice> {
  const folder = options.folder ?? new URL("lab-01/", WORK);
  const reference = (why: string): GrammarServerChoice => ({
    command: dualEraGrammarCommand(),
    source: "reference",
    why: `the course's own, servers/grammar.ts, speaking both eras: ${why}`,
  });
  const saved = new URL("lab-01-submission-v1.json", folder);
  if (!await Deno.stat(saved).then(() => true, () => false)) {
    return reference("Lab 01 has saved no evidence here yet");
  }
  let evidence;
  try {
    evidence = await loadEvidence(saved, "lab-01-submission");
  } catch (error) {
    return reference(`no Lab 01 evidence to trust: ${(error as Error).message}`);
  }
  const server = evidence.server as { module: string; sha256: string } | null;
  if (evidence.status !== "PASSED" || server === null) {
    return reference(`Lab 01's evidence says ${evidence.status}`);
  }
  const module = new URL(server.module, folder);
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await Deno.readFile(module);
  } catch {
    return reference(`Lab 01's server module ${server.module} is gone`);
  }
  if (await sha256Hex(bytes) !== server.sha256) {
    return reference(`${server.module} has changed since Lab 01's clients judged it`);
  }
  return {
    command: learnerServerCommand(fileURLToPath(module)),
    source: "learner",
    why: `your own server from Lab 01 (${server.module}), which passed all its judges`,
  };
}

/** One call a course server received. */
export interface ServerCall {
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * The calls recorded in `log`, in the order the server received them. Throws
 * `SyntaxError` naming the line when the log holds something other than calls.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const log = await freshLog("doc-server-calls");
 * await Deno.writeTextFile(log, '{"name":"word_count","arguments":{"text":"a b"}}\n');
 * assert.deepEqual(await serverCalls(log), [{ name: "word_count", arguments: { text: "a b" } }]);
 * ```
 */
export async function serverCalls(log: string): Promise<ServerCall[]> {
  const text = await Deno.readTextFile(log);
  return text.split("\n").filter((line) => line !== "").map((line, index) => {
    let call: unknown;
    try {
      call = JSON.parse(line);
    } catch {
      throw new SyntaxError(`Line ${index + 1} of ${log} is not JSON`);
    }
    if (!isCall(call)) {
      throw new SyntaxError(`Line ${index + 1} of ${log} is not a call with a name and arguments`);
    }
    return call;
  });
}

/**
 * A new, empty log file under `work/logs/` named for `name` (any log of that
 * name, and its grandchild file, is replaced), ready for the server to append
 * to. When the work folder's path holds a comma, which no Deno permission
 * flag can name, the logs go to a temporary folder of this process instead.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const log = await freshLog("doc-fresh-log");
 * assert.deepEqual(await serverCalls(log), []);
 * ```
 */
export async function freshLog(name: string): Promise<string> {
  if (!/^[\w.-]+$/.test(name)) {
    throw new TypeError(`A log name may hold only letters, digits, "_", "." and "-": ${name}`);
  }
  const folder = await logFolder();
  const log = fileURLToPath(new URL(`${name}.jsonl`, folder));
  await Deno.writeTextFile(log, "");
  await Deno.remove(`${log}.grandchild`).catch(() => {});
  return log;
}

function isCall(value: unknown): value is ServerCall {
  return typeof value === "object" && value !== null &&
    typeof (value as ServerCall).name === "string" &&
    typeof (value as ServerCall).arguments === "object" && (value as ServerCall).arguments !== null;
}

let logs: URL | undefined;

/** Where this process keeps its servers' logs: `work/logs/`, unless a flag could not name it. */
async function logFolder(): Promise<URL> {
  if (logs === undefined) {
    const inWork = new URL("logs/", WORK);
    logs = fileURLToPath(inWork).includes(",")
      ? pathToFileURL(`${tempFolder("course-logs-")}/`)
      : inWork;
  }
  await Deno.mkdir(logs, { recursive: true });
  return logs;
}

/**
 * Throw `TypeError` for a path a Deno permission flag cannot name: flags
 * split their values at commas, with no way to escape one.
 */
function flagPath(path: string): void {
  if (path.includes(",")) {
    throw new TypeError(`A Deno permission flag cannot name a path with a comma in it: ${path}`);
  }
}
