/**
 * Every line a cell prints reaches the notebook before the cell is reported
 * finished, under that cell: a flush that the Deno Jupyter kernel lacks.
 *
 * Why it is needed (Deno 2.9): the thread that runs the cells puts all they
 * print (`console.log`, `Deno.jupyter.display`) on a queue, and the kernel's
 * other thread publishes that queue to the frontends on its own, stamping each
 * message with the request it is handling *when it publishes it*. It sends a
 * cell's `execute_reply` and `idle` status without waiting for the queue to
 * drain. So the last lines of a cell can be published after its `idle`, when
 * nbconvert has stopped listening (lost), or once the next cell's request has
 * arrived, stamped as that cell's output (JupyterLab's Run All: shown under
 * the next cell).
 *
 * The flush: after each cell that completes, the kernel asks the cell thread
 * to publish the cell's value (`broadcastResult`), and waits for that. The
 * wrapper installed here first puts a marker on the same queue (an
 * `update_display_data` for a display id that no frontend has, which every
 * frontend ignores) and waits until the marker comes back on a subscription
 * of its own to the kernel's IOPub socket. Everything queued before the marker
 * has then been written to every frontend, before the kernel sends the cell's
 * `idle`. A cell that throws is not covered: the kernel calls no hook for it.
 *
 * @module
 */

// deno-lint-ignore-file no-explicit-any -- the kernel's internals have no types

/** Options for {@linkcode keepOutputInOrder}. */
export interface OutputOrderOptions {
  /** The longest a cell waits for its marker to come back, in ms. @default {2000} */
  flushMs?: number;
}

/** What {@linkcode keepOutputInOrder} did. */
export type OutputOrder =
  | "installed"
  | "already installed"
  | "not in a kernel"
  | "unsupported kernel";

const INSTALLED = Symbol.for("course.outputOrder");
const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();

/**
 * Install the flush in the running Deno Jupyter kernel (once; later calls do
 * nothing). Outside a kernel, or in a kernel whose internals differ from
 * Deno 2.9's, it changes nothing and says so.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * // Outside a notebook there is no kernel to change.
 * assert.equal(await keepOutputInOrder(), "not in a kernel");
 * ```
 */
export async function keepOutputInOrder(options: OutputOrderOptions = {}): Promise<OutputOrder> {
  const internal = kernelInternals();
  if (internal === undefined) return "not in a kernel";
  if ((globalThis as any)[INSTALLED]) return "already installed";
  const jupyter = internal.jupyter;
  const iopub = iopubAddress();
  if (typeof jupyter?.broadcastResult !== "function" || iopub === undefined) {
    return "unsupported kernel";
  }
  let subscription: Subscription;
  try {
    subscription = await subscribe(iopub);
  } catch {
    return "unsupported kernel";
  }
  const flushMs = options.flushMs ?? 2000;
  // The kernel's socket accepts the subscription a moment after it is sent:
  // send markers until one comes back.
  let confirmed = false;
  for (let attempt = 0; attempt < 20 && !confirmed; attempt++) {
    confirmed = await subscription.roundTrip(100);
  }
  if (!confirmed) {
    subscription.close();
    return "unsupported kernel";
  }
  const publishResult = jupyter.broadcastResult;
  jupyter.broadcastResult = async (executionCount: number, result: unknown) => {
    await subscription.roundTrip(flushMs);
    return await publishResult(executionCount, result);
  };
  (globalThis as any)[INSTALLED] = true;
  return "installed";
}

/** The kernel's internals when this code runs in a Deno Jupyter kernel. */
function kernelInternals(): any {
  try {
    if (typeof Deno.jupyter?.broadcast !== "function") return undefined;
  } catch {
    return undefined;
  }
  return (Deno as any)[(Deno as any).internal];
}

/** The kernel's IOPub address, from the connection file named on its command line. */
function iopubAddress(): { hostname: string; port: number } | undefined {
  try {
    const args = Deno.readTextFileSync("/proc/self/cmdline").split("\0");
    const file = args[args.indexOf("--conn") + 1];
    if (!args.includes("--conn") || !file) return undefined;
    const info = JSON.parse(Deno.readTextFileSync(file));
    if (info.transport !== "tcp" || typeof info.iopub_port !== "number") return undefined;
    return { hostname: info.ip, port: info.iopub_port };
  } catch {
    return undefined;
  }
}

interface Subscription {
  /** Queue a marker behind all output so far; resolve true once it came back, false after `ms`. */
  roundTrip(ms: number): Promise<boolean>;
  close(): void;
}

/** A ZeroMQ SUB socket (ZMTP 3.0, NULL security) on the kernel's IOPub port, reading all of it. */
async function subscribe(address: { hostname: string; port: number }): Promise<Subscription> {
  const conn = await Deno.connect(address);
  conn.unref(); // never keeps the kernel alive
  const reader = new FrameReader(conn);
  try {
    const greeting = new Uint8Array(64);
    greeting.set([0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0x7f, 3, 0]);
    greeting.set(ENCODER.encode("NULL"), 12);
    await writeAll(conn, greeting);
    await reader.exactly(64);
    await writeAll(conn, frame(readyCommand("SUB"), { command: true }));
    await reader.frame(); // the kernel's READY
    await writeAll(conn, frame(new Uint8Array([1]))); // subscribe to every topic
  } catch (error) {
    conn.close();
    throw error;
  }
  const waiting = new Map<string, () => void>();
  // Read everything the kernel publishes, and look only at the markers.
  (async () => {
    try {
      while (true) {
        const parts = await reader.message();
        const at = parts.findIndex((part) => DECODER.decode(part) === "<IDS|MSG>");
        if (at < 0 || parts.length < at + 6) continue;
        const header = JSON.parse(DECODER.decode(parts[at + 2]));
        if (header.msg_type !== "update_display_data") continue;
        const id = JSON.parse(DECODER.decode(parts[at + 5]))?.transient?.display_id;
        waiting.get(id)?.();
      }
    } catch {
      // The connection ended: the kernel is shutting down.
    }
  })();
  return {
    roundTrip(ms) {
      const id = `course-output-marker-${crypto.randomUUID()}`;
      return new Promise((resolve) => {
        const timer = setTimeout(() => done(false), ms);
        Deno.unrefTimer(timer);
        const done = (back: boolean) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(back);
        };
        waiting.set(id, () => done(true));
        Deno.jupyter.broadcast("update_display_data", {
          data: {},
          metadata: {},
          transient: { display_id: id },
        });
      });
    },
    close: () => conn.close(),
  };
}

/** ZMTP's READY command naming this socket's type. */
function readyCommand(socketType: string): Uint8Array {
  const name = ENCODER.encode("READY");
  const property = ENCODER.encode("Socket-Type");
  const value = ENCODER.encode(socketType);
  const body = new Uint8Array(1 + name.length + 1 + property.length + 4 + value.length);
  let at = 0;
  body[at++] = name.length;
  body.set(name, at);
  at += name.length;
  body[at++] = property.length;
  body.set(property, at);
  at += property.length;
  new DataView(body.buffer).setUint32(at, value.length);
  body.set(value, at + 4);
  return body;
}

/** One short ZMTP frame (all this module sends is under 256 bytes). */
function frame(body: Uint8Array, options: { command?: boolean } = {}): Uint8Array {
  return new Uint8Array([options.command ? 0x04 : 0x00, body.length, ...body]);
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
}

/** Reads ZMTP frames and multipart messages from a connection, through one buffer. */
class FrameReader {
  #conn: Deno.Conn;
  #buffer = new Uint8Array(0);
  constructor(conn: Deno.Conn) {
    this.#conn = conn;
  }

  async exactly(n: number): Promise<Uint8Array> {
    while (this.#buffer.length < n) {
      const chunk = new Uint8Array(Math.max(65536, n - this.#buffer.length));
      const read = await this.#conn.read(chunk);
      if (read === null) throw new Error("The kernel closed its IOPub connection");
      const joined = new Uint8Array(this.#buffer.length + read);
      joined.set(this.#buffer);
      joined.set(chunk.subarray(0, read), this.#buffer.length);
      this.#buffer = joined;
    }
    const taken = this.#buffer.slice(0, n);
    this.#buffer = this.#buffer.subarray(n);
    return taken;
  }

  async frame(): Promise<{ body: Uint8Array; more: boolean; command: boolean }> {
    const [flags] = await this.exactly(1);
    const size = flags & 0x02
      ? Number(new DataView((await this.exactly(8)).buffer).getBigUint64(0))
      : (await this.exactly(1))[0];
    return {
      body: await this.exactly(size),
      more: (flags & 0x01) !== 0,
      command: (flags & 0x04) !== 0,
    };
  }

  async message(): Promise<Uint8Array[]> {
    const parts = [];
    while (true) {
      const { body, more, command } = await this.frame();
      if (command) continue;
      parts.push(body);
      if (!more) return parts;
    }
  }
}
