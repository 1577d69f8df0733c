/**
 * Parsing a long line as it arrives, piece by piece, without joining the pieces. `JSON.parse`
 * needs the line as one string and copies every string value out of it: for a line carrying one
 * text of tens of MiB, the pieces, the joined line and the parsed text were three copies of it at
 * once. Here each piece is scanned when it arrives; a long string value is taken straight from
 * it (without escapes) or decoded from it (with escapes, an escape possibly cut between two
 * pieces), so a piece is not needed any more once it was pushed, and only the rest of the line
 * (a few hundred bytes) goes through `JSON.parse`. Runtime-neutral.
 */

/** Lines shorter than this are parsed as usual. */
export const LONG_LINE_CHARS = 1024 * 1024;
/** String values at least this long are taken out of the line and joined from its pieces. */
const LONG_STRING_CHARS = 64 * 1024;
/** A character JSON forbids unescaped inside a string: such a value is left to `JSON.parse`. */
// eslint-disable-next-line no-control-regex -- exactly the characters JSON forbids unescaped in a string
const CONTROL = /[\u0000-\u001f]/;
const BACKSLASH = 0x5c;

/** What the parse of a whole long line gave. */
export type LongLineResult =
  /** The line's value. `outline`: the line with each long value replaced by a short marker. */
  | { kind: 'parsed'; value: unknown; outline: string }
  /** Blank (whitespace only): no frame. */
  | { kind: 'blank' }
  /**
   * This path could not parse it (not JSON, a malformed escape, a long key, nesting deeper than
   * the stack): the usual parse of the line decides, errors included.
   */
  | { kind: 'declined' };

/**
 * Parses one long line from the pieces it arrives in: {@link push} each piece in order, then
 * {@link end}. It keeps the short rest of the line and the long values, never the pieces
 * themselves (a slice refers to the piece it was cut from: the rest's slices keep the few pieces
 * the rest lies in, a value without escapes keeps its own until it is joined at its end);
 * {@link text} rebuilds the line for a line it declined (the long values it had decoded spelt as
 * `JSON.stringify` spells them: the same JSON, not always the same bytes).
 *
 * @example
 * const parser = new LongLineParser();
 * for (const piece of ['{"text":"', 'x'.repeat(70_000), '"}']) parser.push(piece);
 * parser.end(); // { kind: 'parsed', value: { text: 'xxx…' }, outline: '{"text":"…marker…"}' }
 */
export class LongLineParser {
  /** A marker no peer can predict stands for each long value in the rest of the line. */
  private readonly marker = `\u0000acp-kit-long-value-${Math.random().toString(36).slice(2)}:`;
  /** The line outside its long values, in order; a number is the index of a long value. */
  private readonly rest: (string | number)[] = [];
  private readonly values: string[] = [];
  private inString = false;
  /** The previous piece ended with a backslash inside a string: its first character is escaped. */
  private skipFirst = false;
  /** The current string's raw text while it is short. */
  private current: string[] = [];
  private currentLength = 0;
  /** The current string once it is long. */
  private value: ValueDecoder | undefined;
  /** A long value could not be decoded: the rest of the line is kept as it came. */
  private declined = false;

  /**
   * Characters of the line kept as they came (the rest of the line, the current string while it
   * is short, an undecodable value): what must stay small for the pieces to go. Decoded values
   * are not counted.
   */
  get keptChars(): number {
    let chars = this.currentLength + (this.value?.keptChars ?? 0);
    for (const part of this.rest) if (typeof part === 'string') chars += part.length;
    return chars;
  }

  /** Takes the next piece of the line; the parser keeps no reference to it beyond its values. */
  push(text: string): void {
    /** Start of the part of `text` not yet given to the rest of the line or to a string. */
    let run = 0;
    /** Where the current string began in `text`, or -1 when it began in an earlier piece. */
    let stringFrom = -1;
    let at = this.skipFirst ? 1 : 0;
    this.skipFirst = false;
    // The next quote and backslash at or after `at`, searched again only once passed (each
    // search from scratch would be quadratic in a piece of many short strings).
    let quote = text.indexOf('"', at);
    let backslash = -1;
    let backslashFrom = Infinity;
    while (at < text.length) {
      if (quote !== -1 && quote < at) quote = text.indexOf('"', at);
      if (!this.inString) {
        if (quote === -1) break;
        this.inString = true;
        stringFrom = quote + 1;
        at = quote + 1;
        continue;
      }
      if (backslashFrom === Infinity || (backslash !== -1 && backslash < at)) {
        backslash = text.indexOf('\\', at);
        backslashFrom = at;
      }
      if (backslash !== -1 && (quote === -1 || backslash < quote)) {
        if (backslash + 1 >= text.length) this.skipFirst = true;
        at = backslash + 2;
        continue;
      }
      if (quote === -1) break;
      run = this.closeString(text, run, stringFrom, quote);
      stringFrom = -1;
      this.inString = false;
      at = quote + 1;
    }
    if (!this.inString) {
      if (run < text.length) this.rest.push(slice(text, run, text.length));
      return;
    }
    // The piece ends inside a string: what comes before it goes to the rest of the line, the
    // string's part to the string.
    const from = stringFrom === -1 ? 0 : stringFrom;
    if (from > run) this.rest.push(slice(text, run, from));
    if (from < text.length) this.inside(slice(text, from, text.length));
  }

  /** The line's value once every piece was pushed (see {@link LongLineResult}). */
  end(): LongLineResult {
    if (this.inString) {
      // An unterminated string: not JSON. Its raw text is kept for the usual parse's error.
      if (this.value) this.rest.push(...this.value.raw());
      else this.rest.push(...this.current);
      this.value = undefined;
      this.current = [];
      this.inString = false;
      this.declined = true;
    }
    if (this.values.length === 0) {
      if (this.rest.every((part) => typeof part === 'string' && part.trim() === '')) return { kind: 'blank' };
      return { kind: 'declined' };
    }
    if (this.declined) return { kind: 'declined' };
    const outline = this.rest
      .map((part) =>
        typeof part === 'number' ? JSON.stringify(this.marker + String(part)).slice(1, -1) : part,
      )
      .join('');
    let parsed: unknown;
    try {
      parsed = JSON.parse(outline) as unknown;
    } catch {
      return { kind: 'declined' };
    }
    const placed = { count: 0 };
    let result: unknown;
    try {
      result = place(parsed, this.marker, this.values, placed);
    } catch {
      // Nesting deeper than the stack (JSON.parse has no such limit): the usual way takes it.
      return { kind: 'declined' };
    }
    if (result === NOT_HERE || placed.count !== this.values.length) return { kind: 'declined' };
    return { kind: 'parsed', value: result, outline };
  }

  /**
   * The line, for one that {@link end} declined: what it kept as it came, and the long values it
   * had decoded written again as JSON string contents. Costs a copy of the line: the rare path.
   */
  text(): string {
    let line = '';
    for (const part of this.rest)
      line += typeof part === 'number' ? JSON.stringify(this.values[part]).slice(1, -1) : part;
    return line;
  }

  /** A part of the current string that the piece ends in. */
  private inside(part: string): void {
    if (this.value) {
      this.value.push(part);
      return;
    }
    this.current.push(part);
    this.currentLength += part.length;
    if (this.currentLength >= LONG_STRING_CHARS && !this.declined) {
      // Long: decoded from now on, and what was kept of it so far goes.
      this.value = new ValueDecoder();
      for (const kept of this.current) this.value.push(kept);
      this.current = [];
      this.currentLength = 0;
    }
  }

  /**
   * The current string ends at `quote` in `text` (`from`: where it began there, or -1). A short
   * one stays in the run of `text` not yet taken, which starts at `run`; returns where that run
   * starts now.
   */
  private closeString(text: string, run: number, from: number, quote: number): number {
    const start = from === -1 ? 0 : from;
    const length = this.currentLength + quote - start;
    if (!this.value && (length < LONG_STRING_CHARS || this.declined)) {
      // Short: its earlier parts, then the run goes on through its end in this piece.
      if (this.current.length > 0) this.rest.push(...this.current);
      this.current = [];
      this.currentLength = 0;
      return run;
    }
    if (start > run) this.rest.push(slice(text, run, start));
    const decoder = this.value ?? new ValueDecoder();
    for (const kept of this.current) decoder.push(kept);
    if (quote > start) decoder.push(slice(text, start, quote));
    const value = decoder.end();
    if (value === undefined) {
      // A malformed escape or a control character: the line is left to the usual parse, which
      // says what is wrong. The decoded start of the value is spelt again by text().
      this.rest.push(...decoder.raw());
      this.declined = true;
    } else {
      this.rest.push(this.values.length);
      this.values.push(value);
    }
    this.value = undefined;
    this.current = [];
    this.currentLength = 0;
    // The closing quote begins the next run.
    return quote;
  }
}

/**
 * The value of the JSON text `pieces` make together, or undefined when this path does not apply
 * (no long string value, or one used as a key) or the text is not JSON: the caller then joins the
 * pieces and parses them as usual, errors included.
 *
 * @example
 * parseLongLine(['{"text":"', 'x'.repeat(70_000), '"}']); // { value: { text: 'xxx…' } }
 */
export function parseLongLine(pieces: readonly string[]): { value: unknown } | undefined {
  const parser = new LongLineParser();
  for (const piece of pieces) parser.push(piece);
  const result = parser.end();
  return result.kind === 'parsed' ? { value: result.value } : undefined;
}

/** `text[from, to)`; the text itself when that is all of it (no slice object). */
function slice(text: string, from: number, to: number): string {
  return from === 0 && to === text.length ? text : text.slice(from, to);
}

/**
 * The inside of a JSON string literal given part by part, decoded as it comes: a part without a
 * backslash is taken as it is (after the control-character check), one with escapes is decoded
 * by `JSON.parse` (native, and it checks every escape). An escape cut at a part's end is carried
 * into the next. Each `\uXXXX` gives its UTF-16 unit, so a surrogate pair written as two escapes
 * (even in two parts) comes together in the joined value, and a lone one as JSON.parse gives it.
 */
class ValueDecoder {
  private decoded: string[] = [];
  private carry = '';
  /** Set once a part could not be decoded: the raw text from that part on. */
  private undecoded: string[] | undefined;

  /** Characters kept as they came: a cut escape, or everything from an undecodable part on. */
  get keptChars(): number {
    let chars = this.carry.length;
    for (const part of this.undecoded ?? []) chars += part.length;
    return chars;
  }

  push(part: string): void {
    if (this.undecoded) {
      this.undecoded.push(part);
      return;
    }
    const whole = this.carry === '' ? part : this.carry + part;
    const cut = cutEscapeAt(whole);
    const text = cut === -1 ? whole : whole.slice(0, cut);
    this.carry = cut === -1 ? '' : whole.slice(cut);
    if (text === '') return;
    if (text.indexOf('\\') === -1) {
      if (CONTROL.test(text)) this.undecoded = [whole];
      else this.decoded.push(text);
      return;
    }
    try {
      this.decoded.push(JSON.parse(`"${text}"`) as string);
    } catch {
      this.undecoded = [whole];
    }
  }

  /** The value, or undefined when it is malformed. Joined once, so the parts can go. */
  end(): string | undefined {
    if (this.carry !== '' && !this.undecoded) this.undecoded = [this.carry];
    if (this.undecoded) return undefined;
    const parts = this.decoded;
    this.decoded = [];
    return parts.length === 1 ? (parts[0] as string) : parts.join('');
  }

  /** What it took, as JSON string contents: the decoded start spelt again, then the rest as it came. */
  raw(): string[] {
    const start = this.decoded.join('');
    const out = start === '' ? [] : [JSON.stringify(start).slice(1, -1)];
    if (this.undecoded) out.push(...this.undecoded);
    else if (this.carry !== '') out.push(this.carry);
    return out;
  }
}

/** Where an escape that the end of `text` cuts off begins, or -1 (every escape is complete). */
function cutEscapeAt(text: string): number {
  // An escape is at most six characters (`\uXXXX`): only the last backslash among the last six
  // can begin one that is cut off.
  const from = Math.max(0, text.length - 6);
  let at = text.length - 1;
  while (at >= from && text.charCodeAt(at) !== BACKSLASH) at--;
  if (at < from) return -1;
  // After an odd run of backslashes it is the escaped one of a `\\`: complete.
  let run = 0;
  while (at - run - 1 >= 0 && text.charCodeAt(at - run - 1) === BACKSLASH) run++;
  if (run % 2 === 1) return -1;
  const kind = text[at + 1];
  return kind === undefined || (kind === 'u' && text.length - at < 6) ? at : -1;
}

const NOT_HERE: unique symbol = Symbol('marker used as a key');

/** `value` with every marker string replaced by its long value (in place); NOT_HERE for a marker key. */
function place(
  value: unknown,
  marker: string,
  values: readonly string[],
  placed: { count: number },
): unknown {
  if (typeof value === 'string') {
    if (!value.startsWith(marker)) return value;
    const index = Number(value.slice(marker.length));
    placed.count++;
    return values[index];
  }
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = place(value[i], marker, values, placed);
      if (item === NOT_HERE) return NOT_HERE;
      value[i] = item;
    }
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key.startsWith(marker)) return NOT_HERE;
    const item = place(record[key], marker, values, placed);
    if (item === NOT_HERE) return NOT_HERE;
    record[key] = item;
  }
  return record;
}
