/**
 * Reading a session's `events.jsonl`: one {@link SessionEvent} per line, from any byte offset
 * that starts a line. A torn last line (a crash in the middle of an append) is left out; the
 * writer cuts it off before appending again.
 */
import { open } from 'node:fs/promises';
import type { SessionEvent } from '../session/events.js';
import { upgradeV1Event } from '../protocol-v1/v1-events.js';

/** Events read from a record, and where the complete lines end. */
export interface EventLines {
  events: SessionEvent[];
  /** Lines that could not be parsed (a torn last line after a crash). */
  skippedLines: number;
  /** Byte offset just after the last complete line (where the next append starts). */
  end: number;
}

/** Parses JSON lines; lines that are not JSON are counted, not thrown. */
export function parseEventLines(text: string): { events: SessionEvent[]; skippedLines: number } {
  const events: SessionEvent[] = [];
  let skippedLines = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end > start) {
      try {
        // A line of a version-1 record (or appended before the upgrade) goes through the v1 face.
        events.push(...upgradeV1Event(JSON.parse(text.slice(start, end)) as SessionEvent));
      } catch {
        skippedLines++;
      }
    }
    start = end + 1;
  }
  return { events, skippedLines };
}

/**
 * The events of `file` from byte `from` (0, or an offset where a line starts) to its end; an
 * empty record when the file does not exist.
 */
export async function readEventLines(file: string, from = 0): Promise<EventLines> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { events: [], skippedLines: 0, end: 0 };
    throw error;
  }
  try {
    const { size } = await handle.stat();
    const bytes = Buffer.alloc(Math.max(0, size - from));
    let read = 0;
    while (read < bytes.length) {
      const { bytesRead } = await handle.read(bytes, read, bytes.length - read, from + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    const newline = bytes.subarray(0, read).lastIndexOf(0x0a);
    return { ...parseEventLines(bytes.toString('utf8', 0, read)), end: from + newline + 1 };
  } finally {
    await handle.close();
  }
}
