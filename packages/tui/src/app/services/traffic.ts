/**
 * The raw JSON-RPC of a session, read back from the engine's per-session trace
 * (`<session dir>/trace.jsonl`, secrets already redacted by the engine).
 */
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** One frame of the trace. */
export interface TrafficEntry {
  /** Time the frame was seen (ms). */
  readonly at: number;
  readonly direction: 'in' | 'out';
  /** `request`, `response`, `error`, `notification`, or `other` (unparsable or a note). */
  readonly kind: 'request' | 'response' | 'error' | 'notification' | 'other';
  /** Method, `#id`, and for updates the variant, in one short line. */
  readonly summary: string;
  /** The frame as recorded. */
  readonly frame: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The trace file of a session directory. */
export function tracePath(sessionDir: string): string {
  return join(sessionDir, 'trace.jsonl');
}

/** Describes one recorded frame. */
export function describeFrame(direction: 'in' | 'out', at: number, frame: unknown): TrafficEntry {
  if (!isRecord(frame)) return { at, direction, kind: 'other', summary: 'unreadable frame', frame };
  const id = typeof frame.id === 'string' || typeof frame.id === 'number' ? ` #${String(frame.id)}` : '';
  if (typeof frame.method === 'string') {
    const params = isRecord(frame.params) ? frame.params : undefined;
    const update = isRecord(params?.update) ? params.update.sessionUpdate : undefined;
    const detail = typeof update === 'string' ? ` ${update}` : '';
    return {
      at,
      direction,
      kind: id ? 'request' : 'notification',
      summary: `${frame.method}${id}${detail}`,
      frame,
    };
  }
  if (isRecord(frame.error)) {
    const message = typeof frame.error.message === 'string' ? frame.error.message : '';
    return {
      at,
      direction,
      kind: 'error',
      summary: `error${id} ${String(frame.error.code)} ${message}`,
      frame,
    };
  }
  if ('result' in frame) return { at, direction, kind: 'response', summary: `result${id}`, frame };
  return { at, direction, kind: 'other', summary: 'frame', frame };
}

/** Parses trace lines (`{t, dir, frame}` or `{t, note}`); unreadable lines are skipped. */
export function parseTrace(text: string): TrafficEntry[] {
  const entries: TrafficEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(line) as unknown;
    } catch {
      continue;
    }
    if (!isRecord(record)) continue;
    const at = typeof record.t === 'number' ? record.t : 0;
    if (typeof record.note === 'string') {
      entries.push({ at, direction: 'in', kind: 'other', summary: record.note, frame: record });
      continue;
    }
    const direction = record.dir === 'out' ? 'out' : 'in';
    entries.push(describeFrame(direction, at, record.frame));
  }
  return entries;
}

/**
 * The last frames of a trace file: reads at most `maxBytes` from its end (the first, partial line
 * of that window is dropped).
 */
export async function readTraceTail(
  path: string,
  maxBytes = 1024 * 1024,
): Promise<{ entries: TrafficEntry[]; size: number }> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch {
    return { entries: [], size: 0 };
  }
  const start = Math.max(0, size - maxBytes);
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    let text = buffer.toString('utf8');
    if (start > 0) text = text.slice(text.indexOf('\n') + 1);
    return { entries: parseTrace(text), size };
  } finally {
    await handle.close();
  }
}
