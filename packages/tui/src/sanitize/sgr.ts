/**
 * The safe subset of SGR (Select Graphic Rendition): colours and a few text styles. Terminal
 * output keeps these, parsed into a {@link TextStyle} and re-emitted from it — never passed through.
 */

/** A terminal colour: one of the 16 palette colours, a 256-colour index, or 24-bit RGB. */
export type TerminalColor =
  | { readonly type: 'palette'; readonly index: number }
  | { readonly type: 'indexed'; readonly index: number }
  | { readonly type: 'rgb'; readonly r: number; readonly g: number; readonly b: number };

/** Styles a run of terminal output may carry. Conceal and blink are deliberately not kept. */
export interface TextStyle {
  readonly fg?: TerminalColor;
  readonly bg?: TerminalColor;
  readonly bold?: boolean;
  readonly dim?: boolean;
  readonly italic?: boolean;
  readonly underline?: boolean;
  readonly inverse?: boolean;
  readonly strikethrough?: boolean;
}

/** The default style (nothing set). */
export const PLAIN_STYLE: TextStyle = Object.freeze({});

type MutableStyle = { -readonly [K in keyof TextStyle]: TextStyle[K] };

const isByte = (n: number | undefined): n is number =>
  n !== undefined && Number.isInteger(n) && n >= 0 && n <= 255;

function toNumber(part: string | undefined): number | undefined {
  if (part === undefined || part === '') return undefined;
  if (!/^\d{1,5}$/.test(part)) return undefined;
  return Number(part);
}

/**
 * Reads an extended colour (after 38/48). `rest` holds the remaining numbers: `5;n` or `2;r;g;b`
 * (colon forms arrive here as sub-parameters, with an optional empty colour-space id).
 * Returns the colour and how many numbers it used.
 */
function readExtendedColor(
  rest: readonly (string | undefined)[],
  colon: boolean,
): { color?: TerminalColor; used: number } {
  const mode = toNumber(rest[0]);
  if (mode === 5) {
    const index = toNumber(rest[1]);
    return { color: isByte(index) ? { type: 'indexed', index } : undefined, used: 2 };
  }
  if (mode === 2) {
    // ISO 8613-6 colon form may carry a colour-space id: 38:2:<id>:r:g:b.
    const offset = colon && rest.length >= 5 ? 2 : 1;
    const [r, g, b] = [toNumber(rest[offset]), toNumber(rest[offset + 1]), toNumber(rest[offset + 2])];
    const color: TerminalColor | undefined =
      isByte(r) && isByte(g) && isByte(b) ? { type: 'rgb', r, g, b } : undefined;
    return { color, used: offset + 3 };
  }
  return { used: rest.length === 0 ? 0 : 1 };
}

/**
 * Applies an SGR parameter string (the part between `ESC [` and `m`) to `style`.
 * Unknown or unsafe attributes are ignored.
 *
 * @example
 * applySgr(PLAIN_STYLE, '1;31'); // { bold: true, fg: { type: 'palette', index: 1 } }
 */
export function applySgr(style: TextStyle, params: string): TextStyle {
  const next: MutableStyle = { ...style };
  const groups = params === '' ? [''] : params.split(';');
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g] ?? '';
    const sub = group.split(':');
    const code = toNumber(sub[0]) ?? (sub[0] === '' ? 0 : undefined);
    if (code === undefined) continue;
    if (code === 38 || code === 48) {
      const colon = sub.length > 1;
      const rest = colon ? sub.slice(1) : groups.slice(g + 1);
      const { color, used } = readExtendedColor(rest, colon);
      if (!colon) g += used;
      if (color) next[code === 38 ? 'fg' : 'bg'] = color;
      continue;
    }
    applySimple(next, code, sub[1]);
  }
  return clean(next);
}

function applySimple(s: MutableStyle, code: number, subParam: string | undefined): void {
  if (code === 0) {
    for (const key of Object.keys(s) as (keyof MutableStyle)[]) delete s[key];
  } else if (code === 1) s.bold = true;
  else if (code === 2) s.dim = true;
  else if (code === 3) s.italic = true;
  else if (code === 4) s.underline = subParam !== '0';
  else if (code === 7) s.inverse = true;
  else if (code === 9) s.strikethrough = true;
  else if (code === 21) s.underline = true;
  else if (code === 22) s.bold = s.dim = false;
  else if (code === 23) s.italic = false;
  else if (code === 24) s.underline = false;
  else if (code === 27) s.inverse = false;
  else if (code === 29) s.strikethrough = false;
  else if (code >= 30 && code <= 37) s.fg = { type: 'palette', index: code - 30 };
  else if (code === 39) delete s.fg;
  else if (code >= 40 && code <= 47) s.bg = { type: 'palette', index: code - 40 };
  else if (code === 49) delete s.bg;
  else if (code >= 90 && code <= 97) s.fg = { type: 'palette', index: code - 90 + 8 };
  else if (code >= 100 && code <= 107) s.bg = { type: 'palette', index: code - 100 + 8 };
}

function clean(s: MutableStyle): TextStyle {
  for (const key of ['bold', 'dim', 'italic', 'underline', 'inverse', 'strikethrough'] as const) {
    if (s[key] !== true) delete s[key];
  }
  return s;
}

/** True when the style sets nothing. */
export function isPlainStyle(style: TextStyle): boolean {
  return Object.keys(style).length === 0;
}

/** True when two styles render the same. */
export function sameStyle(a: TextStyle, b: TextStyle): boolean {
  return styleToSgrParams(a) === styleToSgrParams(b);
}

function colorParams(color: TerminalColor, background: boolean): string {
  if (color.type === 'palette') {
    const base = color.index < 8 ? (background ? 40 : 30) : background ? 100 - 8 : 90 - 8;
    return String(base + color.index);
  }
  const lead = background ? 48 : 38;
  if (color.type === 'indexed') return `${lead};5;${color.index}`;
  return `${lead};2;${color.r};${color.g};${color.b}`;
}

/** The SGR parameters that produce `style` from a reset state ('' for the plain style). */
export function styleToSgrParams(style: TextStyle): string {
  const parts: string[] = [];
  if (style.bold) parts.push('1');
  if (style.dim) parts.push('2');
  if (style.italic) parts.push('3');
  if (style.underline) parts.push('4');
  if (style.inverse) parts.push('7');
  if (style.strikethrough) parts.push('9');
  if (style.fg) parts.push(colorParams(style.fg, false));
  if (style.bg) parts.push(colorParams(style.bg, true));
  return parts.join(';');
}

/** The escape sequence that switches from any style to `style`: a reset, then the attributes. */
export function styleToSgr(style: TextStyle): string {
  const params = styleToSgrParams(style);
  return params === '' ? '\x1b[0m' : `\x1b[0;${params}m`;
}

const PALETTE_NAMES = [
  'black',
  'red',
  'green',
  'yellow',
  'blue',
  'magenta',
  'cyan',
  'white',
  'blackBright',
  'redBright',
  'greenBright',
  'yellowBright',
  'blueBright',
  'magentaBright',
  'cyanBright',
  'whiteBright',
] as const;

/** The Ink colour string for a terminal colour (`red`, `ansi256(208)`, `#ff8800`). */
export function inkColor(color: TerminalColor): string {
  if (color.type === 'palette') return PALETTE_NAMES[color.index] ?? 'white';
  if (color.type === 'indexed') return `ansi256(${color.index})`;
  const hex = (n: number): string => n.toString(16).padStart(2, '0');
  return `#${hex(color.r)}${hex(color.g)}${hex(color.b)}`;
}
