// The sandbox's main thread. `deno run` starts it with no permission but to
// read its scratch folders, and an import map that lets modules be loaded
// from them and nowhere else. It reads its whole job from stdin (after the
// job's length) before any learner code exists, so no learner's realm can
// ever read what stdin carries; stdin then stays open, and when it ends (the
// grader is done, or has gone) so does the process. The job is a nonce, and
// the cases of one learner (a few, for code the course trusts), in phases,
// visible and then hidden (one phase for each realm the hidden cases are
// split into), serialized with node:v8 so that bytes and sets arrive as they
// are. It runs each phase's cases in learner's realms of that phase only
// (workers: `sandbox_worker.ts`), ending one phase's realms before the next
// phase's begin, and writes what came back,
// prefixed with the nonce so that nothing the learner's code prints can pass
// for it. It judges nothing: the grader, in another process, does. This
// thread is where what observes runs: the grammar server a learner's client
// talks to, and the client a learner's named test is given (the instructors'
// worked one, from stdin, never a file).
//
// Learners who share the process never share a realm or a readable folder: a
// realm may read the grader's files and its own learner's folder, nothing
// else, and a learner's realms are ended before the next learner's cases
// begin (the process ends there, for a new one to go on, when it holds much
// memory).
//
// Each case is bounded by the CPU time the process uses while it runs (not
// the wall clock, so that a busy machine costs no one a case), with a
// wall-clock backstop for code that waits forever. A case past either is
// reported as timed out, and the process exits: the grader starts a new one
// for the cases left. A case that used its whole CPU time has failed (no
// machine would run it faster); one that only waited past the backstop is
// run again alone. A realm that ends itself (`Deno.exit`, `close()`) is
// noticed at once and named, as is one that stops answering while using no
// CPU.

import { deserialize, serialize } from "node:v8";
import type * as ServerBridge from "./host/server_bridge.ts";
import type * as ClientHost from "./host/client_host.ts";
import type * as ClientDriver from "./drivers/lab_02_client.ts";
import { withWhyNoNewNames } from "./realm/no_new_names.ts";
import { npmRefusal } from "./realm/npm_refusal.ts";

/**
 * How a case is run: a function called on its arguments, a function given a
 * model made from its case (Lab 03's decode), a client class driven, a named test run.
 */
export type CaseKind = "call" | "model" | "client" | "test";

/** One graded function's cases, as the grader sends them. */
export interface RunnerItem {
  /** The learner module's key in the grader (a unit, or a unit of one of many modules graded together). */
  key: string;
  fn: string;
  kind: CaseKind;
  /** The learner's module, as a file URL in the scratch folder. */
  module: string;
  /** The learner's folder, the only one of the scratch folder its realms may read. */
  folder?: string;
  quiet: boolean;
  cases: { index: number; args: unknown[] }[];
}

/** What the grader sends on stdin. */
export interface RunnerJob {
  nonce: string;
  /** The learner's realm's module, as a file URL. */
  worker: string;
  /** For each unit, the files of the grader's shared folder that its learners' realms may read. */
  readable: Record<string, string[]>;
  /** The CPU time one case (or one module load) may use. */
  cpuMs: number;
  /** The wall-clock time after which a case that waits has timed out. */
  wallMs: number;
  /** The most bytes a case's reply may be sent in: a larger one is reported as its problem. */
  caseBytes: number;
  /** That problem, as the grader words it. */
  caseTooLarge: string;
  /** The instructors' worked module for each unit that has one, as source, where the grader has it. */
  references: Record<string, string>;
  /** Each item's unit (for its reference), by its key. */
  units: Record<string, string>;
  /** The visible phase's items, then the hidden phases': each phase in realms of its own. */
  phases: RunnerItem[][];
  /** Whether each case reports the StrykerJS mutants its code reached (mutation testing only). */
  coverage?: boolean;
}

/** What a case came to, as the runner reports it (the grader judges it). */
export type Reply = Record<string, unknown> & {
  /** The library's own copies of graded functions the learner's code called. */
  reached?: string[];
  /** Whether a time limit decided it: the grader runs such a case again alone, unless `spent`. */
  timed?: boolean;
  /** Whether it used its whole CPU time: it has failed, wherever it ran. */
  spent?: boolean;
  /** Set by the grader: left to be run again alone. */
  deferred?: boolean;
  /**
   * Set by the grader: it timed out with a core free to it (its threads ran
   * or waited for one under a quarter of the time), having waited on its
   * own: it has failed wherever it ran, and counts as a stop.
   */
  waited?: boolean;
  /** The exit code, when the learner's realm ended itself during the case. */
  exited?: number;
  /** Whether it was the module's load, not the case, that failed or timed out. */
  load?: boolean;
  /** The process CPU time the case used, in milliseconds (for the grader's budgets, never shown). */
  cpuMs?: number;
  /** The StrykerJS mutants the case's code reached, when the job asks (mutation testing only). */
  covered?: string[];
};

const encoder = new TextEncoder();
const write = Deno.stdout.writeSync.bind(Deno.stdout);
const job = deserialize(await readJob()) as RunnerJob;

/**
 * The job's bytes from stdin, after their length (four bytes, big-endian).
 * Stdin then stays open while the grader needs this process: when it ends,
 * the grader is done or has gone, and so is this process.
 */
async function readJob(): Promise<Uint8Array> {
  const reader = Deno.stdin.readable.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const joined = () => {
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) bytes.set(chunk, (at += chunk.length) - chunk.length);
    return bytes;
  };
  let length = Infinity;
  while (size < length + 4) {
    const { done, value } = await reader.read();
    if (done) Deno.exit(0);
    chunks.push(value);
    size += value.length;
    if (length === Infinity && size >= 4) length = new DataView(joined().buffer).getUint32(0);
  }
  (async () => {
    while (!(await reader.read()).done);
    Deno.exit(0);
  })().catch(() => {});
  return joined().subarray(4, length + 4);
}

/** `bytes` in base64 (a Uint8Array method this V8 has, which Deno's types do not list yet). */
const toBase64 = (bytes: Uint8Array) => (bytes as Uint8Array & { toBase64(): string }).toBase64();

/** Write one record for the grader. */
function report(record: Record<string, unknown>): void {
  writeRecord(serialize(record));
}

function writeRecord(bytes: Uint8Array): void {
  const line = encoder.encode(`\n${job.nonce} ${toBase64(bytes)}\n`);
  for (let written = 0; written < line.length;) written += write(line.subarray(written));
}

/**
 * Report what case `key` came to: `reply`, or, where it would be sent in
 * more than the job's `caseBytes`, that problem in its place, so that the
 * grader is told what the case did and never reads a line past its limit.
 */
function reportResult(key: Record<string, unknown>, reply: Reply): void {
  const bytes = serialize({ result: key, reply });
  if (bytes.length <= job.caseBytes) return writeRecord(bytes);
  const { reached, cpuMs } = reply;
  report({ result: key, reply: { problem: job.caseTooLarge, reached, cpuMs } });
}

/**
 * Past this much resident memory between two learners, the process ends
 * ({@linkcode RECYCLED}) and the grader goes on in a new one, so that no
 * learner's cases start beside memory a classmate's realms left behind.
 */
const RECYCLE_BYTES = 192 << 20;
/** The exit code of a process that ended between two learners, for a new one to go on. */
const RECYCLED = 4;

/** How often a waiting realm is asked whether it still runs, and how long it may go unheard. */
const PING_MS = 200;
const SILENT_MS = 1500;

/**
 * The CPU time this process has used, in milliseconds, all its threads
 * together (`getrusage`). `Deno.cpuUsage` is the runtime's own (node's
 * `process.cpuUsage` calls it), which Deno's types do not list yet: loading
 * `node:process` for it cost every learner's process about 8 ms of CPU.
 */
function cpuNow(): number {
  const { user, system } = (Deno as unknown as { cpuUsage(): { user: number; system: number } })
    .cpuUsage();
  return (user + system) / 1000;
}

/** One learner's realm: a worker with the learner's module loaded in it. */
class Realm {
  readonly worker: Worker;
  /** The functions (and classes) the module exports, once it has loaded. */
  names: string[] = [];
  /** Library copies reached while the module loaded (they count for every case run here). */
  readonly loadReached = new Set<string>();
  /** Library copies reached during the case under way. */
  readonly caseReached = new Set<string>();
  /** The code the realm ended itself with, once it has. */
  exited: number | undefined;
  #loading = true;
  /** When the realm was last heard from, and the process's CPU time then. */
  #heard = { at: 0, cpu: 0 };
  #waiting: ((data: Record<string, unknown>) => void) | undefined;

  /** A realm that may read `files` (the unit's) and `folder` (a learner's), and nothing else. */
  constructor(files: string[], folder: string | undefined) {
    this.worker = new Worker(job.worker, {
      type: "module",
      deno: {
        permissions: {
          read: folder === undefined ? files : [...files, folder],
          write: false,
          net: false,
          env: false,
          run: false,
          ffi: false,
          sys: false,
        },
      },
    } as WorkerOptions);
    this.worker.onmessage = ({ data }) => {
      this.#heard = { at: performance.now(), cpu: cpuNow() };
      if (typeof data?.reached === "string") {
        (this.#loading ? this.loadReached : this.caseReached).add(data.reached);
      } else if (typeof data?.exited === "number") {
        this.exited = data.exited;
        this.#waiting?.({ problem: `it exited with code ${data.exited}`, exited: data.exited });
      } else if (data?.pong === undefined) this.#waiting?.(data);
    };
    this.worker.onerror = (event) => {
      event.preventDefault();
      const said = npmRefusal(event.message) ?? withWhyNoNewNames(event.message);
      this.#waiting?.({ problem: `the code failed outside any case: ${said}`.slice(0, 300) });
    };
  }

  /** Whether the realm can take another case. */
  get alive(): boolean {
    return this.exited === undefined;
  }

  /** Load `module`: its graded functions' names, or a problem. */
  async load(module: string): Promise<Record<string, unknown>> {
    const loaded = await this.request({ load: module });
    this.#loading = false;
    if (Array.isArray(loaded.loaded)) this.names = loaded.loaded;
    return loaded;
  }

  /** The library copies reached by the case just run, and by the module's load. */
  reached(): string[] {
    return [...new Set([...this.loadReached, ...this.caseReached])];
  }

  /**
   * Send `message` and wait for the reply, within the CPU and wall-clock
   * budgets. A realm that ends itself, or stops answering while the process
   * uses no CPU time, ends the wait at once.
   */
  request(message: unknown, transfer: Transferable[] = []): Promise<Record<string, unknown>> {
    this.caseReached.clear();
    if (!this.alive) return Promise.resolve({ problem: "its realm has ended" });
    return new Promise((resolve) => {
      const cpu = cpuNow();
      const started = performance.now();
      this.#heard = { at: started, cpu };
      let pinged = 0;
      const done = (data: Record<string, unknown>) => {
        clearInterval(watch);
        this.#waiting = undefined;
        resolve({ ...data, cpuMs: Math.round(cpuNow() - cpu) });
      };
      const watch = setInterval(() => {
        const now = performance.now();
        if (cpuNow() - cpu > job.cpuMs) {
          done({
            problem: `used more than ${job.cpuMs / 1000} s of CPU time`,
            timed: true,
            spent: true,
          });
        } else if (now - started > job.wallMs) {
          done({ problem: `did not finish within ${job.wallMs / 1000} s`, timed: true });
        } else if (
          // A realm that computes uses CPU time; one that waits answers. One that does neither has gone.
          now - this.#heard.at > SILENT_MS && cpuNow() - this.#heard.cpu < SILENT_MS / 10
        ) {
          done({ problem: "its realm stopped answering, using no CPU time", timed: true });
        } else if (now - started >= pinged * PING_MS) {
          this.worker.postMessage({ ping: ++pinged });
        }
      }, 5);
      this.#waiting = done;
      try {
        this.worker.postMessage(message, transfer);
      } catch (error) {
        done({ problem: `the case could not be sent: ${(error as Error).message}` });
      }
    });
  }

  end(): void {
    this.worker.terminate();
  }
}

const references = new Map<string, Promise<Record<string, unknown>>>();
/** The instructors' worked module for `unit`, loaded in this thread, never in a learner's realm. */
function referenceModule(unit: string): Promise<Record<string, unknown>> | undefined {
  const source = job.references[unit];
  if (source === undefined) return undefined;
  let reference = references.get(unit);
  if (reference === undefined) {
    reference = import(`data:application/typescript,${encodeURIComponent(source)}`)
      .then((module) => module.graded);
    references.set(unit, reference);
  }
  return reference;
}

/**
 * A new realm with `item`'s module loaded (and, when `needs` names one, the
 * function or class that must be in it), or the problem that stopped it.
 */
async function loadedRealm(item: RunnerItem, needs?: string): Promise<Realm | Reply> {
  const realm = new Realm(job.readable[job.units[item.key]] ?? [], item.folder);
  const loaded = await realm.load(item.module);
  if ("loaded" in loaded) {
    if (needs === undefined || realm.names.includes(needs)) return realm;
    realm.end();
    return { problem: `there is no function ${needs}`, reached: realm.reached() };
  }
  realm.end();
  const why = loaded.exited !== undefined
    ? `the module exited with code ${loaded.exited} while it loaded`
    : loaded.timed
    ? `loading the module ${loaded.problem}`
    // The graded cells, and the learner's own, are one module: a cell that does not parse stops all.
    : loaded.problem ?? `the code does not load, so none of it runs: ${loaded.loadError}`;
  return { ...loaded, problem: why, load: true, reached: realm.reached() };
}

/** Run one case of a function called on its arguments, in `realm`. */
async function callCase(realm: Realm, item: RunnerItem, args: unknown[]): Promise<Reply> {
  const reply = await realm.request({
    run: { kind: item.kind, fn: item.fn, args, quiet: item.quiet, coverage: job.coverage },
  });
  return { ...unwrapped(reply), reached: realm.reached() };
}

/**
 * One of this thread's modules that only Lab 02's cases need, loaded when one
 * runs: its specifier is computed, so that Deno does not load it ahead with
 * the runner, which every learner's process starts.
 */
function load<T>(path: string): Promise<T> {
  return import(new URL(path, import.meta.url).href);
}

/** Run one case of a client class: the learner's realm drives it, the server runs here. */
async function clientCase(item: RunnerItem, args: unknown[]): Promise<Reply> {
  const [{ bridgeServer }, { SERVER_SIDE, serverObservations }] = await Promise.all([
    load<typeof ServerBridge>("./host/server_bridge.ts"),
    load<typeof ClientDriver>("./drivers/lab_02_client.ts"),
  ]);
  const realm = await loadedRealm(item, item.fn);
  if (!(realm instanceof Realm)) return realm;
  const { port1, port2 } = new MessageChannel();
  const scenario = (args[0] ?? {}) as { server?: never; observe?: string[] };
  const bridged = bridgeServer(port2, scenario.server);
  try {
    const reply = unwrapped(
      await realm.request({
        run: { kind: "client", fn: item.fn, args, coverage: job.coverage },
      }, [port1]),
    );
    if ("returned" in reply && typeof reply.returned === "object" && reply.returned !== null) {
      // The realm's reply and the client's bytes come by different channels: let the bytes land.
      await bridged.settled();
      const observed = await serverObservations(bridged.sent, bridged.server);
      const returned = { ...reply.returned as Record<string, unknown> };
      for (const key of SERVER_SIDE) {
        if (scenario.observe?.includes(key)) returned[key] = observed[key];
        else delete returned[key];
      }
      reply.returned = returned;
    }
    return { ...reply, reached: realm.reached() };
  } finally {
    bridged.server.kill();
    port2.close();
    realm.end();
  }
}

/**
 * Run one case of a named test: once against the correct client, and once
 * against the faulty one when the case names a fault, each time in a new
 * realm, with the client behind a port.
 */
async function testCase(item: RunnerItem, args: unknown[]): Promise<Reply> {
  const { fault } = (args[0] ?? {}) as { fault?: never };
  const statuses: Record<string, unknown> = {};
  const reached = new Set<string>();
  const covered = new Set<string>();
  let cpuMs = 0;
  // In a random order: which run comes first tells a test nothing either.
  const variants = fault === undefined ? ["correct"] : ["correct", "faulty"];
  if (Math.random() < 0.5) variants.reverse();
  for (const variant of variants) {
    const { port1, port2 } = new MessageChannel();
    const faultHere = variant === "faulty" ? fault : undefined;
    let stop: () => void;
    const worked = await referenceModule(job.units[item.key]);
    if (worked !== undefined) {
      const { hostClients } = await load<typeof ClientHost>("./host/client_host.ts");
      stop = hostClients(port2, worked.McpClient as never, faultHere).stop;
    } else {
      // Without the instructors' client, the learner's own serves, in a realm of its own.
      const host = await loadedRealm(item, "McpClient");
      if (!(host instanceof Realm)) {
        return { threw: "TypeError", message: "there is no McpClient class to test" };
      }
      host.worker.postMessage({ host: { fault: faultHere } }, [port2]);
      stop = () => host.end();
    }
    const realm = await loadedRealm(item, item.fn);
    if (!(realm instanceof Realm)) {
      stop();
      return realm;
    }
    try {
      const reply = unwrapped(
        await realm.request({
          run: { kind: "test", fn: item.fn, args, coverage: job.coverage },
        }, [port1]),
      );
      cpuMs += Number(reply.cpuMs ?? 0);
      for (const name of realm.reached()) reached.add(name);
      for (const id of reply.covered ?? []) covered.add(id);
      if (!("returned" in reply)) return { ...reply, reached: [...reached] };
      statuses[variant] = reply.returned;
      if (reply.timed) {
        return {
          returned: { ...statuses },
          after: args,
          timed: true,
          reached: [...reached],
          cpuMs,
        };
      }
    } finally {
      stop();
      realm.end();
    }
  }
  return {
    returned: statuses,
    after: args,
    reached: [...reached],
    cpuMs,
    ...job.coverage && { covered: [...covered] },
  };
}

/** A worker's reply as the runner reports it: the reply itself, or the problem. */
function unwrapped(data: Record<string, unknown>): Reply {
  if (data.reply !== undefined && typeof data.reply === "object") {
    return { ...(data.reply as Record<string, unknown>), cpuMs: Number(data.cpuMs) };
  }
  return { ...data };
}

/** Each module's realm for the functions called on their arguments, in this phase. */
const realms = new Map<string, Realm | Reply>();

/** The realm (loaded, and alive) in which `item`'s function is called, or the problem. */
async function callRealm(item: RunnerItem): Promise<Realm | Reply> {
  const known = realms.get(item.module);
  if (known !== undefined && (!(known instanceof Realm) || known.alive)) return known;
  const made = await loadedRealm(item);
  realms.set(item.module, made);
  return made;
}

/** End every realm of `realms`: a learner's realms go before the next learner's cases begin. */
function endRealms(): void {
  for (const realm of realms.values()) if (realm instanceof Realm) realm.end();
  realms.clear();
}

for (const items of job.phases) {
  let folder: string | undefined;
  for (const item of items) {
    if (item.folder !== folder) {
      // The next learner's: nothing of the last one's may still run, or hold memory, beside it.
      if (folder !== undefined) {
        endRealms();
        if (Deno.memoryUsage().rss > RECYCLE_BYTES) Deno.exit(RECYCLED);
      }
      folder = item.folder;
    }
    for (const { index, args } of item.cases) {
      const key = { key: item.key, fn: item.fn, index };
      report({ started: key });
      let reply: Reply;
      if (item.kind === "call" || item.kind === "model") {
        const realm = await callRealm(item);
        if (!(realm instanceof Realm)) reply = realm;
        else if (!realm.names.includes(item.fn)) {
          reply = { problem: `there is no function ${item.fn}`, reached: realm.reached() };
        } else reply = await callCase(realm, item, args);
      } else if (item.kind === "client") reply = await clientCase(item, args);
      else reply = await testCase(item, args);
      reportResult(key, reply);
      if (reply.timed && "problem" in reply) {
        // A realm stuck in a loop cannot always be ended: the grader goes on in a new process.
        Deno.exit(3);
      }
    }
  }
  // The next phase's cases run in realms of their own.
  endRealms();
}
Deno.exit(0);
