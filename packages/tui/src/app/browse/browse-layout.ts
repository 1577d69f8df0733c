/** The transcript browser's document wrapped to the screen's width: rows, and where each line starts. */
import { wrapLine } from '../../browse/wrap.js';
import type { BrowseDocument, BrowseUnit } from './browse-document.js';

/** One screen row: part of a document line. */
export interface BrowseRow {
  readonly line: number;
  readonly start: number;
  readonly end: number;
}

/** The rows of a document at one width. */
export interface BrowseLayout {
  readonly rows: readonly BrowseRow[];
  /** The first row of each line (and, at the end, the row count). */
  readonly firstRow: readonly number[];
}

/**
 * Wraps every line of `document` to `width` cells.
 *
 * @example
 * const layout = layoutDocument(document, columns - 6);
 */
export function layoutDocument(document: BrowseDocument, width: number): BrowseLayout {
  const rows: BrowseRow[] = [];
  const firstRow: number[] = [];
  document.lines.forEach((line, index) => {
    firstRow.push(rows.length);
    for (const row of wrapLine(line.text, width)) rows.push({ line: index, ...row });
  });
  firstRow.push(rows.length);
  return { rows, firstRow };
}

/** The rows of a unit: `[start, end)`. */
export function unitRows(layout: BrowseLayout, unit: BrowseUnit): { start: number; end: number } {
  return { start: layout.firstRow[unit.start] ?? 0, end: layout.firstRow[unit.end] ?? layout.rows.length };
}

/** The row showing offset `offset` of line `line`. */
export function rowOf(layout: BrowseLayout, line: number, offset: number): number {
  const first = layout.firstRow[line] ?? 0;
  const last = (layout.firstRow[line + 1] ?? layout.rows.length) - 1;
  for (let row = first; row < last; row++) if (offset < (layout.rows[row]?.end ?? 0)) return row;
  return Math.max(first, last);
}
