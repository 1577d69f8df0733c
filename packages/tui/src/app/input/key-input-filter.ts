/**
 * Filters what the terminal sends on stdin before Ink sees it. Ink 6.8 throws on escape sequences
 * it cannot name (an SGR such as `ESC[31m` pasted or echoed back), and it does not report function
 * keys. The filter keeps text, control keys and the key sequences Ink understands, turns F1 into a
 * callback, and drops everything else (SGR, OSC, mouse and focus reports, bracketed-paste markers,
 * C1 controls).
 */

const ESC = '\x1b';
/** CSI finals of cursor and editing keys (`ESC [ 1 ; 5 C` is Ctrl+→). */
const CSI_KEY_FINALS = new Set(['A', 'B', 'C', 'D', 'E', 'F', 'H', 'Z']);
/** `ESC [ n ~` keys Ink names: home, insert, delete, end, page up/down (rxvt home/end too). */
const TILDE_KEYS = new Set(['1', '2', '3', '4', '5', '6', '7', '8']);
const SS3_KEYS = new Set(['A', 'B', 'C', 'D', 'F', 'H']);
/** Longest sequence held while waiting for its end. */
const MAX_PENDING = 4096;

/** A key the filter recognises and reports instead of passing on. */
export type FilteredKey = 'f1';

/** What one chunk turned into. */
export interface FilterResult {
  /** Input to pass on to Ink. */
  readonly output: string;
  /** Recognised keys, in order. */
  readonly keys: readonly FilteredKey[];
  /** Sequences dropped. */
  readonly dropped: number;
}

type Scan =
  | { readonly kind: 'pending' }
  | { readonly kind: 'keep' | 'drop'; readonly end: number }
  | { readonly kind: 'key'; readonly key: FilteredKey; readonly end: number };

function isF1(params: string, final: string): boolean {
  return (final === '~' && params === '11') || (final === 'P' && /^1;\d+$/.test(params));
}

function scanCsi(text: string, start: number): Scan {
  // ESC [ [ A..E: F1–F5 of the Linux console.
  if (text[start + 2] === '[') {
    const final = text[start + 3];
    if (final === undefined) return { kind: 'pending' };
    if (final === 'A') return { kind: 'key', key: 'f1', end: start + 4 };
    return { kind: 'drop', end: start + 4 };
  }
  let i = start + 2;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code >= 0x20 && code <= 0x3f) {
      i++;
      continue;
    }
    if (code >= 0x40 && code <= 0x7e) {
      const params = text.slice(start + 2, i);
      const final = text[i] as string;
      const end = i + 1;
      if (isF1(params, final)) return { kind: 'key', key: 'f1', end };
      const plain = /^[\d;]*$/.test(params);
      if (plain && CSI_KEY_FINALS.has(final)) return { kind: 'keep', end };
      if (plain && final === '~') {
        const [first = '', ...modifiers] = params.split(';');
        if (TILDE_KEYS.has(first) && modifiers.length <= 1) return { kind: 'keep', end };
      }
      return { kind: 'drop', end };
    }
    // Not a CSI after all (a control character inside): drop the introducer only.
    return { kind: 'drop', end: i };
  }
  return { kind: 'pending' };
}

function scanOsc(text: string, start: number): Scan {
  for (let i = start + 2; i < text.length; i++) {
    if (text[i] === '\x07') return { kind: 'drop', end: i + 1 };
    if (text[i] === ESC) {
      if (i + 1 >= text.length) return { kind: 'pending' };
      return { kind: 'drop', end: text[i + 1] === '\\' ? i + 2 : i };
    }
  }
  return { kind: 'pending' };
}

function scanEscape(text: string, start: number): Scan {
  const next = text[start + 1];
  if (next === undefined) return { kind: 'pending' };
  if (next === '[') return scanCsi(text, start);
  if (next === ']') return scanOsc(text, start);
  if (next === 'O') {
    const final = text[start + 2];
    if (final === undefined) return { kind: 'pending' };
    if (final === 'P') return { kind: 'key', key: 'f1', end: start + 3 };
    return { kind: SS3_KEYS.has(final) ? 'keep' : 'drop', end: start + 3 };
  }
  if (next === ESC) {
    // Meta + a key sequence (ESC ESC [ A), or Escape pressed twice.
    const inner = scanEscape(text, start + 1);
    if (inner.kind === 'pending') return inner;
    if (inner.kind === 'keep') return inner;
    return { kind: 'keep', end: start + 1 };
  }
  const code = next.codePointAt(0) ?? 0;
  if (code >= 0x80 && code <= 0x9f) return { kind: 'drop', end: start + 2 };
  // Alt + a character or a control key (Alt+Enter, Alt+Backspace).
  return { kind: 'keep', end: start + 1 + (code > 0xffff ? 2 : 1) };
}

/**
 * A stateful filter: sequences split across chunks are held until they complete.
 *
 * @example
 * const filter = new KeyInputFilter();
 * filter.push('hi\x1b[31m\x1bOP'); // { output: 'hi', keys: ['f1'], dropped: 1 }
 */
export class KeyInputFilter {
  private pending = '';

  /** Filters a chunk. */
  push(chunk: string): FilterResult {
    const text = this.pending + chunk;
    this.pending = '';
    let output = '';
    const keys: FilteredKey[] = [];
    let dropped = 0;
    let i = 0;
    while (i < text.length) {
      const escape = text.indexOf(ESC, i);
      const stop = escape < 0 ? text.length : escape;
      if (stop > i) {
        const plain = text.slice(i, stop);
        const cleaned = plain.replace(/[\u0080-\u009f]/g, '');
        dropped += plain.length - cleaned.length;
        output += cleaned;
      }
      if (escape < 0) break;
      const scan = scanEscape(text, escape);
      if (scan.kind === 'pending') {
        const rest = text.slice(escape);
        if (rest.length > MAX_PENDING) dropped++;
        else this.pending = rest;
        break;
      }
      if (scan.kind === 'keep') output += text.slice(escape, scan.end);
      else if (scan.kind === 'key') keys.push(scan.key);
      else dropped++;
      i = scan.end;
    }
    return { output, keys, dropped };
  }

  /** Whether an incomplete sequence is held. */
  get hasPending(): boolean {
    return this.pending !== '';
  }

  /**
   * Ends a held sequence when no more input came: a lone Escape is a key press; an unfinished
   * sequence is dropped.
   */
  flush(): string {
    const held = this.pending;
    this.pending = '';
    return held === ESC ? held : '';
  }
}

/** Input at most this long is split into separate key presses; longer input is a paste. */
export const MAX_KEYS_CHUNK = 16;

/**
 * Splits filtered input into key presses (characters, and escape sequences whole), so keys typed
 * faster than they are read (or sent together by a terminal multiplexer) reach the UI one by one.
 * Longer input is left whole: it is a paste, inserted as text.
 *
 * @example
 * splitKeys('ny\r'); // ['n', 'y', '\r']
 */
export function splitKeys(text: string): string[] {
  if (text.length > MAX_KEYS_CHUNK) return [text];
  const keys: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] !== ESC) {
      const code = text.codePointAt(i) ?? 0;
      const size = code > 0xffff ? 2 : 1;
      keys.push(text.slice(i, i + size));
      i += size;
      continue;
    }
    let end = i + 1;
    if (text[end] === ESC) end++;
    if (text[end] === '[') {
      end++;
      while (end < text.length && /[\d;[]/.test(text[end] as string)) end++;
      end++;
    } else if (text[end] === 'O') end += 2;
    else if (end < text.length && end === i + 1) end++;
    keys.push(text.slice(i, Math.min(end, text.length)));
    i = Math.min(end, text.length);
  }
  return keys;
}
