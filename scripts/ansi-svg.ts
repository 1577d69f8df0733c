/**
 * Renders a terminal screen captured with its escape sequences (`tmux capture-pane -p -e`) as an
 * SVG picture of a terminal window.
 *
 * The capture goes through a real terminal emulator (`@xterm/headless`) rather than a hand-written
 * SGR parser, so cell widths, colour modes and attribute resets are exactly what a terminal does.
 * The SVG places every glyph at its column (`x = column * cellWidth`): fonts differ in advance width
 * (Consolas is 0.55em, Menlo 0.6em), and without per-glyph positions a long run of box drawing would
 * drift away from the borders drawn in other runs. No web font is referenced: GitHub shows README
 * SVGs through `<img>`, which loads no external resources.
 */
import xterm from '@xterm/headless';
import type { IBufferCell } from '@xterm/headless';

/** Colours of the picture: the terminal's defaults and its 16-colour palette. */
export interface Theme {
  readonly background: string;
  readonly foreground: string;
  /** The 16 ANSI colours (0-7 normal, 8-15 bright). */
  readonly ansi: readonly string[];
}

/** A dark theme that stays readable on GitHub's light and dark pages. */
export const DEFAULT_THEME: Theme = {
  background: '#1b1e24',
  foreground: '#d6dae0',
  ansi: [
    '#2e3440',
    '#e06c75',
    '#98c379',
    '#e5c07b',
    '#61afef',
    '#c678dd',
    '#56b6c2',
    '#d6dae0',
    '#5c6370',
    '#ff7b86',
    '#b5e890',
    '#ffd68a',
    '#82c4ff',
    '#de9bf0',
    '#7fd6e0',
    '#ffffff',
  ],
};

/** The look of one cell, colours resolved (inverse and dim already applied). */
export interface CellStyle {
  readonly fg: string;
  /** `undefined`: the window's background. */
  readonly bg: string | undefined;
  readonly bold: boolean;
  readonly italic: boolean;
  readonly underline: boolean;
  readonly strikethrough: boolean;
}

/** A cell that starts a character: narrow (1 column) or wide (2). Wide characters' second halves are not listed. */
export interface ScreenCell {
  readonly column: number;
  readonly chars: string;
  readonly width: 1 | 2;
  readonly style: CellStyle;
}

/** The cells of a screen, by row. */
export interface Screen {
  readonly columns: number;
  readonly rows: number;
  readonly lines: readonly (readonly ScreenCell[])[];
}

/** Size of the terminal the capture came from. */
export interface ScreenSize {
  readonly columns: number;
  readonly rows: number;
}

/** The colour of entry `index` of the 256-colour palette: the theme's 16, then the 6×6×6 cube and 24 greys. */
function xterm256(index: number, theme: Theme): string {
  if (index < 16) return theme.ansi[index] ?? theme.foreground;
  if (index < 232) {
    const levels = [0, 95, 135, 175, 215, 255];
    const n = index - 16;
    return hex([Math.floor(n / 36), Math.floor(n / 6) % 6, n % 6].map((i) => levels[i] ?? 0));
  }
  const grey = 8 + (index - 232) * 10;
  return hex([grey, grey, grey]);
}

function hex(rgb: readonly number[]): string {
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** `a` moved halfway towards `b`: how terminals draw dim text (xterm.js uses 50% opacity). */
function mix(a: string, b: string): string {
  const channels = (c: string): number[] => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
  const [x, y] = [channels(a), channels(b)];
  return hex(x.map((c, i) => Math.round((c + (y[i] ?? 0)) / 2)));
}

function colour(mode: 'fg' | 'bg', cell: IBufferCell, theme: Theme): string | undefined {
  const rgb = mode === 'fg' ? cell.isFgRGB() : cell.isBgRGB();
  const palette = mode === 'fg' ? cell.isFgPalette() : cell.isBgPalette();
  const value = mode === 'fg' ? cell.getFgColor() : cell.getBgColor();
  if (rgb) return hex([(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff]);
  if (palette) return xterm256(value, theme);
  return undefined;
}

function styleOf(cell: IBufferCell, theme: Theme): CellStyle {
  let fg = colour('fg', cell, theme) ?? theme.foreground;
  let bg = colour('bg', cell, theme);
  if (cell.isInverse()) [fg, bg] = [bg ?? theme.background, fg];
  if (cell.isDim()) fg = mix(fg, bg ?? theme.background);
  if (cell.isInvisible()) fg = bg ?? theme.background;
  return {
    fg,
    bg,
    bold: cell.isBold() !== 0,
    italic: cell.isItalic() !== 0,
    underline: cell.isUnderline() !== 0,
    strikethrough: cell.isStrikethrough() !== 0,
  };
}

/**
 * Replays a capture in a terminal of `size` and reads back its cells. Each captured line is drawn
 * at its own row (cursor positioning instead of newlines), so a line that fills the last column
 * cannot wrap into the next one; tmux emits only attribute changes, which carry across lines just
 * as they did in the pane.
 */
export async function readScreen(
  ansi: string,
  size: ScreenSize,
  theme: Theme = DEFAULT_THEME,
): Promise<Screen> {
  const term = new xterm.Terminal({
    cols: size.columns,
    rows: size.rows,
    // The buffer API is "proposed" in xterm.js, and reading cells is the whole point here.
    allowProposedApi: true,
  });
  try {
    const lines = ansi.replace(/\n$/, '').split('\n').slice(0, size.rows);
    const replay = lines.map((line, row) => `\x1b[${row + 1};1H${line.replace(/\r$/, '')}`).join('');
    await new Promise<void>((done) => term.write(replay, done));
    const buffer = term.buffer.active;
    const rows: ScreenCell[][] = [];
    const scratch = buffer.getNullCell();
    for (let row = 0; row < size.rows; row++) {
      const line = buffer.getLine(buffer.viewportY + row);
      const cells: ScreenCell[] = [];
      for (let column = 0; line && column < size.columns; column++) {
        const cell = line.getCell(column, scratch);
        if (!cell || cell.getWidth() === 0) continue;
        cells.push({
          column,
          chars: cell.getChars() || ' ',
          width: cell.getWidth() === 2 ? 2 : 1,
          style: styleOf(cell, theme),
        });
      }
      rows.push(cells);
    }
    return { columns: size.columns, rows: size.rows, lines: rows };
  } finally {
    term.dispose();
  }
}

/** The text of a screen's rows, trailing spaces removed (to compare with `tmux capture-pane -p`). */
export function screenText(screen: Screen): string[] {
  return screen.lines.map((cells) =>
    cells
      .map((c) => c.chars)
      .join('')
      .trimEnd(),
  );
}

/** Options of {@link screenToSvg}. */
export interface SvgOptions {
  /** Shown in the window's title bar. */
  readonly title?: string;
  /** In px; the cell is 0.6em wide and 1.2em tall, like most monospace fonts at their default spacing. */
  readonly fontSize?: number;
  readonly theme?: Theme;
}

const FONT_FAMILY = `ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', 'Liberation Mono', monospace`;

/** Escapes text for XML content and attribute values, and drops characters XML 1.0 cannot hold. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** A number with at most two decimals, without trailing zeros (keeps the SVG small). */
function num(n: number): string {
  return String(Math.round(n * 100) / 100);
}

function styleKey(s: CellStyle): string {
  return `${s.fg}|${s.bold ? 'b' : ''}${s.italic ? 'i' : ''}${s.underline ? 'u' : ''}${s.strikethrough ? 's' : ''}`;
}

function styleCss(s: CellStyle): string {
  const decorations = [s.underline && 'underline', s.strikethrough && 'line-through'].filter(Boolean);
  return [
    `fill:${s.fg}`,
    s.bold ? 'font-weight:bold' : '',
    s.italic ? 'font-style:italic' : '',
    decorations.length > 0 ? `text-decoration:${decorations.join(' ')}` : '',
  ]
    .filter(Boolean)
    .join(';');
}

/** Whether a cell can join a run positioned glyph by glyph (one x per UTF-16 unit, one column each). */
function isSimple(cell: ScreenCell): boolean {
  return cell.width === 1 && cell.chars.length === 1;
}

type Arm = 'left' | 'right' | 'up' | 'down';

/**
 * The light box-drawing characters the UI draws its frames with, as the arms that leave the
 * cell's centre (rounded: the corner is an arc). They are drawn as lines rather than glyphs: a
 * glyph is as tall as its font's line (about 1.17em in DejaVu Sans Mono, other heights in other
 * fonts), so in 1.2em rows the sides of a frame would show a gap at every row.
 */
const BOX: ReadonlyMap<string, { readonly arms: readonly Arm[]; readonly rounded?: boolean }> = new Map([
  ['─', { arms: ['left', 'right'] }],
  ['│', { arms: ['up', 'down'] }],
  ['┌', { arms: ['right', 'down'] }],
  ['┐', { arms: ['left', 'down'] }],
  ['└', { arms: ['up', 'right'] }],
  ['┘', { arms: ['up', 'left'] }],
  ['├', { arms: ['up', 'down', 'right'] }],
  ['┤', { arms: ['up', 'down', 'left'] }],
  ['┬', { arms: ['left', 'right', 'down'] }],
  ['┴', { arms: ['left', 'right', 'up'] }],
  ['┼', { arms: ['left', 'right', 'up', 'down'] }],
  ['╭', { arms: ['right', 'down'], rounded: true }],
  ['╮', { arms: ['left', 'down'], rounded: true }],
  ['╰', { arms: ['up', 'right'], rounded: true }],
  ['╯', { arms: ['up', 'left'], rounded: true }],
]);

const DIRECTION: Readonly<Record<Arm, readonly [number, number]>> = {
  left: [-1, 0],
  right: [1, 0],
  up: [0, -1],
  down: [0, 1],
};

/** Line segments of one colour, merged where they meet so a frame's side is a single line. */
class Strokes {
  /** Spans by line: `h<y>` or `v<x>` → [from, to] pairs along the line. */
  private readonly spans = new Map<string, [number, number][]>();
  private readonly arcs: string[] = [];

  horizontal(y: number, x0: number, x1: number): void {
    this.add(`h${num(y)}`, x0, x1);
  }

  vertical(x: number, y0: number, y1: number): void {
    this.add(`v${num(x)}`, y0, y1);
  }

  arc(path: string): void {
    this.arcs.push(path);
  }

  private add(line: string, a: number, b: number): void {
    const list = this.spans.get(line) ?? [];
    list.push([Math.min(a, b), Math.max(a, b)]);
    this.spans.set(line, list);
  }

  /** The `d` of a path drawing every segment. */
  path(): string {
    const parts: string[] = [];
    for (const [line, list] of this.spans) {
      const at = line.slice(1);
      list.sort((p, q) => p[0] - q[0]);
      let current: [number, number] | undefined;
      const flush = (): void => {
        if (!current) return;
        parts.push(
          line[0] === 'h'
            ? `M${num(current[0])} ${at}H${num(current[1])}`
            : `M${at} ${num(current[0])}V${num(current[1])}`,
        );
      };
      for (const span of list) {
        // Touching spans (within rounding) continue the same line.
        if (current && span[0] <= current[1] + 0.01) current[1] = Math.max(current[1], span[1]);
        else {
          flush();
          current = [span[0], span[1]];
        }
      }
      flush();
    }
    return parts.concat(this.arcs).join('');
  }
}

/** Draws a screen as an SVG terminal window. */
export function screenToSvg(screen: Screen, options: SvgOptions = {}): string {
  const theme = options.theme ?? DEFAULT_THEME;
  const fontSize = options.fontSize ?? 14;
  const cellWidth = fontSize * 0.6;
  const lineHeight = fontSize * 1.2;
  const padding = 16;
  const titleBar = 32;
  const width = screen.columns * cellWidth + 2 * padding;
  const height = titleBar + screen.rows * lineHeight + padding;
  const top = (row: number): number => titleBar + row * lineHeight;
  // The baseline sits about 0.95em into the 1.2em row, which centres a monospace font's glyphs.
  const baseline = (row: number): number => top(row) + fontSize * 0.95;
  const left = (column: number): number => padding + column * cellWidth;

  const css: string[] = [];
  const classes = new Map<string, string>();
  const classOf = (s: CellStyle): string => {
    const key = styleKey(s);
    let name = classes.get(key);
    if (name === undefined) {
      name = `s${classes.size}`;
      classes.set(key, name);
      css.push(`.${name}{${styleCss(s)}}`);
    }
    return name;
  };
  const backgrounds: string[] = [];
  const texts: string[] = [];
  const strokes = new Map<string, Strokes>();

  const drawBox = (cell: ScreenCell, row: number): boolean => {
    const box = BOX.get(cell.chars);
    if (!box || cell.width !== 1) return false;
    let s = strokes.get(cell.style.fg);
    if (!s) strokes.set(cell.style.fg, (s = new Strokes()));
    const cx = left(cell.column) + cellWidth / 2;
    const cy = top(row) + lineHeight / 2;
    const reach: Record<Arm, number> = {
      left: left(cell.column),
      right: left(cell.column + 1),
      up: top(row),
      down: top(row + 1),
    };
    const radius = box.rounded ? cellWidth / 2 : 0;
    for (const arm of box.arms) {
      const [dx, dy] = DIRECTION[arm];
      if (dy === 0) s.horizontal(cy, cx + dx * radius, reach[arm]);
      else s.vertical(cx, cy + dy * radius, reach[arm]);
    }
    if (box.rounded) {
      const [h, v] = box.arms.map((arm) => DIRECTION[arm]).sort((p, q) => Math.abs(q[0]) - Math.abs(p[0]));
      if (h && v) {
        // Clockwise (sweep 1) when the turn from the horizontal arm to the vertical one is.
        const sweep = v[0] * h[1] - v[1] * h[0] > 0 ? 1 : 0;
        s.arc(
          `M${num(cx + h[0] * radius)} ${num(cy)}A${num(radius)} ${num(radius)} 0 0 ${sweep} ${num(cx)} ${num(cy + v[1] * radius)}`,
        );
      }
    }
    return true;
  };

  screen.lines.forEach((cells, row) => {
    // Background: one rect per run of equal colour. Cells are contiguous (a wide character's
    // second half is not listed; its first covers it).
    for (let i = 0; i < cells.length;) {
      const first = cells[i];
      const bg = first?.style.bg;
      let j = i + 1;
      while (j < cells.length && cells[j]?.style.bg === bg) j++;
      const last = cells[j - 1];
      if (first && last && bg !== undefined)
        backgrounds.push(
          `<rect x="${num(left(first.column))}" y="${num(top(row))}" width="${num((last.column + last.width - first.column) * cellWidth)}" height="${num(lineHeight)}" fill="${bg}"/>`,
        );
      i = j;
    }
    // Text: one element per run of equally styled cells; wide or multi-unit characters get their own.
    for (let i = 0; i < cells.length;) {
      const first = cells[i];
      if (!first) break;
      if (drawBox(first, row)) {
        i++;
        continue;
      }
      let j = i + 1;
      if (isSimple(first)) {
        const key = styleKey(first.style);
        while (j < cells.length) {
          const next = cells[j];
          if (!next || !isSimple(next) || BOX.has(next.chars) || styleKey(next.style) !== key) break;
          j++;
        }
      }
      let run = cells.slice(i, j);
      i = j;
      // Spaces draw nothing unless a line runs through them.
      if (!first.style.underline && !first.style.strikethrough) {
        const start = run.findIndex((c) => c.chars !== ' ');
        if (start < 0) continue;
        const end = run.length - [...run].reverse().findIndex((c) => c.chars !== ' ');
        run = run.slice(start, end);
      }
      const head = run[0];
      if (!head) continue;
      const xs = run.map((c) => num(left(c.column))).join(' ');
      const text = escapeXml(run.map((c) => c.chars).join(''));
      texts.push(`<text x="${xs}" y="${num(baseline(row))}" class="${classOf(head.style)}">${text}</text>`);
    }
  });

  const lines = [...strokes].map(
    ([stroke, s]) => `<path d="${s.path()}" stroke="${stroke}" stroke-width="${num(fontSize / 12)}"/>`,
  );
  const dots = ['#ff5f57', '#febc2e', '#28c840']
    .map((fill, k) => `<circle cx="${padding + 6 + k * 20}" cy="${titleBar / 2}" r="6" fill="${fill}"/>`)
    .join('');
  const label = options.title === undefined ? '' : ` aria-label="${escapeXml(options.title)}"`;
  const title =
    options.title === undefined
      ? ''
      : `<text x="${num(width / 2)}" y="${num(titleBar / 2 + fontSize * 0.35)}" text-anchor="middle" class="title">${escapeXml(options.title)}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" viewBox="0 0 ${num(width)} ${num(height)}" xml:space="preserve" role="img"${label}>`,
    // white-space:pre for browsers (Chrome ignores xml:space), xml:space for the rest: runs keep
    // their inner spaces, so each x still belongs to its character.
    `<style>text{font-family:${FONT_FAMILY};font-size:${fontSize}px;white-space:pre}path{fill:none;stroke-linecap:square}.title{fill:#8b929c;font-size:${num(fontSize * 0.9)}px}${css.join('')}</style>`,
    `<rect width="100%" height="100%" rx="10" fill="${theme.background}"/>`,
    dots,
    title,
    ...backgrounds,
    ...lines,
    ...texts,
    '</svg>',
    '',
  ].join('\n');
}

/** Renders a capture (`tmux capture-pane -p -e`) of a terminal of `size` as an SVG window. */
export async function ansiToSvg(ansi: string, size: ScreenSize, options: SvgOptions = {}): Promise<string> {
  return screenToSvg(await readScreen(ansi, size, options.theme), options);
}
