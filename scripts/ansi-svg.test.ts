import { describe, expect, it } from 'vitest';
import { ansiToSvg, DEFAULT_THEME, escapeXml, readScreen, screenText } from './ansi-svg.js';

const SIZE = { columns: 20, rows: 3 };
/** The layout screenToSvg uses at its default 14px: 16px padding, 0.6em cells, a 32px title bar. */
const x = (column: number): string => String(Math.round((16 + column * 8.4) * 100) / 100);

interface TextElement {
  readonly xs: string[];
  readonly className: string;
  readonly text: string;
}

function texts(svg: string): TextElement[] {
  return [...svg.matchAll(/<text x="([^"]*)" y="[^"]*" class="(s\d+)">([^<]*)<\/text>/g)].map((m) => ({
    xs: (m[1] ?? '').split(' '),
    className: m[2] ?? '',
    text: m[3] ?? '',
  }));
}

function textOf(svg: string, text: string): TextElement {
  const found = texts(svg).find((t) => t.text === text);
  if (!found) throw new Error(`no <text> "${text}" in\n${svg}`);
  return found;
}

/** The CSS declarations of a style class. */
function css(svg: string, className: string): string {
  return new RegExp(`\\.${className}\\{([^}]*)\\}`).exec(svg)?.[1] ?? '';
}

describe('ansiToSvg', () => {
  it('draws plain text one glyph per column, in the default colour', async () => {
    const svg = await ansiToSvg('hello world', SIZE);
    const t = textOf(svg, 'hello world');
    expect(t.xs).toEqual([...'hello world'].map((_, i) => x(i)));
    expect(css(svg, t.className)).toBe(`fill:${DEFAULT_THEME.foreground}`);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="98.4"')).toBe(true);
  });

  it('splits runs where the SGR attributes change, and keeps them across lines', async () => {
    const svg = await ansiToSvg('\x1b[31mred \x1b[1mbold\x1b[0m plain\n\x1b[32mgreen\nstill', SIZE);
    expect(css(svg, textOf(svg, 'red').className)).toBe(`fill:${DEFAULT_THEME.ansi[1]}`);
    expect(css(svg, textOf(svg, 'bold').className)).toBe(`fill:${DEFAULT_THEME.ansi[1]};font-weight:bold`);
    expect(textOf(svg, 'bold').xs[0]).toBe(x(4));
    expect(css(svg, textOf(svg, 'plain').className)).toBe(`fill:${DEFAULT_THEME.foreground}`);
    // tmux writes only changes: the second line's colour is still in force on the third.
    expect(textOf(svg, 'still').className).toBe(textOf(svg, 'green').className);
  });

  it('resolves 256-colour and RGB colours, foreground and background', async () => {
    const svg = await ansiToSvg(
      '\x1b[38;5;196mA\x1b[38;5;244mB\x1b[38;2;1;2;3mC\x1b[48;2;16;32;48m D \x1b[0m',
      SIZE,
    );
    expect(css(svg, textOf(svg, 'A').className)).toBe('fill:#ff0000');
    expect(css(svg, textOf(svg, 'B').className)).toBe('fill:#808080');
    // A background alone does not split a run of text: it is drawn underneath.
    expect(css(svg, textOf(svg, 'C D').className)).toBe('fill:#010203');
    expect(svg).toContain(`<rect x="${x(3)}" y="32" width="25.2" height="16.8" fill="#102030"/>`);
  });

  it('swaps colours for inverse and halves dim text towards the background', async () => {
    const svg = await ansiToSvg('\x1b[7minv\x1b[0m \x1b[2;38;2;255;255;255mdim', SIZE);
    expect(css(svg, textOf(svg, 'inv').className)).toBe(`fill:${DEFAULT_THEME.background}`);
    expect(svg).toContain(
      `<rect x="${x(0)}" y="32" width="25.2" height="16.8" fill="${DEFAULT_THEME.foreground}"/>`,
    );
    expect(css(svg, textOf(svg, 'dim').className)).toBe('fill:#8d8f92');
  });

  it('gives a wide character two columns and its own element', async () => {
    const screen = await readScreen('日本x', SIZE);
    expect(screen.lines[0]?.slice(0, 3).map((c) => [c.chars, c.column, c.width])).toEqual([
      ['日', 0, 2],
      ['本', 2, 2],
      ['x', 4, 1],
    ]);
    const svg = await ansiToSvg('日本x', SIZE);
    expect(textOf(svg, '日').xs).toEqual([x(0)]);
    expect(textOf(svg, '本').xs).toEqual([x(2)]);
    expect(textOf(svg, 'x').xs).toEqual([x(4)]);
    expect(screenText(screen)[0]).toBe('日本x');
  });

  it('escapes XML in text and in the title', async () => {
    const svg = await ansiToSvg('a <b> & "c"', SIZE, { title: '<acp> & co' });
    expect(textOf(svg, 'a &lt;b&gt; &amp; &quot;c&quot;').xs).toHaveLength(11);
    expect(svg).toContain('aria-label="&lt;acp&gt; &amp; co"');
    expect(svg).toContain('>&lt;acp&gt; &amp; co</text>');
    expect(escapeXml('\x07<&>')).toBe('&lt;&amp;&gt;');
  });

  it('draws frames as lines, merged along each side, instead of glyphs', async () => {
    const svg = await ansiToSvg('\x1b[33m╭──╮\n│  │\n╰──╯', SIZE);
    expect(texts(svg)).toEqual([]);
    const d = /<path d="([^"]*)" stroke="([^"]*)"/.exec(svg);
    expect(d?.[2]).toBe(DEFAULT_THEME.ansi[3]);
    // The top side runs from the first corner's arc to the last one's, in one segment.
    expect(d?.[1]).toContain(`M${Number(x(0)) + 8.4}`);
    expect(d?.[1]).toMatch(/A4\.2 4\.2 0 0 [01]/);
  });

  it('keeps a line that fills the last column from wrapping into the next', async () => {
    const full = 'x'.repeat(SIZE.columns);
    const screen = await readScreen(`${full}\nnext`, SIZE);
    expect(screenText(screen)).toEqual([full, 'next', '']);
  });
});
