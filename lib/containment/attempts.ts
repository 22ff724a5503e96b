/**
 * Chapter 15's escape attempts, and how each is observed: start the intruder
 * in one mode under one layer (none, Deno's permissions, bubblewrap), ask it
 * to count the words of `note.txt`, and let a witness decide whether its
 * attempt succeeded: a canary's token coming back on the wire, a listener's
 * count of connections, a file's content, the process table. The server's
 * own account is kept beside, never used. Whatever happens, the server and
 * anything it started are ended before an observation is returned.
 *
 * @module
 */

import { basename } from "node:path";
import { Client } from "../mcp/client/client.ts";
import type { ClientOptions } from "../mcp/client/client_options.ts";
import { INTRUDER_LINE, type IntruderMode } from "../../servers/intruder.ts";
import { LIMITS } from "./policy.ts";
import type { Listener, Playground } from "./playground.ts";
import {
  commandLine,
  cpuSeconds,
  endMarked,
  family,
  markedProcesses,
  peakMemoryBytes,
} from "./process_table.ts";

/** Where the intruder runs: with nothing around it, under Deno's permissions, or in bubblewrap. */
export type Layer = "none" | "deno" | "bubblewrap";

/** What decides whether an attempt succeeded. */
export type Witness = "canary" | "listener" | "file system" | "process table" | "PID namespace";

/** One thing the intruder tries. */
export interface Attempt {
  /** What it tries, in a few words. */
  name: string;
  mode: IntruderMode;
  /** What the intruder is given as `--target`. */
  target: string;
  witness: Witness;
  /** For a canary: the token that proves the secret was read. */
  token?: string;
  /** For a connection: the listener that counts it. */
  listener?: Listener;
  /** Memory and CPU: stopped by limits, not by permissions. */
  resource?: boolean;
}

/** What a witness saw of one attempt under one layer. */
export interface Observation {
  attempt: string;
  layer: Layer;
  outcome: "succeeded" | "refused";
  /** What stopped it: the layer's part that did, or `null` when nothing did. */
  by: "deno" | "bubblewrap" | "prlimit" | null;
  witness: Witness;
  /** What the witness saw, in words. */
  saw: string;
  /** What `word_count` on `note.txt` answered, or the error the call ended in. */
  answer: string;
  /** The server's own account of its attempt (never evidence). */
  server_said: string;
}

/** An observation as a table row, with a verdict: `as expected`, or `UNEXPECTED`. */
export type ObservationRow = Observation & { verdict: string };

/**
 * `observations` as table rows, each judged against the outcome expected
 * (every attempt succeeds without a boundary, and is refused with one) and
 * against the tool's answer, which must stay `4`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const seen = { attempt: "a", layer: "deno", outcome: "refused", by: "deno", witness: "canary", saw: "", answer: "4", server_said: "" } as const;
 * assert.equal(judged([seen], "refused")[0].verdict, "as expected");
 * assert.equal(judged([{ ...seen, answer: "ToolError" }], "refused")[0].verdict, "UNEXPECTED");
 * ```
 */
export function judged(
  observations: readonly Observation[],
  expected: Observation["outcome"],
): ObservationRow[] {
  return observations.map((observation) => ({
    ...observation,
    verdict: observation.outcome === expected && observation.answer === "4"
      ? "as expected"
      : "UNEXPECTED",
  }));
}

/**
 * Judged rows as a table shows them, narrow enough to read: what was tried,
 * how it came out and what stopped it, what the witness saw, the tool's
 * answer, and the verdict (the server's own account, never evidence, is
 * shown apart).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const seen = { attempt: "a", layer: "none", outcome: "succeeded", by: null, witness: "listener", saw: "", answer: "4", server_said: "" } as const;
 * assert.deepEqual(Object.keys(shown(judged([seen], "succeeded"))[0]).at(-1), "verdict");
 * ```
 */
export function shown(rows: readonly ObservationRow[]): Record<string, unknown>[] {
  return rows.map(({ attempt, outcome, by, witness, saw, answer, verdict }) => ({
    attempt,
    outcome: by === null ? outcome : `${outcome} by ${by}`,
    "the witness saw": `${witness}: ${saw}`,
    word_count: answer,
    verdict,
  }));
}

/** How much memory the memory attempt fills. */
export const MEMORY_ATTEMPT_BYTES = 768 << 20;

/**
 * The eight attempts of the lesson, on `playground`'s secrets, profile and
 * listener.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Playground } from "./playground.ts";
 *
 * await using playground = await Playground.create();
 * assert.equal(attemptsOn(playground).length, 8);
 * ```
 */
export function attemptsOn(playground: Playground): Attempt[] {
  const { secret, variable, profile, listener } = playground;
  return [
    {
      name: "read a private key in the home folder",
      mode: "read-file",
      target: secret.where,
      witness: "canary",
      token: secret.token,
    },
    {
      name: "read a secret variable",
      mode: "read-env",
      target: variable.where,
      witness: "canary",
      token: variable.token,
    },
    { name: "plant a line in ~/.bashrc", mode: "write", target: profile, witness: "file system" },
    {
      name: "connect to a port on this machine",
      mode: "connect",
      target: String(listener.port),
      witness: "listener",
      listener,
    },
    {
      name: "start a shell that reads the key",
      mode: "spawn",
      target: secret.where,
      witness: "canary",
      token: secret.token,
    },
    { name: "outlive the server (setsid)", mode: "setsid", target: "", witness: "process table" },
    {
      name: "fill 768 MiB of memory",
      mode: "memory",
      target: String(MEMORY_ATTEMPT_BYTES),
      witness: "process table",
      resource: true,
    },
    {
      name: "use more CPU than allowed",
      mode: "cpu",
      target: "",
      witness: "process table",
      resource: true,
    },
  ];
}

/**
 * Options for {@linkcode observe}; the reply and allowlist checks are given to
 * its `Client` (the notebook gives the learner's Unit A functions, the grader
 * its own: see `effect.ts`). @default {the library's answerFor and authorize}
 */
export interface ObserveOptions extends Pick<ClientOptions, "answer" | "authorize"> {
  /** The CPU the policy allows, in seconds: using more is the CPU attempt's success. @default {LIMITS.cpuSeconds} */
  cpuSeconds?: number;
  /** The deadline for each request to the server. @default {30000} */
  timeoutMs?: number;
}

/**
 * How long a process the attempt started may take to end once the server
 * has: a sandbox's own processes end within moments of its outer process,
 * and only one still running after this has outlived the server.
 */
const SETTLE_MS = 2000;

/**
 * Start the intruder with `launch(args)` (the layer's command around the
 * intruder's arguments), make `attempt`, ask `word_count` for `note.txt`,
 * and report what the attempt's witness saw. The layer's name only labels
 * the result. Any process the attempt left behind is ended first.
 */
export async function observe(
  attempt: Attempt,
  layer: Layer,
  launch: (args: string[]) => string[],
  playground: Playground,
  options: ObserveOptions = {},
): Promise<Observation> {
  const mark = playground.mark();
  const args = ["--mode", attempt.mode, "--data", playground.data, "--target", attempt.target];
  const before = attempt.witness === "file system" ? await contents(attempt.target) : undefined;
  const connections = attempt.listener?.connections ?? 0;
  const wire: string[] = [];
  const client = new Client(launch([...args, "--mark", mark]), {
    answer: options.answer,
    authorize: options.authorize,
    allowed: ["word_count"],
    timeoutMs: options.timeoutMs ?? 30_000,
    graceMs: 300,
    env: { [playground.variable.where]: playground.variable.token },
    transcript: (_, line) => wire.push(line),
  });
  let answer: string;
  let saw = "";
  let succeeded = false;
  let capabilities: string | undefined;
  let outer: string[] = [];
  try {
    try {
      await client.initialize();
      await client.listTools();
      answer = await client.callTool("word_count", { file: "note.txt" });
    } catch (error) {
      answer = `${(error as Error).name}: ${(error as Error).message}`;
    }
    if (attempt.mode === "memory") {
      const peak = Math.max(0, ...intruders(client.pid).map((pid) => peakMemoryBytes(pid) ?? 0));
      succeeded = peak >= MEMORY_ATTEMPT_BYTES;
      saw = `the server's resident memory peaked at ${mebibytes(peak)}`;
    } else if (attempt.mode === "cpu") {
      [succeeded, saw] = await watchCpu(client.pid, options.cpuSeconds ?? LIMITS.cpuSeconds);
    } else if (attempt.mode === "remount") {
      capabilities = intruders(client.pid).map((pid) => statusField(pid, "CapEff") ?? "")
        .find((held) => /[1-9a-f]/.test(held));
    } else if (attempt.mode === "proc") {
      // The server's PID in each namespace it is in, outermost first: any but its own (the
      // last) can come back on the wire only from a /proc of an outer namespace.
      const [intruder] = intruders(client.pid);
      outer = (statusField(intruder, "NSpid") ?? "").split(/\s+/).slice(0, -1);
    } else if (attempt.mode === "setsid") {
      saw = markedProcesses(mark).length > 0
        ? "a process started in a session of its own"
        : "no such process ever started";
    }
  } finally {
    await client.close();
  }
  // bubblewrap's sandbox ends after its outer process, which close() waited for: what it ends
  // goes within moments (longer on a busy machine); what outlives SETTLE_MS has escaped it.
  const settled = Date.now() + SETTLE_MS;
  while (markedProcesses(mark).length > 0 && Date.now() < settled) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const escaped = await endMarked(mark);
  if (attempt.mode === "setsid") {
    succeeded = escaped.length > 0;
    saw += succeeded
      ? `, and outlived the server (pid ${escaped.join(", ")}: this unit ended it)`
      : saw.startsWith("a process")
      ? ", and ended with the server"
      : "";
  } else if (attempt.witness === "canary") {
    succeeded = wire.some((line) => line.includes(attempt.token!));
    saw = succeeded ? "the secret's token came back on the wire" : "the token never showed";
  } else if (attempt.witness === "listener") {
    const accepted = attempt.listener!.connections - connections;
    succeeded = accepted > 0;
    saw = `the listener accepted ${accepted} connection(s)`;
  } else if (attempt.witness === "file system") {
    const after = await contents(attempt.target);
    succeeded = after?.includes(INTRUDER_LINE) ?? false;
    saw = succeeded ? "the file now holds the intruder's line" : "the file is as it was";
    await restore(attempt.target, before);
    if (capabilities !== undefined) {
      succeeded = true;
      saw += `, and the server held capabilities (CapEff ${capabilities})`;
    }
  } else if (attempt.witness === "PID namespace") {
    const seen = outer.filter((pid) =>
      wire.some((line) => new RegExp(`self=${pid}(?!\\d)`).test(line))
    );
    succeeded = seen.length > 0;
    saw = succeeded
      ? `its PID in an outer namespace (${
        seen[0]
      }) came back on the wire: a /proc shows more than its own`
      : "every /proc in sight was its own namespace's";
  }
  const said = client.stderrLines().findLast((line) => line.startsWith("intruder: "));
  return {
    attempt: attempt.name,
    layer,
    outcome: succeeded ? "succeeded" : "refused",
    by: succeeded || layer === "none" ? null : attempt.resource ? "prlimit" : layer,
    witness: attempt.witness,
    saw,
    answer,
    server_said: said?.replace(/^intruder: [\w-]+: /, "") ?? "",
  };
}

/**
 * The intruder's own process among `pid` and its descendants (not bwrap or
 * prlimit around it, nor what enters the grader's throw-away root).
 */
function intruders(pid: number): number[] {
  return family(pid).filter((member) => {
    const command = commandLine(member);
    return command.some((part) => part.endsWith("servers/intruder.ts")) &&
      !["bwrap", "prlimit", "nsenter", "setpriv"].includes(basename(command[0] ?? ""));
  });
}

/**
 * Watch the intruder's CPU time until it passes `limit` seconds (the attempt
 * succeeded) or the intruder is gone (something ended it), for at most 30 s.
 */
async function watchCpu(pid: number, limit: number): Promise<[boolean, string]> {
  const [intruder] = intruders(pid);
  if (intruder === undefined) return [false, "the server was already gone"];
  let used = 0;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const now = cpuSeconds(intruder);
    if (now === undefined) {
      return [false, `the server was ended after about ${used.toFixed(1)} s of CPU`];
    }
    used = now;
    if (used > limit + 0.2) {
      return [true, `the server used ${used.toFixed(1)} s of CPU, and went on`];
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return [false, `the server used only ${used.toFixed(1)} s of CPU in 30 s`];
}

/** A field of `/proc/PID/status` (`CapEff`, `NSpid`), or `undefined` once the process is gone. */
function statusField(pid: number | undefined, name: string): string | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    return status.match(new RegExp(`^${name}:\\s+(.*)$`, "m"))?.[1].trim();
  } catch {
    return undefined;
  }
}

async function contents(path: string): Promise<string | undefined> {
  return await Deno.readTextFile(path).catch(() => undefined);
}

/** Put the file at `path` back as it was (`undefined`: there was none). */
async function restore(path: string, before: string | undefined): Promise<void> {
  if (before === undefined) await Deno.remove(path).catch(() => {});
  else await Deno.writeTextFile(path, before);
}

function mebibytes(bytes: number): string {
  return `${Math.round(bytes / (1 << 20))} MiB`;
}
