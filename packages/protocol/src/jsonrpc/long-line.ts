/**
 * Parsing a long line from the pieces it was decoded in, without joining them first. `JSON.parse`
 * needs the line as one string and copies every string value out of it: for a line carrying one
 * text of tens of MiB, the pieces, the joined line and the parsed text were three copies of it at
 * once. Here the long string values are taken straight from the pieces (joined when they have no
 * escapes; decoded piece by piece when they have, an escape possibly cut between two pieces), and
 * only the rest of the line (a few hundred bytes) goes through `JSON.parse`: two copies. (An
 * escaped value is a concatenation of its decoded parts, which V8 copies flat when its characters
 * are first read: three while the pieces are not yet collected; docs/performance.md.)
 * Runtime-neutral.
 */

/** Lines shorter than this are parsed as usual. */
export const LONG_LINE_CHARS = 1024 * 1024;
/** String values at least this long are taken out of the line and joined from its pieces. */
const LONG_STRING_CHARS = 64 * 1024;
/** A character JSON forbids unescaped inside a string: such a value is left to `JSON.parse`. */
// eslint-disable-next-line no-control-regex -- exactly the characters JSON forbids unescaped in a string
const CONTROL = /[\u0000-\u001f]/;

/** Where a long string value lies in the pieces: from (piece, offset) to (piece, offset), exclusive. */
interface Span {
  fromPiece: number;
  from: number;
  toPiece: number;
  to: number;
  /** It has a backslash: decoded, not just joined. */
  escaped: boolean;
}

/**
 * The value of the JSON text `pieces` make together, or undefined when this path does not apply
 * (no long string value without escapes, or one used as a key) or the text is not JSON: the
 * caller then joins the pieces and parses them as usual, errors included.
 *
 * @example
 * parseLongLine(['{"text":"', 'x'.repeat(70_000), '"}']); // { value: { text: 'xxx…' } }
 */
export function parseLongLine(pieces: readonly string[]): { value: unknown } | undefined {
  const spans = longStrings(pieces);
  if (spans.length === 0) return undefined;
  // A marker no peer can predict stands for each long value in the rest of the line.
  const marker = `\u0000acp-kit-long-value-${Math.random().toString(36).slice(2)}:`;
  const skeleton: string[] = [];
  const values: string[] = [];
  let piece = 0;
  let offset = 0;
  for (const span of spans) {
    appendRange(pieces, piece, offset, span.fromPiece, span.from, skeleton);
    const raw: string[] = [];
    appendRange(pieces, span.fromPiece, span.from, span.toPiece, span.to, raw);
    if (raw.some((part) => CONTROL.test(part))) return undefined;
    const value = span.escaped ? decodeEscaped(raw) : raw.join('');
    // A malformed escape: JSON.parse of the whole line says what is wrong.
    if (value === undefined) return undefined;
    // Between the value's own quotes, which stay in the rest of the line.
    skeleton.push(JSON.stringify(marker + String(values.length)).slice(1, -1));
    values.push(value);
    piece = span.toPiece;
    offset = span.to;
  }
  appendRange(
    pieces,
    piece,
    offset,
    pieces.length - 1,
    (pieces[pieces.length - 1] as string).length,
    skeleton,
  );
  let parsed: unknown;
  try {
    parsed = JSON.parse(skeleton.join('')) as unknown;
  } catch {
    return undefined;
  }
  const placed = { count: 0 };
  let result: unknown;
  try {
    result = place(parsed, marker, values, placed);
  } catch {
    // Nesting deeper than the stack (JSON.parse has no such limit): the usual way takes it.
    return undefined;
  }
  return result === NOT_HERE || placed.count !== values.length ? undefined : { value: result };
}

/** Pieces' text from (fromPiece, from) to (toPiece, to), appended to `out` as slices (no copy). */
function appendRange(
  pieces: readonly string[],
  fromPiece: number,
  from: number,
  toPiece: number,
  to: number,
  out: string[],
): void {
  for (let i = fromPiece; i <= toPiece; i++) {
    const text = pieces[i] as string;
    const start = i === fromPiece ? from : 0;
    const end = i === toPiece ? to : text.length;
    if (end > start) out.push(start === 0 && end === text.length ? text : text.slice(start, end));
  }
}

/** The long string values, in order (their contents, quotes excluded). */
function longStrings(pieces: readonly string[]): Span[] {
  const spans: Span[] = [];
  let inString = false;
  /** The current string has an escape: it is decoded, not just joined. */
  let escaped = false;
  /** The previous piece ended with a backslash inside a string: its first character is escaped. */
  let skipFirst = false;
  let startPiece = 0;
  let start = 0;
  let length = 0;
  for (let p = 0; p < pieces.length; p++) {
    const text = pieces[p] as string;
    let at = skipFirst ? 1 : 0;
    skipFirst = false;
    // The next quote and backslash at or after `at`, searched again only once passed (each
    // search from scratch would be quadratic in a piece of many short strings).
    let quote = text.indexOf('"', at);
    let backslash = -1;
    let backslashFrom = Infinity;
    while (at < text.length) {
      if (quote !== -1 && quote < at) quote = text.indexOf('"', at);
      if (!inString) {
        if (quote === -1) break;
        inString = true;
        escaped = false;
        startPiece = p;
        start = quote + 1;
        length = 0;
        at = quote + 1;
        continue;
      }
      if (backslashFrom === Infinity || (backslash !== -1 && backslash < at)) {
        backslash = text.indexOf('\\', at);
        backslashFrom = at;
      }
      if (backslash !== -1 && (quote === -1 || backslash < quote)) {
        escaped = true;
        // The characters before the escape, and the escape as one.
        length += backslash - at + 1;
        if (backslash + 1 >= text.length) skipFirst = true;
        at = backslash + 2;
        continue;
      }
      if (quote === -1) {
        length += text.length - at;
        break;
      }
      length += quote - at;
      if (length >= LONG_STRING_CHARS)
        spans.push({ fromPiece: startPiece, from: start, toPiece: p, to: quote, escaped });
      inString = false;
      at = quote + 1;
    }
  }
  return spans;
}

const BACKSLASH = 0x5c;

/**
 * The inside of a JSON string literal given in `parts` (the slices of the pieces it lies in),
 * decoded part by part by `JSON.parse` (native, and it checks every escape); undefined for a
 * malformed one. An escape cut between two parts is carried into the next. Each `\uXXXX` gives
 * its UTF-16 unit, so a surrogate pair written as two escapes (even in two parts) comes out as
 * the pair, and a lone one as JSON.parse gives it. The result is a concatenation of the parts'
 * decoded texts: no joined copy of the escaped text is made.
 */
function decodeEscaped(parts: readonly string[]): string | undefined {
  let value = '';
  let carry = '';
  for (const part of parts) {
    let text = carry === '' ? part : carry + part;
    const cut = cutEscapeAt(text);
    carry = cut === -1 ? '' : text.slice(cut);
    if (cut !== -1) text = text.slice(0, cut);
    if (text === '') continue;
    try {
      value += JSON.parse(`"${text}"`) as string;
    } catch {
      return undefined;
    }
  }
  return carry === '' ? value : undefined;
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
