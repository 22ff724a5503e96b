// The sandbox's main thread. `deno run` starts it with no permission at all,
// and an import map that lets modules be loaded from its scratch folder and
// nowhere else. It reads one job from stdin (a nonce, and for each graded
// function the learner's module and the cases of one phase, visible or
// hidden, serialized with node:v8 so that bytes and sets arrive as they are),
// runs each case in a learner's realm (a worker: `sandbox_worker.ts`), and
// writes what came back, prefixed with the nonce so that nothing the
// learner's code prints can pass for it. It judges nothing: the grader, in
// another process, does. This thread is where what observes runs: the grammar
// server a learner's client talks to, and the client a learner's named test
// is given (the instructors' worked one, from stdin, never a file).
//
// Each case is bounded by the CPU time the process uses while it runs (not
// the wall clock, so that a busy machine costs no one a case), with a long
// wall-clock backstop for code that waits forever. A case past either is
// reported as timed out, and the process exits: the grader starts a new one
// for the cases left, and runs the ones that timed out again, alone.

import process from "node:process";
import { deserialize, serialize } from "node:v8";
import { Buffer } from "node:buffer";
import { bridgeServer } from "./host/server_bridge.ts";
import { hostClients } from "./host/client_host.ts";
import { SERVER_SIDE, serverObservations } from "./drivers/lab_02_client.ts";

/** How a case is run: a function called on its arguments, a client class driven, a named test run. */
export type CaseKind = "call" | "client" | "test";

/** One graded function's cases, as the grader sends them. */
export interface RunnerItem {
  unit: string;
  fn: string;
  kind: CaseKind;
  /** The learner's module, as a file URL in the scratch folder. */
  module: string;
  quiet: boolean;
  cases: { index: number; args: unknown[] }[];
}

/** What the grader sends on stdin. */
export interface RunnerJob {
  nonce: string;
  /** The learner's realm's module, as a file URL. */
  worker: string;
  /** The CPU time one case (or one module load) may use. */
  cpuMs: number;
  /** The wall-clock time after which a case that uses no CPU (it waits) has timed out. */
  wallMs: number;
  /** The instructors' worked module for the unit, as source, where the grader has it. */
  reference?: string;
  items: RunnerItem[];
}

/** What a case came to, as the runner reports it (the grader judges it). */
export type Reply = Record<string, unknown> & {
  /** The library's own copies of graded functions the learner's code called. */
  reached?: string[];
  /** Whether a time limit decided it: the grader runs such a case again, alone. */
  timed?: boolean;
  /** Set by the grader: left to be run again alone. */
  deferred?: boolean;
};

const encoder = new TextEncoder();
const write = Deno.stdout.writeSync.bind(Deno.stdout);
const job = deserialize(
  new Uint8Array(await new Response(Deno.stdin.readable).arrayBuffer()),
) as RunnerJob;

/** Write one record for the grader. */
function report(record: Record<string, unknown>): void {
  const line = encoder.encode(
    `\n${job.nonce} ${Buffer.from(serialize(record)).toString("base64")}\n`,
  );
  for (let written = 0; written < line.length;) written += write(line.subarray(written));
}

/** One learner's realm: a worker with the learner's module loaded in it. */
class Realm {
  readonly worker: Worker;
  readonly reached = new Set<string>();
  #waiting: ((data: Record<string, unknown>) => void) | undefined;

  constructor() {
    this.worker = new Worker(job.worker, { type: "module" });
    this.worker.onmessage = ({ data }) => {
      if (typeof data?.reached === "string") this.reached.add(data.reached);
      else this.#waiting?.(data);
    };
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.#waiting?.({
        problem: `the code failed outside any case: ${event.message}`.slice(0, 300),
      });
    };
  }

  /** Load `module`: its graded functions' names, or a problem. */
  load(module: string): Promise<Record<string, unknown>> {
    return this.request({ load: module });
  }

  /** Send `message` and wait for the reply, within the CPU and wall-clock budgets. */
  request(message: unknown, transfer: Transferable[] = []): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const done = (data: Record<string, unknown>) => {
        clearInterval(watch);
        this.#waiting = undefined;
        resolve(data);
      };
      const watch = setInterval(() => {
        const used = process.cpuUsage(cpu);
        if ((used.user + used.system) / 1000 > job.cpuMs) {
          done({ problem: `used more than ${job.cpuMs / 1000} s of CPU time`, timed: true });
        } else if (performance.now() - started > job.wallMs) {
          done({ problem: `did not finish within ${job.wallMs / 1000} s`, timed: true });
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

let reference: Promise<Record<string, unknown>> | undefined;
/** The instructors' worked module, loaded in this thread, never in a learner's realm. */
function referenceModule(): Promise<Record<string, unknown>> | undefined {
  if (job.reference === undefined) return undefined;
  reference ??= import(`data:application/typescript,${encodeURIComponent(job.reference)}`)
    .then((module) => module.graded);
  return reference;
}

/** A new realm with `item`'s module loaded, or the problem that stopped it. */
async function loadedRealm(item: RunnerItem): Promise<Realm | Record<string, unknown>> {
  const realm = new Realm();
  const loaded = await realm.load(item.module);
  if ("loaded" in loaded) {
    if ((loaded.loaded as string[]).includes(item.fn)) return realm;
    realm.end();
    return { problem: `there is no function ${item.fn}`, reached: [...realm.reached] };
  }
  realm.end();
  const why = loaded.problem ?? `the code does not load: ${loaded.loadError}`;
  return { ...loaded, problem: why, reached: [...realm.reached] };
}

/** Run one case of a function called on its arguments, in `realm`. */
async function callCase(realm: Realm, item: RunnerItem, args: unknown[]): Promise<Reply> {
  const reply = await realm.request({
    run: { kind: "call", fn: item.fn, args, quiet: item.quiet },
  });
  return { ...unwrapped(reply), reached: [...realm.reached] };
}

/** Run one case of a client class: the learner's realm drives it, the server runs here. */
async function clientCase(item: RunnerItem, args: unknown[]): Promise<Reply> {
  const realm = await loadedRealm(item);
  if (!(realm instanceof Realm)) return realm;
  const { port1, port2 } = new MessageChannel();
  const scenario = (args[0] ?? {}) as { server?: never; observe?: string[] };
  const bridged = bridgeServer(port2, scenario.server);
  try {
    const reply = unwrapped(
      await realm.request({ run: { kind: "client", fn: item.fn, args } }, [port1]),
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
    return { ...reply, reached: [...realm.reached] };
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
  // In a random order: which run comes first tells a test nothing either.
  const variants = fault === undefined ? ["correct"] : ["correct", "faulty"];
  if (Math.random() < 0.5) variants.reverse();
  for (const variant of variants) {
    const { port1, port2 } = new MessageChannel();
    const faultHere = variant === "faulty" ? fault : undefined;
    let stop: () => void;
    const worked = await referenceModule();
    if (worked !== undefined) {
      stop = hostClients(port2, worked.McpClient as never, faultHere).stop;
    } else {
      // Without the instructors' client, the learner's own serves, in a realm of its own.
      const host = await loadedRealm({ ...item, fn: "McpClient" });
      if (!(host instanceof Realm)) {
        return { threw: "TypeError", message: "there is no McpClient class to test" };
      }
      host.worker.postMessage({ host: { fault: faultHere } }, [port2]);
      stop = () => host.end();
    }
    const realm = await loadedRealm(item);
    if (!(realm instanceof Realm)) {
      stop();
      return realm;
    }
    try {
      const reply = unwrapped(
        await realm.request({ run: { kind: "test", fn: item.fn, args } }, [port1]),
      );
      for (const name of realm.reached) reached.add(name);
      if (!("returned" in reply)) return { ...reply, reached: [...reached] };
      statuses[variant] = reply.returned;
      if (reply.timed) {
        return { returned: { ...statuses }, after: args, timed: true, reached: [...reached] };
      }
    } finally {
      stop();
      realm.end();
    }
  }
  return { returned: statuses, after: args, reached: [...reached] };
}

/** A worker's reply as the runner reports it: the reply itself, or the problem. */
function unwrapped(data: Record<string, unknown>): Reply {
  if (data.reply !== undefined && typeof data.reply === "object") {
    return { ...(data.reply as Record<string, unknown>) };
  }
  return { ...data };
}

for (const item of job.items) {
  let shared: Realm | Record<string, unknown> | undefined;
  for (const { index, args } of item.cases) {
    const key = { unit: item.unit, fn: item.fn, index };
    report({ started: key });
    let reply: Reply;
    if (item.kind === "call") {
      shared ??= await loadedRealm(item);
      reply = shared instanceof Realm ? await callCase(shared, item, args) : shared;
    } else if (item.kind === "client") reply = await clientCase(item, args);
    else reply = await testCase(item, args);
    report({ result: key, reply });
    if (reply.timed && "problem" in reply) {
      // A realm stuck in a loop cannot always be ended: the grader goes on in a new process.
      Deno.exit(3);
    }
  }
  if (shared instanceof Realm) shared.end();
}
Deno.exit(0);
