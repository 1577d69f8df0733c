/**
 * Word wrapping by terminal cells that keeps offsets into the original text, so that ranges of a
 * line (search matches) can be drawn on the rows it wraps to.
 */
import { graphemes } from '../text/graphemes.js';
import { displayWidth } from '../text/width.js';

/** A row of a wrapped line: `[start, end)` in the line's text. */
export interface WrappedRow {
  readonly start: number;
  readonly end: number;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The line's graphemes with their offsets and cells (one cell each for printable ASCII). */
function cellsOf(text: string): { index: number; cells: number; space: boolean }[] {
  if (PRINTABLE_ASCII.test(text)) {
    return Array.from(text, (ch, index) => ({ index, cells: 1, space: ch === ' ' }));
  }
  return Array.from(graphemes(text), ({ segment, index }) => ({
    index,
    cells: displayWidth(segment),
    space: segment === ' ',
  }));
}

/**
 * Splits `text` into rows of at most `width` cells, breaking after the last space that fits (a
 * word longer than a row is cut). An empty text is one empty row. Trailing spaces stay on the
 * row they end, so the rows cover the text exactly.
 *
 * @example
 * wrapLine('hello wide world', 11); // [{ start: 0, end: 11 }, { start: 11, end: 16 }]
 */
export function wrapLine(text: string, width: number): WrappedRow[] {
  const max = Math.max(1, width);
  if (text.length <= max && PRINTABLE_ASCII.test(text)) return [{ start: 0, end: text.length }];
  const graphemes = cellsOf(text);
  const rows: WrappedRow[] = [];
  let start = 0;
  let used = 0;
  /** Offset just after the last space of the current row, or -1. */
  let breakAt = -1;
  let usedAtBreak = 0;
  for (const { index, cells, space } of graphemes) {
    if (used + cells > max && index > start) {
      if (space) {
        // A space that does not fit ends the row (it is not carried to the next one).
        rows.push({ start, end: index + 1 });
        start = index + 1;
        used = 0;
        breakAt = -1;
        continue;
      }
      if (breakAt > start) {
        rows.push({ start, end: breakAt });
        start = breakAt;
        used -= usedAtBreak;
      } else {
        rows.push({ start, end: index });
        start = index;
        used = 0;
      }
      breakAt = -1;
    }
    used += cells;
    if (space) {
      breakAt = index + 1;
      usedAtBreak = used;
    }
  }
  rows.push({ start, end: text.length });
  return rows;
}
