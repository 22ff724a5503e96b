/**
 * Pictures for the lessons, as SVG: the messages between client and server
 * as a sequence diagram, and the moments of a call and its ending on a
 * timeline. Each has a plain-text twin for where pictures cannot be shown.
 *
 * @module
 */

import { escapeHtml } from "./_html_escape.ts";

/** One message in a sequence diagram. */
export interface SequenceMessage {
  from: "client" | "server";
  label: string;
  /** A remark beside the arrow. @default {undefined} */
  note?: string;
  /** `wrong` draws it red, `quiet` grey. @default {"plain"} */
  tone?: "plain" | "wrong" | "quiet";
}

/** One line of a transcript: its direction, and the message as sent. */
export interface TranscriptEntry {
  direction: ">" | "<";
  line: string;
}

/** A reply the client took as the answer to a request. */
export interface TakenReply {
  requestId: unknown;
  replyId: unknown;
}

const COLOURS = { plain: "#24292f", wrong: "#cf222e", quiet: "#8c959f" };
const ROW = 34;
const WIDTH = 780;
const CLIENT_X = 110;
const SERVER_X = 560;

/**
 * The messages of a transcript, labelled for a sequence diagram. When `taken`
 * lists the replies the client accepted, in order, each reply says which
 * request it was taken to answer, in red when that is not the request it
 * belongs to; replies not taken are grey.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const messages = transcriptMessages([
 *   { direction: ">", line: '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"one two three"}}}' },
 *   { direction: "<", line: '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"4"}]}}' },
 * ], [{ requestId: 4, replyId: 3 }]);
 * assert.equal(messages[1].tone, "wrong");
 * assert.equal(messages[1].note, "taken as the answer to #4");
 * ```
 */
export function transcriptMessages(
  entries: readonly TranscriptEntry[],
  taken?: readonly TakenReply[],
): SequenceMessage[] {
  const queue = [...(taken ?? [])];
  return entries.map(({ direction, line }): SequenceMessage => {
    const from = direction === ">" ? "client" : "server";
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line);
    } catch {
      return { from, label: clip(line, 40), note: "not JSON", tone: "wrong" };
    }
    if (typeof message.method === "string") {
      const id = "id" in message ? ` #${message.id}` : "";
      const params = message.params as Record<string, unknown> | undefined;
      const detail = message.method === "tools/call"
        ? ` ${params?.name} ${
          clip(JSON.stringify(Object.values(params?.arguments ?? {})[0] ?? ""), 28)
        }`
        : "";
      return { from, label: `${message.method}${id}${detail}` };
    }
    const result = message.result as Record<string, unknown> | undefined;
    const text = (result?.content as { text?: string }[] | undefined)?.[0]?.text;
    const label = "error" in message
      ? `error #${message.id}`
      : `result #${message.id}${text === undefined ? "" : `: ${clip(JSON.stringify(text), 24)}`}`;
    if (taken === undefined) return { from, label };
    if (queue.length > 0 && queue[0].replyId === message.id) {
      const { requestId } = queue.shift()!;
      return requestId === message.id
        ? { from, label, note: `the answer to #${requestId}` }
        : { from, label, note: `taken as the answer to #${requestId}`, tone: "wrong" };
    }
    return { from, label, note: "not taken", tone: "quiet" };
  });
}

/**
 * A sequence diagram of `messages` between a client and a server, as SVG.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const svg = sequenceSvg([{ from: "client", label: "ping #1" }, { from: "server", label: "result #1" }]);
 * assert.ok(svg.startsWith("<svg"));
 * assert.ok(svg.includes("ping #1"));
 * ```
 */
export function sequenceSvg(messages: readonly SequenceMessage[], title = ""): string {
  const top = title === "" ? 20 : 44;
  const height = top + 50 + messages.length * ROW + 20;
  const parts = [
    title === "" ? "" : text(20, 24, title, { weight: "bold", size: 15 }),
    ...[["client", CLIENT_X], ["server", SERVER_X]].flatMap(([name, x]) => [
      `<rect x="${
        Number(x) - 50
      }" y="${top}" width="100" height="28" rx="4" fill="#f6f8fa" stroke="#57606a"/>`,
      text(Number(x), top + 19, String(name), { anchor: "middle", weight: "bold" }),
      `<line x1="${x}" y1="${top + 28}" x2="${x}" y2="${
        height - 10
      }" stroke="#8c959f" stroke-dasharray="4 4"/>`,
    ]),
  ];
  messages.forEach((message, index) => {
    const y = top + 64 + index * ROW;
    const colour = COLOURS[message.tone ?? "plain"];
    const [x1, x2] = message.from === "client" ? [CLIENT_X, SERVER_X] : [SERVER_X, CLIENT_X];
    const head = message.from === "client" ? x2 - 8 : x2 + 8;
    parts.push(
      `<line x1="${x1}" y1="${y}" x2="${x2}" y2="${y}" stroke="${colour}" stroke-width="${
        message.tone === "wrong" ? 2.5 : 1.5
      }"/>`,
      `<polygon points="${x2},${y} ${head},${y - 5} ${head},${y + 5}" fill="${colour}"/>`,
      text((CLIENT_X + SERVER_X) / 2, y - 6, message.label, { anchor: "middle", colour }),
    );
    if (message.note) {
      parts.push(text(SERVER_X + 14, y + 4, message.note, { colour, italic: true, size: 12 }));
    }
  });
  return svg(WIDTH, height, parts);
}

/** A moment on a timeline, in seconds from its start. */
export interface TimelineEvent {
  at: number;
  what: string;
  tone?: "plain" | "wrong" | "quiet";
}

/**
 * A timeline of `events`, as SVG: an axis in seconds, and a labelled mark for
 * each event, staggered so that labels do not overlap.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const svg = timelineSvg([{ at: 0, what: "tools/call sent" }, { at: 1, what: "deadline" }]);
 * assert.ok(svg.includes("deadline"));
 * ```
 */
export function timelineSvg(events: readonly TimelineEvent[], title = ""): string {
  const end = Math.max(1, ...events.map((event) => event.at)) * 1.08;
  const left = 40;
  const right = WIDTH - 40;
  const x = (seconds: number) => left + (seconds / end) * (right - left);
  const top = title === "" ? 16 : 40;
  const axis = top + 30 + events.length * 22;
  const parts = [
    title === "" ? "" : text(20, 24, title, { weight: "bold", size: 15 }),
    `<line x1="${left}" y1="${axis}" x2="${right}" y2="${axis}" stroke="#57606a"/>`,
  ];
  const step = end > 4 ? 1 : 0.5;
  for (let tick = 0; tick <= end; tick += step) {
    parts.push(
      `<line x1="${x(tick)}" y1="${axis}" x2="${x(tick)}" y2="${axis + 5}" stroke="#57606a"/>`,
      text(x(tick), axis + 18, `${tick} s`, { anchor: "middle", size: 11, colour: "#57606a" }),
    );
  }
  events.forEach((event, index) => {
    const y = top + 24 + index * 22;
    const colour = COLOURS[event.tone ?? "plain"];
    const anchor = x(event.at) > (left + right) / 2 ? "end" : "start";
    parts.push(
      `<line x1="${x(event.at)}" y1="${y + 4}" x2="${
        x(event.at)
      }" y2="${axis}" stroke="${colour}" stroke-dasharray="2 3"/>`,
      `<circle cx="${x(event.at)}" cy="${axis}" r="4" fill="${colour}"/>`,
      text(
        x(event.at) + (anchor === "start" ? 4 : -4),
        y,
        `${event.at.toFixed(2)} s  ${event.what}`,
        {
          anchor,
          colour,
          size: 12,
        },
      ),
    );
  });
  return svg(WIDTH, axis + 30, parts);
}

/**
 * The same events as plain text, one per line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(timelineText([{ at: 1.5, what: "deadline" }]), "  1.50 s  deadline");
 * ```
 */
export function timelineText(events: readonly TimelineEvent[]): string {
  return events.map((event) => `${event.at.toFixed(2).padStart(6)} s  ${event.what}`).join("\n");
}

/**
 * A sequence diagram's messages as plain text, one per line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(sequenceText([{ from: "server", label: "result #3", note: "late" }]), "client <- server  result #3  (late)");
 * ```
 */
export function sequenceText(messages: readonly SequenceMessage[]): string {
  return messages
    .map((message) =>
      `client ${message.from === "client" ? "->" : "<-"} server  ${message.label}${
        message.note ? `  (${message.note})` : ""
      }`
    )
    .join("\n");
}

function svg(width: number, height: number, parts: string[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="ui-monospace, SFMono-Regular, Menlo, monospace" font-size="13"><rect width="100%" height="100%" fill="#ffffff"/>${
    parts.join("")
  }</svg>`;
}

function text(
  x: number,
  y: number,
  content: string,
  style: { anchor?: string; weight?: string; size?: number; colour?: string; italic?: boolean } =
    {},
): string {
  return `<text x="${x}" y="${y}" text-anchor="${style.anchor ?? "start"}" font-weight="${
    style.weight ?? "normal"
  }" font-size="${style.size ?? 13}" fill="${style.colour ?? "#24292f"}"${
    style.italic ? ' font-style="italic"' : ""
  }>${escapeHtml(content)}</text>`;
}

function clip(value: string, length: number): string {
  return value.length > length ? value.slice(0, length - 1) + "…" : value;
}
