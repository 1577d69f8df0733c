/**
 * The raw JSON-RPC of a session as the traffic screen lists it: the engine's live, redacted
 * frames (`session.recentFrames()` and `session.onFrame()`), one short line each.
 */
import type { TraceFrame } from '@acp-kit/client';

/** One frame of the traffic. */
export interface TrafficEntry {
  /** Time the frame was seen (ms). */
  readonly at: number;
  readonly direction: 'in' | 'out';
  /** `request`, `response`, `error`, `notification`, or `other` (unparsable). */
  readonly kind: 'request' | 'response' | 'error' | 'notification' | 'other';
  /** Method, `#id`, and for updates the variant, in one short line. */
  readonly summary: string;
  /** The frame as recorded. */
  readonly frame: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Describes one frame. */
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
  if (typeof frame.raw === 'string') return { at, direction, kind: 'other', summary: 'not JSON', frame };
  return { at, direction, kind: 'other', summary: 'frame', frame };
}

/** Entries already described (the engine hands out the same frame objects until they age out). */
const described = new WeakMap<TraceFrame, TrafficEntry>();

/** The entry of an engine frame. */
export function trafficEntry(frame: TraceFrame): TrafficEntry {
  let entry = described.get(frame);
  if (!entry) {
    entry = describeFrame(frame.dir, frame.t, frame.frame);
    described.set(frame, entry);
  }
  return entry;
}
