// Row 2: the frame reader, `readFrames` from lib/mcp/shared/framing.ts, against the limit:
// a bare loop that reads the same chunks from the same kind of stream into one
// reused buffer and only counts their newlines. The input is 100-byte frames
// (99 bytes and a newline) delivered in 64 KiB chunks, so most frames lie whole
// in a chunk and one in each chunk is split across two. The stream is a byte
// stream that copies each chunk into the reader's buffer, as a child's stdout
// does.

import { readFrames } from "../lib/mcp/shared/framing.ts";
import { median } from "./_measure.ts";

/** The size of one frame, newline included. */
export const FRAME_BYTES = 100;
/** The size of one chunk. */
export const CHUNK_BYTES = 64 * 1024;

const MiB = 1024 * 1024;

/** What row 2 measured. */
export interface FrameReadingResult {
  /** The sizes read, in MiB, smallest first; the largest is the one compared. */
  sizesMiB: number[];
  rounds: number;
  /** Milliseconds for each size, median of the rounds, by reader. */
  medianMs: { scan: number[]; readFrames: number[] };
  /** The frame reader's speed as a fraction of the scan's, at the largest size, median of the rounds. Target: at least 0.5. */
  speedVsScan: number;
  /** Time at each size over time at the size before it (half as large), in the same round, medians. Target: at most 2, within noise. */
  growth: number[];
}

/** Options for {@linkcode measureFrameReading}. */
export interface FrameReadingOptions {
  /** The largest input, in MiB; it is also read at half and a quarter of that. @default {256} */
  mib?: number;
  /** Rounds; each reads every size both ways. @default {5} */
  rounds?: number;
}

/**
 * The bytes of an endless run of frames: the pattern repeats every
 * lcm(100, 65536) = 1,638,400 bytes, 25 chunks, so that much is made once.
 */
function framePattern(): Uint8Array {
  const bytes = new Uint8Array(25 * CHUNK_BYTES).fill(0x78);
  for (let end = FRAME_BYTES - 1; end < bytes.length; end += FRAME_BYTES) bytes[end] = 0x0a;
  return bytes;
}

const PATTERN = framePattern();

/** A byte stream of `frames` whole frames, in 64 KiB chunks (the last one shorter). */
function frameStream(frames: number): ReadableStream<Uint8Array> {
  const bytes = frames * FRAME_BYTES;
  let sent = 0;
  return new ReadableStream({
    type: "bytes",
    autoAllocateChunkSize: CHUNK_BYTES,
    pull(controller) {
      const request = controller.byobRequest!;
      if (sent === bytes) {
        controller.close();
        return request.respond(0);
      }
      const view = request.view!;
      const size = Math.min(CHUNK_BYTES, view.byteLength, bytes - sent);
      const from = sent % PATTERN.length;
      new Uint8Array(view.buffer, view.byteOffset, size).set(PATTERN.subarray(from, from + size));
      sent += size;
      request.respond(size);
    },
  });
}

/** The limit: read every chunk into one buffer and count its newlines. */
async function scan(frames: number): Promise<number> {
  const reader = frameStream(frames).getReader({ mode: "byob" });
  let buffer = new ArrayBuffer(CHUNK_BYTES);
  let lines = 0;
  while (true) {
    const { value, done } = await reader.read(new Uint8Array(buffer));
    if (done) return lines;
    buffer = value.buffer as ArrayBuffer;
    for (let at = value.indexOf(0x0a); at !== -1; at = value.indexOf(0x0a, at + 1)) lines++;
  }
}

/** The frame reader, counting the frames it yields. */
async function read(frames: number): Promise<number> {
  let count = 0;
  for await (const batch of readFrames(frameStream(frames))) count += batch.length;
  return count;
}

/** Read each size both ways, `rounds` times, alternating which goes first. */
export async function measureFrameReading(
  options: FrameReadingOptions = {},
): Promise<FrameReadingResult> {
  const { mib = 256, rounds = 5 } = options;
  const sizesMiB = [mib / 4, mib / 2, mib];
  const times = {
    scan: sizesMiB.map(() => [] as number[]),
    readFrames: sizesMiB.map(() => [] as number[]),
  };
  const speed: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const [i, size] of sizesMiB.entries()) {
      const frames = Math.floor(size * MiB / FRAME_BYTES);
      const order = round % 2 === 0
        ? ["scan", "readFrames"] as const
        : ["readFrames", "scan"] as const;
      const ms = { scan: 0, readFrames: 0 };
      for (const way of order) {
        const start = performance.now();
        const count = await (way === "scan" ? scan(frames) : read(frames));
        ms[way] = performance.now() - start;
        if (count !== frames) throw new Error(`${way} found ${count} frames, not ${frames}`);
        times[way][i].push(ms[way]);
      }
      if (i === sizesMiB.length - 1) speed.push(ms.scan / ms.readFrames);
    }
  }
  const growth = sizesMiB.slice(1).map((_, i) => {
    const [smaller, larger] = [times.readFrames[i], times.readFrames[i + 1]];
    return median(larger.map((ms, round) => ms / smaller[round]));
  });
  return {
    sizesMiB,
    rounds,
    medianMs: { scan: times.scan.map(median), readFrames: times.readFrames.map(median) },
    speedVsScan: median(speed),
    growth,
  };
}
