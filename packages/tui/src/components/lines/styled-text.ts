/**
 * Laying out styled text as Ink lays out a `<Text>` (wrapped at its box's width by wrap-ansi,
 * hard, untrimmed) and placing it in a box's columns, for units drawn as lines without Ink.
 */
import type { KeyBindings } from '../../keys/key-bindings.js';
import type { Highlighter } from '../../markdown/highlight.js';
import { colorize } from '../../theme/paint.js';
import type { Theme } from '../../theme/theme.js';
import { wrapStyledRows } from '../../text/wrap-styled.js';
import { codeSpans } from '../code-spans.js';

/** What a unit's lines are laid out with. */
export interface LineLayout {
  /** Columns available. */
  readonly width: number;
  readonly theme: Theme;
  /** For the hints that name a key. */
  readonly bindings: KeyBindings;
  /** Locations and paths are shown relative to it. */
  readonly cwd?: string;
  /** Long tool output in full. */
  readonly expanded?: boolean;
  readonly highlighter?: Highlighter | undefined;
}

/** The rows of a `<Text>` holding `styled` (SGR only) in a box `width` columns wide (none when empty). */
export function wrapStyled(styled: string, width: number): string[] {
  if (styled === '') return [];
  return wrapStyledRows(styled, Math.max(1, width));
}

/**
 * Rows placed after a first-row prefix: the others start below it, indented by as many columns
 * (an icon beside a text in a row box, a padding).
 */
export function beside(prefix: string, columns: number, rows: readonly string[]): string[] {
  const pad = ' '.repeat(columns);
  return rows.map((row, i) => (i === 0 ? prefix : pad) + row);
}

/** A line of text with its Markdown code spans in the accent colour (what `<InlineCode>` draws). */
export function inlineCode(text: string, theme: Theme): string {
  if (!text.includes('`')) return text;
  return codeSpans(text)
    .map((piece) => (piece.code ? colorize(piece.text, theme.text.accent) : piece.text))
    .join('');
}
