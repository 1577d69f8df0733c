/**
 * Moving around the transcript browser: the selected unit, the first row shown, the search and its
 * current match. Pure functions of a position and what is on the screen; the position is plain
 * data, so the overlay can keep it while the terminal is handed to an editor.
 */
import { firstMatchFrom, stepMatch, type SearchMatch } from '../../browse/search.js';
import type { BrowseDocument } from './browse-document.js';
import { rowOf, unitRows, type BrowseLayout } from './browse-layout.js';

/** Where the browser is. */
export interface BrowsePosition {
  /** The selected unit's id; none: the last one. */
  readonly selected?: string;
  /** The first row shown; none: the end of the transcript. */
  readonly top?: number;
  readonly query: string;
  /** The current match (an index of the query's matches), or -1. */
  readonly match: number;
}

/** The browser when it opens: at the end, the last unit selected, no search. */
export const INITIAL_POSITION: BrowsePosition = { query: '', match: -1 };

/** What the screen shows: the document, its rows, how many fit, the query's matches. */
export interface BrowseContext {
  readonly document: BrowseDocument;
  readonly layout: BrowseLayout;
  /** Rows of the viewport. */
  readonly height: number;
  readonly matches: readonly SearchMatch[];
}

/** The index of the selected unit (-1 when the document is empty). */
export function selectedIndex(document: BrowseDocument, position: BrowsePosition): number {
  const { units } = document;
  const index = position.selected === undefined ? -1 : units.findIndex((u) => u.id === position.selected);
  if (index >= 0) return index;
  for (let i = units.length - 1; i >= 0; i--) if (units[i]?.parent === undefined) return i;
  return units.length - 1;
}

/** The first row shown, within bounds. */
export function topRow(context: BrowseContext, position: BrowsePosition): number {
  const last = Math.max(0, context.layout.rows.length - context.height);
  return position.top === undefined ? last : Math.min(Math.max(0, position.top), last);
}

/**
 * The first row to show so that rows `[start, end)` are visible, moving as little as possible.
 * A range taller than the screen stays where it is when it is on the screen, else it is shown
 * from its start, or from its end when going back.
 */
export function reveal(
  top: number,
  start: number,
  end: number,
  height: number,
  prefer: 'start' | 'end' = 'start',
): number {
  if (end - start >= height) {
    // Already on the screen (the message around a code block): stay, ↑↓ scroll through it.
    if (start < top + height && end > top) return top;
    return prefer === 'start' ? start : end - height;
  }
  if (start < top) return start;
  if (end > top + height) return end - height;
  return top;
}

function select(context: BrowseContext, position: BrowsePosition, index: number, prefer: 'start' | 'end') {
  const unit = context.document.units[index];
  if (!unit) return position;
  const rows = unitRows(context.layout, unit);
  const top = reveal(topRow(context, position), rows.start, rows.end, context.height, prefer);
  return { ...position, selected: unit.id, top };
}

/**
 * ↓ / ↑: the next or previous unit; while the selected unit goes on beyond the screen in that
 * direction (a long message), the screen scrolls by a row instead, so nothing is skipped.
 */
export function moveSelection(
  context: BrowseContext,
  position: BrowsePosition,
  direction: 1 | -1,
): BrowsePosition {
  const { units } = context.document;
  const index = selectedIndex(context.document, position);
  const unit = units[index];
  if (!unit) return position;
  const top = topRow(context, position);
  const rows = unitRows(context.layout, unit);
  const next = units[index + direction];
  if (direction > 0) {
    const nextVisible = next !== undefined && unitRows(context.layout, next).start < top + context.height;
    if (!nextVisible && rows.end > top + context.height) return { ...position, top: top + 1 };
    return next ? select(context, position, index + 1, 'start') : position;
  }
  if (rows.start < top) return { ...position, top: top - 1 };
  return next ? select(context, position, index - 1, 'end') : position;
}

/** The unit shown on the first visible row that is not a blank line. */
function firstVisibleUnit(context: BrowseContext, top: number): number {
  const { rows } = context.layout;
  for (let row = top; row < Math.min(rows.length, top + context.height); row++) {
    const unit = context.document.lines[rows[row]?.line ?? -1]?.unit ?? -1;
    if (unit >= 0) return unit;
  }
  return -1;
}

/** PgDn / PgUp: a screen minus one row; the selection follows when it went out of sight. */
export function page(context: BrowseContext, position: BrowsePosition, direction: 1 | -1): BrowsePosition {
  const before = topRow(context, position);
  const top = topRow(context, { ...position, top: before + direction * Math.max(1, context.height - 1) });
  const index = selectedIndex(context.document, position);
  const unit = context.document.units[index];
  const rows = unit ? unitRows(context.layout, unit) : undefined;
  const visible = rows !== undefined && rows.end > top && rows.start < top + context.height;
  if (visible) return { ...position, top };
  const shown = context.document.units[firstVisibleUnit(context, top)];
  return { ...position, top, ...(shown ? { selected: shown.id } : {}) };
}

/** Home / End: the first or the last unit. */
export function edge(
  context: BrowseContext,
  position: BrowsePosition,
  which: 'first' | 'last',
): BrowsePosition {
  const { units } = context.document;
  if (which === 'first') {
    const first = units[0];
    return first ? { ...position, selected: first.id, top: 0 } : position;
  }
  const { top: _top, selected: _selected, ...rest } = position;
  return rest;
}

/** Shows match `index`: its unit selected, its row on the screen (a third down when it was not). */
export function showMatch(context: BrowseContext, position: BrowsePosition, index: number): BrowsePosition {
  const match = context.matches[index];
  if (!match) return { ...position, match: -1 };
  const unit = context.document.units[context.document.lines[match.line]?.unit ?? -1];
  const row = rowOf(context.layout, match.line, match.start);
  const top = topRow(context, position);
  const onScreen = row >= top && row < top + context.height;
  return {
    ...position,
    match: index,
    ...(unit ? { selected: unit.id } : {}),
    top: onScreen ? top : Math.max(0, row - Math.floor(context.height / 3)),
  };
}

/**
 * A query typed from `originLine` (the selected unit's first line when the search began): the
 * first match there or after it, else the first of all (matches as they are for the new query).
 */
export function searchFrom(
  context: BrowseContext,
  position: BrowsePosition,
  query: string,
  originLine: number,
) {
  const searched = { ...position, query };
  const index = firstMatchFrom(context.matches, originLine);
  return index < 0 ? { ...searched, match: -1 } : showMatch(context, searched, index);
}

/** n / N: the next or previous match, wrapping around; `wrapped` says it did. */
export function stepSearch(
  context: BrowseContext,
  position: BrowsePosition,
  direction: 1 | -1,
): { position: BrowsePosition; wrapped: boolean } {
  const step = stepMatch(context.matches.length, position.match, direction);
  if (step.index < 0) return { position, wrapped: false };
  return { position: showMatch(context, position, step.index), wrapped: step.wrapped };
}
