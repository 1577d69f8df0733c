/**
 * A multi-line text buffer with a cursor: pure editing operations used by the composer.
 * The cursor is an offset into `text` (UTF-16 units, always on a code point boundary).
 */

/** Text and cursor. */
export interface TextBuffer {
  readonly text: string;
  readonly cursor: number;
}

/** An empty buffer. */
export const EMPTY_BUFFER: TextBuffer = { text: '', cursor: 0 };

/** Offset of the code point before `offset`. */
function previousBoundary(text: string, offset: number): number {
  if (offset <= 0) return 0;
  const low = text.charCodeAt(offset - 1);
  if (offset >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = text.charCodeAt(offset - 2);
    if (high >= 0xd800 && high <= 0xdbff) return offset - 2;
  }
  return offset - 1;
}

/** Offset of the code point after `offset`. */
function nextBoundary(text: string, offset: number): number {
  if (offset >= text.length) return text.length;
  const code = text.codePointAt(offset) ?? 0;
  return offset + (code > 0xffff ? 2 : 1);
}

/** Inserts text at the cursor. */
export function insertText(buffer: TextBuffer, inserted: string): TextBuffer {
  const { text, cursor } = buffer;
  return { text: text.slice(0, cursor) + inserted + text.slice(cursor), cursor: cursor + inserted.length };
}

/** Deletes the character before the cursor. */
export function deleteBackward(buffer: TextBuffer): TextBuffer {
  const start = previousBoundary(buffer.text, buffer.cursor);
  return { text: buffer.text.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start };
}

/** Deletes the character after the cursor. */
export function deleteForward(buffer: TextBuffer): TextBuffer {
  const end = nextBoundary(buffer.text, buffer.cursor);
  return { text: buffer.text.slice(0, buffer.cursor) + buffer.text.slice(end), cursor: buffer.cursor };
}

/** Deletes the word before the cursor (and the spaces after it). */
export function deleteWordBackward(buffer: TextBuffer): TextBuffer {
  const before = buffer.text.slice(0, buffer.cursor);
  const start = before.replace(/\S*\s*$/, '').length;
  return { text: before.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start };
}

/** Moves the cursor one character left or right. */
export function moveHorizontal(buffer: TextBuffer, direction: -1 | 1): TextBuffer {
  const cursor =
    direction < 0 ? previousBoundary(buffer.text, buffer.cursor) : nextBoundary(buffer.text, buffer.cursor);
  return { text: buffer.text, cursor };
}

/** Start and end offsets of the line holding `offset`. */
export function lineBounds(text: string, offset: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const newline = text.indexOf('\n', offset);
  return { start, end: newline < 0 ? text.length : newline };
}

/** Line and column (both 0-based) of the cursor. */
export function cursorPosition(buffer: TextBuffer): { line: number; column: number } {
  const before = buffer.text.slice(0, buffer.cursor);
  const line = before.split('\n').length - 1;
  return { line, column: buffer.cursor - (before.lastIndexOf('\n') + 1) };
}

/** Moves the cursor one line up or down, keeping the column when the line is long enough. */
export function moveVertical(buffer: TextBuffer, direction: -1 | 1): TextBuffer {
  const { text, cursor } = buffer;
  const { start, end } = lineBounds(text, cursor);
  const column = cursor - start;
  if (direction < 0) {
    if (start === 0) return buffer;
    const previous = lineBounds(text, start - 1);
    return { text, cursor: Math.min(previous.start + column, previous.end) };
  }
  if (end === text.length) return buffer;
  const next = lineBounds(text, end + 1);
  return { text, cursor: Math.min(next.start + column, next.end) };
}

/** Moves the cursor to the start or end of its line. */
export function moveToLineEdge(buffer: TextBuffer, edge: 'start' | 'end'): TextBuffer {
  const { start, end } = lineBounds(buffer.text, buffer.cursor);
  return { text: buffer.text, cursor: edge === 'start' ? start : end };
}

/** Deletes from the cursor to the start or end of its line. */
export function deleteToLineEdge(buffer: TextBuffer, edge: 'start' | 'end'): TextBuffer {
  const { start, end } = lineBounds(buffer.text, buffer.cursor);
  if (edge === 'start')
    return { text: buffer.text.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start };
  return { text: buffer.text.slice(0, buffer.cursor) + buffer.text.slice(end), cursor: buffer.cursor };
}

/** True when the cursor is on the first (or last) line. */
export function onEdgeLine(buffer: TextBuffer, edge: 'first' | 'last'): boolean {
  return edge === 'first'
    ? !buffer.text.slice(0, buffer.cursor).includes('\n')
    : !buffer.text.slice(buffer.cursor).includes('\n');
}
