// Round 6 of issue 38's red team: Lab 04 misreadings the catalogue does not
// hold, each as a learner would plausibly write it, graded through
// `deno task grade` as a whole Lab 04 module (the worked solution's other
// functions beside it). A misreading must lose marks. Run:
//   deno test -A tests/attacks_round6/lab04_misreadings_test.ts

import assert from "node:assert/strict";
import { grade, tree } from "../_grading.ts";
import { LAB_04 } from "../catalogue/lab_04.ts";
import { USES_PROTOCOL_ERROR } from "../catalogue/learner.ts";

const worked = (fn: string) =>
  LAB_04.find((c) => c.fn === fn)!.right["the worked solution's way"]
    .replace(USES_PROTOCOL_ERROR, "");

/** A whole Lab 04 module: `fn` as `code`, every other function the worked solution's. */
const moduleWith = (fn: string, code: string) =>
  [
    USES_PROTOCOL_ERROR,
    ...LAB_04.map((c) => c.fn === fn ? code.replace(USES_PROTOCOL_ERROR, "") : worked(c.fn)),
  ].join("\n");

const sseWorked = worked("sseData");

const MISREADINGS: Record<string, { fn: string; code: string; why: string }> = {
  "sse-cr-and-lf-each-end-a-line": {
    fn: "sseData",
    why: "CR and LF each taken for a line's end: CRLF ends a line and makes a blank one, " +
      "so an event of two data lines sent with CRLF becomes two events",
    code: sseWorked.replace(String.raw`text.split(/\r\n|\r|\n/)`, String.raw`text.split(/\r|\n/)`),
  },
  "sse-only-message-events": {
    fn: "sseData",
    why: "only events of type message (or none) have data: an `event: other` is dropped",
    code: sseWorked
      .replace("let data = [];", 'let data = [];\n  let type = "message";')
      .replace(
        "if (data.length > 0) events.push",
        'if (data.length > 0 && type === "message") events.push',
      )
      .replace("data = []; continue;", 'data = []; type = "message"; continue;')
      .replace(
        'if (field === "data")',
        'if (field === "event") type = value.replace(/^ /, "");\n    if (field === "data")',
      ),
  },
  "sse-lines-trimmed-at-the-start": {
    fn: "sseData",
    why: "each line trimmed at its start: ' data: x' is a field named ' data', not data",
    code: sseWorked.replace(
      "for (const line of lines) {",
      "for (const raw of lines) {\n    const line = raw.trimStart();",
    ),
  },
  "progress-request-zero-is-no-request": {
    fn: "progressOf",
    why: "the request found by the token, tested for truth: request 0 is taken for none",
    code: `export function progressOf(message, tokens) {
  if (message.method !== "notifications/progress") return null;
  const p = message.params ?? {};
  const request = new Map(tokens).get(p.progressToken);
  if (!request && request !== "") return null;
  if (!Number.isFinite(p.progress)) throw new ProtocolError("progress is not a finite number");
  return { request, progress: p.progress, total: typeof p.total === "number" ? p.total : null, message: typeof p.message === "string" ? p.message : null };
}`,
  },
  "route-request-zero-by-truth": {
    fn: "routeReply",
    why: "the id found in flight tested for truth: a reply to request 0 refused",
    code: `export function routeReply(reply, inFlight, cancelled) {
  const found = inFlight.find((id) => id === reply.id);
  if (found || found === "") return found;
  if (cancelled.includes(reply.id)) return null;
  throw new ProtocolError("no request " + JSON.stringify(reply.id));
}`,
  },
  "expired-deadline-zero-by-truth": {
    fn: "expiredIds",
    why: "a request without a deadline skipped by truth: a deadline of 0 never expires",
    code: `export function expiredIds(inFlight, now) {
  return inFlight.filter((r) => r.deadline && r.deadline <= now)
    .toSorted((a, b) => a.deadline - b.deadline).map((r) => r.id);
}`,
  },
  "reply-kind-204-notification-refused": {
    fn: "replyKind",
    why: "only 202 accepts a notification: 204 No Content (a success) refused",
    code: `export function replyKind(reply, sent) {
  if (reply.status === 404 && sent.session) return "session-ended";
  if (!sent.request) return reply.status >= 200 && reply.status <= 299 && reply.status !== 204 ? "accepted" : "refused";
  if (reply.status < 200 || reply.status > 299) return "refused";
  const type = (reply.contentType ?? "").split(";")[0].trim().toLowerCase();
  if (type === "application/json") return "json";
  if (type === "text/event-stream") return "events";
  return "refused";
}`,
  },
};

const files: Record<string, string> = {};
for (const [name, { fn, code }] of Object.entries(MISREADINGS)) {
  files[`${name}/lab-04.ts`] = moduleWith(fn, code);
}
files["worked/lab-04.ts"] = moduleWith("sseData", sseWorked);
const { list } = await grade([await tree(files), "--jobs", "2"]);

const marksOf = (name: string, fn: string) => {
  const results = list.find((r) => r.submission.endsWith(`/${name}`));
  assert.ok(results !== undefined, `${name} was not graded`);
  const marks = results.tests.filter((t) => t.name.startsWith(`${fn}: `));
  return { earned: marks.filter((t) => t.score === t.max_score).length, of: marks.length };
};

Deno.test("the worked Lab 04 module these misreadings are made from keeps every mark", () => {
  for (const fn of new Set(Object.values(MISREADINGS).map((m) => m.fn))) {
    const { earned, of } = marksOf("worked", fn);
    assert.ok(of > 0 && earned === of, `${fn}: ${earned}/${of}`);
  }
});

for (const [name, { fn, why }] of Object.entries(MISREADINGS)) {
  Deno.test(`Lab 04's ${fn}, misread (${why}), loses marks`, () => {
    const { earned, of } = marksOf(name, fn);
    console.log(`${name}: ${fn} ${earned}/${of}`);
    assert.ok(of > 0 && earned < of, `${name} kept ${fn} ${earned}/${of}`);
  });
}
