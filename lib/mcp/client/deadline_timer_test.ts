import assert from "node:assert/strict";
import { DeadlineTimer } from "./deadline_timer.ts";

Deno.test("DeadlineTimer keeps an earlier deadline set after a later one", async () => {
  const now = performance.now();
  let waiting: number | undefined = now + 60_000;
  const expired = Promise.withResolvers<number>();
  const timer = new DeadlineTimer(() => waiting, () => expired.resolve(performance.now()));
  timer.watch(waiting);
  waiting = now + 30;
  timer.watch(waiting);
  const at = await expired.promise;
  assert.ok(at >= waiting);
  assert.ok(at < now + 60_000);
  timer.stop();
});

Deno.test("DeadlineTimer waits again when what waits now has a later deadline", async () => {
  const first = performance.now() + 10;
  let waiting = first;
  const expired = Promise.withResolvers<number>();
  const timer = new DeadlineTimer(() => waiting, () => expired.resolve(performance.now()));
  timer.watch(first);
  waiting = first + 40; // the first request was answered; the next one waits
  assert.ok(await expired.promise >= waiting);
});

Deno.test("DeadlineTimer rests when nothing waits", async () => {
  let calls = 0;
  const timer = new DeadlineTimer(() => undefined, () => calls++);
  timer.watch(performance.now() + 5);
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(calls, 0);
});
