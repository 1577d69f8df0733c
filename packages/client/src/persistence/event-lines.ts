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
  const parsed = { events: [] as SessionEvent[], skippedLines: 0 };
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end > start) parseLine(text.slice(start, end), parsed);
    start = end + 1;
  }
  return parsed;
}

function parseLine(line: string, into: { events: SessionEvent[]; skippedLines: number }): void {
  try {
    // A line of a version-1 record (or appended before the upgrade) goes through the v1 face.
    into.events.push(...upgradeV1Event(JSON.parse(line) as SessionEvent));
  } catch {
    into.skippedLines++;
  }
}

/** Bytes read at a time. */
const READ_BYTES = 1024 * 1024;

/**
 * The events of `file` from byte `from` (0, or an offset where a line starts) to its end; an
 * empty record when the file does not exist. Read and decoded a piece at a time, each line parsed
 * once it is complete: a record holding a message of tens of MiB is never also held whole as
 * bytes and as text.
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
    const parsed = { events: [] as SessionEvent[], skippedLines: 0 };
    const decoder = new TextDecoder();
    // Not zeroed: only the bytes each read fills are looked at. Reading a record from its
    // checkpoint's end usually finds nothing after it, and zeroing 1 MiB for that cost up to ~5 ms
    // of page faults on the way to a reopened session's first frame.
    const buffer = Buffer.allocUnsafe(READ_BYTES);
    /** The line being read, decoded piece by piece. */
    let pieces: string[] = [];
    let position = from;
    let end = from;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      const bytes = buffer.subarray(0, bytesRead);
      let start = 0;
      let newline: number;
      while ((newline = bytes.indexOf(0x0a, start)) !== -1) {
        const last = decoder.decode(bytes.subarray(start, newline));
        if (last.length > 0) pieces.push(last);
        if (pieces.length > 0)
          parseLine(pieces.length === 1 ? (pieces[0] as string) : pieces.join(''), parsed);
        pieces = [];
        start = newline + 1;
        end = position + start;
      }
      if (start < bytesRead) pieces.push(decoder.decode(bytes.subarray(start), { stream: true }));
      position += bytesRead;
    }
    // A last line without its newline (torn, or complete JSON all the same) is parsed like the others.
    const last = decoder.decode();
    if (last.length > 0) pieces.push(last);
    if (pieces.length > 0) parseLine(pieces.join(''), parsed);
    return { ...parsed, end };
  } finally {
    await handle.close();
  }
}
