import { describe, expect, it, vi } from 'vitest';

// Colours are off when stdout is not a terminal; force truecolor for this file (before Ink loads chalk).
vi.hoisted(() => {
  process.env.FORCE_COLOR = '3';
  process.env.COLORTERM = 'truecolor';
});

import { renderInk, expectSafeFrame, settle } from '../test-support/ink.js';
import { ThemeProvider } from './ThemeContext.js';
import { ansiTheme, darkTheme, lightTheme, themeByName } from './theme.js';
import { DiffView } from '../components/DiffView.js';
import { TerminalView } from '../components/TerminalView.js';
import { MarkdownView } from '../markdown/MarkdownView.js';
import { getLoadedHighlighter, loadHighlighter } from '../markdown/highlight.js';

const rgb = (hex: string) => {
  const n = Number.parseInt(hex.slice(1), 16);
  return `38;2;${(n >> 16) & 255};${(n >> 8) & 255};${n & 255}`;
};

describe('themes', () => {
  it('colours diffs with the theme in use', () => {
    const diff = <DiffView path="f" oldText={'a\n'} newText={'b\n'} />;
    const dark = renderInk(<ThemeProvider theme={darkTheme}>{diff}</ThemeProvider>).frame();
    expect(dark).toContain(rgb(darkTheme.diff.added ?? ''));
    expect(dark).toContain(rgb(darkTheme.diff.removed ?? ''));
    const light = renderInk(<ThemeProvider theme={lightTheme}>{diff}</ThemeProvider>).frame();
    expect(light).toContain(rgb(lightTheme.diff.added ?? ''));
    // The ansi theme uses palette colours only, so the terminal's scheme applies.
    const ansi = renderInk(<ThemeProvider theme={ansiTheme}>{diff}</ThemeProvider>).frame();
    expect(ansi).toContain('\x1b[32m');
    expect(ansi).toContain('\x1b[31m');
    expect(ansi).not.toMatch(/\x1b\[38;2;/); // eslint-disable-line no-control-regex
    for (const frame of [dark, light, ansi]) expectSafeFrame(frame);
  });

  it('looks themes up by name', () => {
    expect(themeByName('light')).toBe(lightTheme);
    expect(themeByName('solarized')).toBeUndefined();
    expect(themeByName('constructor')).toBeUndefined();
  });
});

describe('terminal output colours', () => {
  it('keeps SGR colours from the output as Ink colours and nothing else', () => {
    const { frame } = renderInk(
      <TerminalView
        terminal={{
          terminalId: 't',
          output: '\x1b[31mred\x1b[0m \x1b[38;2;1;2;3mrgb\x1b]8;;http://x\x07link',
          truncated: false,
          exit: { exitCode: 0 },
        }}
      />,
    );
    expect(frame()).toContain('\x1b[31mred');
    expect(frame()).toContain('38;2;1;2;3');
    expect(frame()).not.toContain('\x1b]8');
    expectSafeFrame(frame());
  });
});

describe('syntax highlighting', () => {
  it('loads highlight.js only when the first code block with a language appears', async () => {
    renderInk(<MarkdownView text={'# No code here\n\n`inline` only'} />);
    await settle();
    expect(getLoadedHighlighter()).toBeUndefined();
    const r = renderInk(
      <ThemeProvider theme={darkTheme}>
        <MarkdownView text={'```ts\nconst answer = 42; // the answer\n```'} />
      </ThemeProvider>,
    );
    // First frame: plain code, while the highlighter loads.
    expect(r.frame()).not.toContain(rgb(darkTheme.syntax.keyword ?? ''));
    await loadHighlighter();
    await settle();
    expect(getLoadedHighlighter()).toBeDefined();
    expect(r.frame()).toContain(rgb(darkTheme.syntax.keyword ?? ''));
    expect(r.frame()).toContain(rgb(darkTheme.syntax.number ?? ''));
    expect(r.frame()).toContain(rgb(darkTheme.syntax.comment ?? ''));
    expectSafeFrame(r.frame());
  });
});
