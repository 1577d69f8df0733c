/**
 * A frame as evidence in a report: short enough to read in a table, with secrets and terminal
 * control characters removed (a report is printed to a terminal and pasted into bug reports).
 */
import { isObject, type ObservedFrame } from './types.js';

const MAX_STRING = 80;
const MAX_ITEMS = 6;
const MAX_DEPTH = 5;
const MAX_TOTAL = 480;
/** Keys whose values are credentials or may hold them (an env block, headers). */
const SECRET_KEY = /token|secret|password|passwd|api[-_]?key|authorization|cookie|^env$|credential/i;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function sanitizeString(text: string): string {
  const clean = text.replace(CONTROL, (c) => (c === '\n' ? '⏎' : '�'));
  return clean.length > MAX_STRING ? `${clean.slice(0, MAX_STRING - 1)}…(${clean.length} chars)` : clean;
}

function shorten(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return sanitizeString(value);
  if (Array.isArray(value)) {
    if (depth >= MAX_DEPTH) return `[…${value.length} items]`;
    const head = value.slice(0, MAX_ITEMS).map((item) => shorten(item, depth + 1));
    return value.length > MAX_ITEMS ? [...head, `…${value.length - MAX_ITEMS} more`] : head;
  }
  if (isObject(value)) {
    if (depth >= MAX_DEPTH) return '{…}';
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[sanitizeString(key)] = SECRET_KEY.test(key) ? '[redacted]' : shorten(item, depth + 1);
    }
    return out;
  }
  return value;
}

/** `frame` shortened and sanitized, as one line of JSON (cut at about 480 characters). */
export function evidenceOf(frame: unknown): string {
  const text = JSON.stringify(shorten(frame, 0)) ?? String(frame);
  return text.length > MAX_TOTAL ? `${text.slice(0, MAX_TOTAL - 1)}…` : text;
}

/** An observed frame as evidence, prefixed with its direction and time. */
export function evidenceOfObserved(observed: ObservedFrame): string {
  const arrow = observed.dir === 'in' ? 'agent→' : '→agent';
  return `${arrow} @${Math.round(observed.t)}ms ${evidenceOf(observed.frame)}`;
}
