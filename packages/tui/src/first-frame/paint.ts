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

/**
 * Code points that take exactly one cell in Ink's measure (string-width, ambiguous characters
 * narrow): printable ASCII and Latin-1, general punctuation, arrows, box drawing, geometric
 * shapes, dingbats and braille (the spinner). Others (wide, combining, emoji) are not drawn here.
 */
function oneCell(code: number): boolean {
  return (
    (code >= 0x20 && code <= 0x7e) ||
    (code >= 0xa1 && code <= 0xff && code !== 0xad) ||
    (code >= 0x2010 && code <= 0x205e) ||
    (code >= 0x2190 && code <= 0x21ff) ||
    (code >= 0x2500 && code <= 0x25ff) ||
    (code >= 0x2700 && code <= 0x27bf) ||
    (code >= 0x2800 && code <= 0x28ff)
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

/** The line as the terminal gets it, or undefined when it does not fit in `columns` (Ink would wrap or cut it). */
export function paintLine(line: Line, columns: number): string | undefined {
  const width = lineWidth(line);
  if (width === undefined || width > columns) return undefined;
  return line.map(paintSpan).join('');
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
  const inner = columns - 4;
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
