/**
 * Reading the end of a recorded trace back (`<session dir>/trace.jsonl`), so a reopened session's
 * live feed starts with the traffic recorded before it.
 */
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecord } from '../util/json-file.js';
import type { TraceFrame } from './trace.js';

/** A recorded frame and the length of its line. */
export interface RecordedFrame {
  frame: TraceFrame;
  size: number;
}

/**
 * The last frames of a session's trace: at most `maxFrames`, read from at most the last `maxBytes`
 * of the file. Torn or unreadable lines and notes (`{t, note}`) are skipped; a missing file has none.
 */
export async function readTraceTail(
  sessionDir: string,
  { maxFrames, maxBytes }: { maxFrames: number; maxBytes: number },
): Promise<RecordedFrame[]> {
  let handle;
  try {
    handle = await open(join(sessionDir, 'trace.jsonl'), 'r');
  } catch {
    return [];
  }
  let text: string;
  try {
    const size = (await handle.stat()).size;
    const start = Math.max(0, size - maxBytes);
    const buffer = Buffer.alloc(size - start);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    text = buffer.subarray(0, bytesRead).toString('utf8');
    // The window starts inside a line: drop that part.
    if (start > 0) text = text.slice(text.indexOf('\n') + 1);
  } finally {
    await handle.close();
  }
  const frames: RecordedFrame[] = [];
  for (const line of text.split('\n')) {
    const frame = parseTraceLine(line);
    if (frame) frames.push({ frame, size: line.length + 1 });
  }
  return frames.slice(-maxFrames);
}

/** One trace line as a frame; undefined for a torn line, a note, or anything else. */
export function parseTraceLine(line: string): TraceFrame | undefined {
  if (line.trim() === '') return undefined;
  let record: unknown;
  try {
    record = JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
  if (!isRecord(record) || typeof record.t !== 'number' || !('frame' in record)) return undefined;
  if (record.dir !== 'in' && record.dir !== 'out') return undefined;
  return { t: record.t, dir: record.dir, frame: record.frame };
}
