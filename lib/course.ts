/**
 * The course's own servers: how to start the teaching server in a mode, the
 * delivery server and Lab 02's grammar server, and how to read the log of
 * calls a server received.
 *
 * @module
 */

const ROOT = new URL("../", import.meta.url);

/**
 * The folder where learners' work and the servers' logs are kept: `work/` in
 * the project; `work/worked/` for a worked edition (a notebook in
 * `solutions/`, whose kernel runs there), so that an instructor's run never
 * overwrites a learner's files; or the folder named by the `COURSE_WORK`
 * environment variable (the tests and the autograder give each run a folder
 * of its own).
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
    return new URL(inSolutions() ? "work/worked/" : "work/", ROOT);
  }
  return new URL(chosen.endsWith("/") ? chosen : `${chosen}/`, `file://${Deno.cwd()}/`);
}

/** Whether this code runs in `solutions/`, as a worked edition's kernel does. */
function inSolutions(): boolean {
  try {
    return Deno.realPathSync(Deno.cwd()) === Deno.realPathSync(new URL("solutions", ROOT));
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
  const permissions = mode === "lingering"
    ? [`--allow-write=${log},${log}.grandchild`, "--allow-run=sleep"]
    : [`--allow-write=${log}`];
  return [
    Deno.execPath(),
    "run",
    "--no-config",
    "--quiet",
    ...permissions,
    new URL("servers/teaching.ts", ROOT).pathname,
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
  return [
    Deno.execPath(),
    "run",
    "--no-config",
    "--quiet",
    `--allow-write=${log}`,
    new URL("servers/delivery.ts", ROOT).pathname,
    "--log",
    log,
  ];
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
 * ```
 */
export function grammarCommand(): string[] {
  return [
    Deno.execPath(),
    "run",
    "--no-config",
    "--quiet",
    new URL("servers/grammar.ts", ROOT).pathname,
  ];
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
 * name, and its grandchild file, is replaced), ready for the server to append to.
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
  const folder = new URL("logs/", WORK);
  await Deno.mkdir(folder, { recursive: true });
  const log = new URL(`${name}.jsonl`, folder).pathname;
  await Deno.writeTextFile(log, "");
  await Deno.remove(`${log}.grandchild`).catch(() => {});
  return log;
}

function isCall(value: unknown): value is ServerCall {
  return typeof value === "object" && value !== null &&
    typeof (value as ServerCall).name === "string" &&
    typeof (value as ServerCall).arguments === "object" && (value as ServerCall).arguments !== null;
}
