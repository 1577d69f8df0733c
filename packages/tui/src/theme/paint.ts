/**
 * Styles text as Ink's `<Text>` does (the same chalk calls in the same order), for lines laid out
 * without Ink: they look the same drawn by Ink in the live region or written to the scrollback.
 */
import chalk from 'chalk';
import type { ThemeColor } from './theme.js';

/** The `<Text>` props that style text. */
export interface TextStyle {
  readonly color?: ThemeColor;
  readonly bold?: boolean;
  readonly italic?: boolean;
  readonly underline?: boolean;
  readonly strikethrough?: boolean;
  readonly dim?: boolean;
  readonly inverse?: boolean;
}

const ANSI_256 = /^ansi256\(\s?(\d+)\s?\)$/;
const RGB = /^rgb\(\s?(\d+),\s?(\d+),\s?(\d+)\s?\)$/;

type Colorer = (text: string) => string;

/** The chalk call for an Ink colour string, or undefined when it names no colour. */
function colorer(color: string): Colorer | undefined {
  if (color in chalk) {
    const named = (chalk as unknown as Record<string, unknown>)[color];
    if (typeof named === 'function') return named as Colorer;
  }
  if (color.startsWith('#')) return chalk.hex(color);
  const ansi = ANSI_256.exec(color);
  if (ansi) return chalk.ansi256(Number(ansi[1]));
  const rgb = RGB.exec(color);
  if (rgb) return chalk.rgb(Number(rgb[1]), Number(rgb[2]), Number(rgb[3]));
  return undefined;
}

/**
 * Chalk calls made, by colour level and colour: `chalk.hex(color)` parses the colour and builds a
 * styler on every call, and a history printed at once colours thousands of spans with a theme's
 * few colours. A chalk call writes the codes of the level it was made at, hence the level in the key.
 */
const colorers = new Map<string, Colorer | undefined>();
const MAX_COLORERS = 256;

/** Colours `text` with an Ink colour string (a chalk name, `#rrggbb`, `ansi256(n)`, `rgb(r, g, b)`). */
export function colorize(text: string, color: ThemeColor): string {
  if (!color || text === '') return text;
  const key = `${chalk.level}:${color}`;
  let call = colorers.get(key);
  if (call === undefined && !colorers.has(key)) {
    if (colorers.size >= MAX_COLORERS) colorers.clear();
    colorers.set(key, (call = colorer(color)));
  }
  return call ? call(text) : text;
}

/**
 * Applies `style` to `text`.
 *
 * @example
 * paint('Title', { color: theme.text.heading, bold: true });
 */
export function paint(text: string, style: TextStyle): string {
  if (text === '') return text;
  let out = text;
  if (style.dim) out = chalk.dim(out);
  if (style.color) out = colorize(out, style.color);
  if (style.bold) out = chalk.bold(out);
  if (style.italic) out = chalk.italic(out);
  if (style.underline) out = chalk.underline(out);
  if (style.strikethrough) out = chalk.strikethrough(out);
  if (style.inverse) out = chalk.inverse(out);
  return out;
}
