/**
 * Numeric request ids that `JSON.parse` cannot hold exactly. Runtime-neutral.
 *
 * JSON-RPC lets a peer pick any number as an id, but a double holds integers exactly only up to
 * ±(2^53 − 1): `9007199254740993` parses as `9007199254740992`. Echoing the parsed number would
 * answer a request the peer never sent, so for such an id the engine finds the digits as they
 * were written in the frame and echoes those.
 */

/** True when `JSON.stringify(id)` may not give back what the peer wrote. */
export function needsExactText(id: number): boolean {
  return !(Number.isFinite(id) && Math.abs(id) <= Number.MAX_SAFE_INTEGER);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The text of the top-level `"id"` member's number in the JSON object `frame` (the last one, as
 * `JSON.parse` keeps the last of duplicated keys), or undefined when it is not a number. `frame`
 * must be text that `JSON.parse` accepted. Only called for the rare id that needs it: a plain scan.
 */
export function exactIdText(frame: string): string | undefined {
  let depth = 0;
  let found: string | undefined;
  let i = 0;
  while (i < frame.length) {
    const c = frame.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(frame, i);
      if (depth === 1 && isIdKey(frame.slice(i, end))) {
        let at = end;
        while (isSpace(frame.charCodeAt(at))) at++;
        if (frame.charCodeAt(at) === 0x3a /* : */) {
          at++;
          while (isSpace(frame.charCodeAt(at))) at++;
          NUMBER.lastIndex = at;
          const match = NUMBER.exec(frame);
          found = match?.[0];
          i = match ? at + match[0].length : at;
          continue;
        }
      }
      i = end;
    } else {
      if (c === 0x7b /* { */ || c === 0x5b /* [ */) depth++;
      else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
      i++;
    }
  }
  return found;
}

/** The index just past the string literal starting at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i += 2;
    else if (c === QUOTE) return i + 1;
    else i++;
  }
  return i;
}

/** A key written `"id"` or with escapes that read as `id` (`"\u0069d"`). */
function isIdKey(literal: string): boolean {
  if (literal === '"id"') return true;
  if (!literal.includes('\\')) return false;
  try {
    return JSON.parse(literal) === 'id';
  } catch {
    return false;
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
