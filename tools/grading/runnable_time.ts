/**
 * How long a process's threads ran or waited for a core, as the kernel
 * counts it for each thread (`/proc/PID/task/TID/schedstat`: time on a CPU,
 * time runnable in a run queue, throttling included). A case that waited
 * past the wall-clock backstop on a busy machine was runnable most of that
 * time; one that waited on its own (a timer, a promise that never settles)
 * was not, and running it again alone, with every other sandbox held, would
 * only hold the class as long again.
 *
 * @module
 */

/**
 * The run and run-queue time of process `pid`'s threads from the first
 * {@linkcode RunnableTime.sample} to the last (nothing is read before the
 * first: a case that ends soon costs no reading); a thread that ends keeps
 * what it was last read at.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const clock = new RunnableTime(Deno.pid);
 * clock.sample();
 * for (const end = performance.now() + 50; performance.now() < end;);
 * clock.sample();
 * assert.ok(clock.ms >= 40 && clock.span >= 50);
 * assert.ok(clock.queuedMs >= 0 && clock.queuedMs <= clock.ms);
 * const gone = new RunnableTime(2 ** 22 + 1);
 * gone.sample();
 * assert.equal(gone.ms, 0);
 * assert.equal(gone.queuedMs, 0);
 * ```
 */
export class RunnableTime {
  readonly #pid: number;
  readonly #threads = new Map<
    string,
    { first: number; last: number; queued: number; queuedBefore: number; reading: number }
  >();
  #reading = 0;
  #readings: { first: number; last: number } | undefined;

  constructor(pid: number) {
    this.#pid = pid;
  }

  /** Read each thread's count now. */
  sample(): void {
    const now = performance.now();
    this.#readings = { first: this.#readings?.first ?? now, last: now };
    const reading = ++this.#reading;
    let tasks: Iterable<Deno.DirEntry>;
    try {
      tasks = Deno.readDirSync(`/proc/${this.#pid}/task`);
    } catch {
      return; // The process has gone: what was read stands.
    }
    for (const { name } of tasks) {
      let text: string;
      try {
        text = Deno.readTextFileSync(`/proc/${this.#pid}/task/${name}/schedstat`);
      } catch {
        continue; // The thread has gone.
      }
      const [running, waiting] = text.split(" ").map(Number);
      const ns = running + waiting;
      if (!Number.isFinite(ns)) continue;
      const thread = this.#threads.get(name);
      if (thread === undefined) {
        this.#threads.set(name, {
          first: ns,
          last: ns,
          queued: waiting,
          queuedBefore: waiting,
          reading,
        });
      } else {
        thread.last = ns;
        thread.queuedBefore = thread.queued;
        thread.queued = waiting;
        thread.reading = reading;
      }
    }
  }

  /** The milliseconds of wall-clock time from the first reading to the last (0 before two). */
  get span(): number {
    return this.#readings === undefined ? 0 : this.#readings.last - this.#readings.first;
  }

  /** The milliseconds its threads ran or waited for a core, together, between the first and last reading. */
  get ms(): number {
    let ns = 0;
    for (const { first, last } of this.#threads.values()) ns += last - first;
    return ns / 1e6;
  }

  /**
   * The milliseconds the thread that waited longest for a core waited
   * between the last two readings (0 for a process gone by the last): time a
   * busy machine (a classmate's process among others) kept the process from
   * running, however many of its threads waited at once.
   */
  get queuedMs(): number {
    let ns = 0;
    for (const { queued, queuedBefore, reading } of this.#threads.values()) {
      if (reading === this.#reading) ns = Math.max(ns, queued - queuedBefore);
    }
    return ns / 1e6;
  }
}
