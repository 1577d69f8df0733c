/**
 * Filters what the terminal sends on stdin before Ink sees it. Ink 6.8 throws on escape sequences
 * it cannot name (an SGR such as `ESC[31m` pasted or echoed back), and it does not report function
 * keys. The filter keeps text, control keys and the key sequences Ink understands, turns F1 into a
 * callback, takes a bracketed paste (`ESC[200~ … ESC[201~`) as one piece of text, and drops
 * everything else (SGR, OSC, mouse and focus reports, C1 controls). What is kept comes out as
 * separate key presses, typed text and pastes: only a paste may carry a line break as text.
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

/**
 * A piece of input: one key press (a control character such as Enter, or a key sequence), printable
 * characters typed, or a bracketed paste (text, never keys: a pasted line break is not Enter).
 */
export interface InputSegment {
  readonly kind: 'key' | 'text' | 'paste';
  readonly text: string;
}

const PASTE_START = '200';
const PASTE_END = `${ESC}[201~`;

/** What one chunk turned into. */
export interface FilterResult {
  /** Input to pass on to Ink (every segment's text, in order). */
  readonly output: string;
  /** The output as key presses, typed text and pastes, in order. */
  readonly segments: readonly InputSegment[];
  /** Recognised keys, in order. */
  readonly keys: readonly FilteredKey[];
  /** Sequences dropped. */
  readonly dropped: number;
}

type Scan =
  | { readonly kind: 'pending' }
  | { readonly kind: 'keep' | 'drop'; readonly end: number }
  | { readonly kind: 'key'; readonly key: FilteredKey; readonly end: number }
  | { readonly kind: 'paste'; readonly end: number };

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
      if (final === '~' && params === PASTE_START) return { kind: 'paste', end };
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
 * Text of a bracketed paste: line breaks as `\n`, and no escape sequence or control character
 * (pasted text must not act as keys or draw on the screen).
 */
function cleanPaste(text: string): { text: string; dropped: number } {
  let out = '';
  let dropped = 0;
  let i = 0;
  while (i < text.length) {
    const escape = text.indexOf(ESC, i);
    out += text.slice(i, escape < 0 ? text.length : escape);
    if (escape < 0) break;
    const scan = scanEscape(text, escape);
    dropped++;
    if (scan.kind === 'pending') break;
    i = Math.max(scan.end, escape + 1);
  }
  const normalised = out.replace(/\r\n?/g, '\n');
  // eslint-disable-next-line no-control-regex
  const cleaned = normalised.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
  return { text: cleaned, dropped: dropped + normalised.length - cleaned.length };
}

/** Length of the longest end of `text` that could begin `marker` (held until more input comes). */
function partialMarker(text: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(marker.slice(0, n))) return n;
  }
  return 0;
}

/** Typed characters as key presses (control characters, one each) and runs of printable text. */
function typedSegments(text: string, into: InputSegment[]): void {
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x20 && code !== 0x7f) continue;
    if (i > start) into.push({ kind: 'text', text: text.slice(start, i) });
    into.push({ kind: 'key', text: text[i] as string });
    start = i + 1;
  }
  if (start < text.length) into.push({ kind: 'text', text: text.slice(start) });
}

/**
 * A stateful filter: sequences split across chunks are held until they complete, and a bracketed
 * paste is held until its end marker.
 *
 * @example
 * const filter = new KeyInputFilter();
 * filter.push('hi\r\x1b[31m\x1bOP');
 * // { output: 'hi\r', keys: ['f1'], dropped: 1,
 * //   segments: [{ kind: 'text', text: 'hi' }, { kind: 'key', text: '\r' }] }
 */
export class KeyInputFilter {
  private pending = '';
  /** The text of a paste whose end marker has not come yet. */
  private paste: string | undefined;

  /** Filters a chunk. */
  push(chunk: string): FilterResult {
    const text = this.pending + chunk;
    this.pending = '';
    const segments: InputSegment[] = [];
    const keys: FilteredKey[] = [];
    let dropped = 0;
    let i = 0;
    while (i < text.length) {
      if (this.paste !== undefined) {
        const end = text.indexOf(PASTE_END, i);
        if (end < 0) {
          const held = partialMarker(text, PASTE_END);
          this.paste += text.slice(i, text.length - held);
          this.pending = text.slice(text.length - held);
          break;
        }
        const paste = cleanPaste(this.paste + text.slice(i, end));
        dropped += paste.dropped;
        if (paste.text !== '') segments.push({ kind: 'paste', text: paste.text });
        this.paste = undefined;
        i = end + PASTE_END.length;
        continue;
      }
      const escape = text.indexOf(ESC, i);
      const stop = escape < 0 ? text.length : escape;
      if (stop > i) {
        const plain = text.slice(i, stop);
        const cleaned = plain.replace(/[\u0080-\u009f]/g, '');
        dropped += plain.length - cleaned.length;
        typedSegments(cleaned, segments);
      }
      if (escape < 0) break;
      const scan = scanEscape(text, escape);
      if (scan.kind === 'pending') {
        const rest = text.slice(escape);
        if (rest.length > MAX_PENDING) dropped++;
        else this.pending = rest;
        break;
      }
      if (scan.kind === 'keep') segments.push({ kind: 'key', text: text.slice(escape, scan.end) });
      else if (scan.kind === 'key') keys.push(scan.key);
      else if (scan.kind === 'paste') this.paste = '';
      else dropped++;
      i = scan.end;
    }
    return { output: segments.map((segment) => segment.text).join(''), segments, keys, dropped };
  }

  /** Whether an incomplete key sequence is held (not a paste: its end marker always comes). */
  get hasPending(): boolean {
    return this.pending !== '' && this.paste === undefined;
  }

  /**
   * Ends a held sequence when no more input came: a lone Escape is a key press; an unfinished
   * sequence is dropped. A paste in progress is kept.
   */
  flush(): string {
    if (this.paste !== undefined) return '';
    const held = this.pending;
    this.pending = '';
    return held === ESC ? held : '';
  }
}
