/**
 * A gate that many may pass at once, or one alone: the grader's sandboxes
 * pass it shared, and a case that ran out of time is run again alone, once
 * every other sandbox has finished and while no new one starts.
 *
 * @module
 */

/**
 * A readers-writer lock that lets a waiting `alone()` go first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const gate = new Gate();
 * const seen: string[] = [];
 * const first = await gate.shared();
 * const alone = gate.alone().then((release) => (seen.push("alone"), release));
 * const later = gate.shared().then((release) => (seen.push("later"), release));
 * first();
 * (await alone)();
 * (await later)();
 * assert.deepEqual(seen, ["alone", "later"]);
 * ```
 */
export class Gate {
  #shared = 0;
  #alone = false;
  #waiting: { alone: boolean; go: () => void }[] = [];

  /** Pass with others; resolves to the function that leaves. */
  shared(): Promise<() => void> {
    return this.#enter(false);
  }

  /** Pass alone; resolves to the function that leaves. */
  alone(): Promise<() => void> {
    return this.#enter(true);
  }

  #enter(alone: boolean): Promise<() => void> {
    return new Promise((resolve) => {
      const go = () => {
        if (alone) this.#alone = true;
        else this.#shared++;
        let left = false;
        resolve(() => {
          if (left) return;
          left = true;
          if (alone) this.#alone = false;
          else this.#shared--;
          this.#next();
        });
      };
      this.#waiting.push({ alone, go });
      this.#next();
    });
  }

  #next(): void {
    while (this.#waiting.length > 0 && !this.#alone) {
      const first = this.#waiting[0];
      if (first.alone && this.#shared > 0) return;
      // A shared entry waits behind an alone one that came first.
      this.#waiting.shift();
      first.go();
      if (first.alone) return;
    }
  }
}
