/**
 * Lines of styled text drawn the way Ink draws the same `<Text>` and `<Box borderStyle="round">`,
 * without React, Ink or Yoga: what the first frame needs to be on screen before the UI is loaded.
 * Only the simple cases are drawn (text that fits, one cell per character): anything else returns
 * undefined, and the UI draws its first frame itself.
 */
import { paint, type TextStyle } from '../theme/paint.js';
import type { ThemeColor } from '../theme/theme.js';

/** A run of text in one style, as one `<Text color bold inverse>`. */
export interface Span extends TextStyle {
  readonly text: string;
}

/** A line of spans. */
export type Line = readonly Span[];

const paintSpan = (span: Span): string => paint(span.text, span);

/** Symbols outside the ranges below that the UI draws and Ink measures as one cell. */
const ONE_CELL_SYMBOLS = new Set([0x2691, 0x26a0, 0x26bf, 0x2713, 0x2717, 0x276f]);

/**
 * Code points that take exactly one cell in Ink's measure (string-width, ambiguous characters
 * narrow; paint.test.ts checks every one): printable ASCII and Latin-1, general punctuation (not
 * the bidirectional controls),
 * arrows, box drawing, block elements, geometric shapes but the two emoji among them, braille (the
 * spinner), and the UI's symbols. Others (wide, combining, emoji) are not drawn here.
 */
export function oneCell(code: number): boolean {
  return (
    (code >= 0x20 && code <= 0x7e) ||
    (code >= 0xa1 && code <= 0xff && code !== 0xad) ||
    (code >= 0x2010 && code <= 0x205e && (code < 0x202a || code > 0x202e)) ||
    (code >= 0x2190 && code <= 0x21ff) ||
    (code >= 0x2500 && code <= 0x25fc) ||
    code === 0x25ff ||
    (code >= 0x2800 && code <= 0x28ff) ||
    ONE_CELL_SYMBOLS.has(code)
  );
}

/** Cells `text` takes, or undefined when a character is not one cell wide. */
export function cellWidth(text: string): number | undefined {
  let width = 0;
  for (const char of text) {
    if (!oneCell(char.codePointAt(0) ?? 0)) return undefined;
    width++;
  }
  return width;
}

/** Cells a line takes, or undefined when it cannot be measured here. */
export function lineWidth(line: Line): number | undefined {
  let width = 0;
  for (const span of line) {
    const cells = cellWidth(span.text);
    if (cells === undefined) return undefined;
    width += cells;
  }
  return width;
}

/**
 * A `<Text wrap="truncate-end">` line cut to `width` cells as Ink cuts it (cli-truncate): the
 * first `width - 1` cells and an ellipsis in the style of the last one kept. Undefined when it
 * cannot be measured here.
 */
export function truncateLine(line: Line, width: number): Line | undefined {
  const total = lineWidth(line);
  if (total === undefined) return undefined;
  if (total <= width) return line;
  const out: Span[] = [];
  let room = width - 1;
  for (const span of line) {
    if (room <= 0) break;
    const chars = [...span.text];
    out.push({ ...span, text: chars.slice(0, room).join('') });
    room -= Math.min(room, chars.length);
  }
  const last = out.pop();
  return last ? [...out, { ...last, text: `${last.text}…` }] : [{ text: '…' }];
}

/** The line as the terminal gets it, or undefined when it does not fit in `columns` (Ink would wrap or cut it). */
export function paintLine(line: Line, columns: number): string | undefined {
  const width = lineWidth(line);
  if (width === undefined || width > columns) return undefined;
  return line.map(paintSpan).join('');
}

/** The width of the text inside a box as wide as `columns` (a border and a space each side). */
export function boxInnerWidth(columns: number): number {
  return columns - 4;
}

/**
 * A `<Box borderStyle="round" borderColor paddingX={1}>` as wide as `columns`, around `lines`;
 * undefined when a line does not fit inside.
 */
export function paintBox(
  lines: readonly Line[],
  columns: number,
  borderColor: ThemeColor,
): string[] | undefined {
  const inner = boxInnerWidth(columns);
  if (inner < 1) return undefined;
  const border = (text: string): string => paintSpan({ text, color: borderColor });
  const rows = [border(`╭${'─'.repeat(columns - 2)}╮`)];
  for (const line of lines) {
    const width = lineWidth(line);
    if (width === undefined || width > inner) return undefined;
    rows.push(`${border('│')} ${line.map(paintSpan).join('')}${' '.repeat(inner - width)} ${border('│')}`);
  }
  rows.push(border(`╰${'─'.repeat(columns - 2)}╯`));
  return rows;
}
