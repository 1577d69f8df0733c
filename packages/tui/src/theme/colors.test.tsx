import { describe, expect, it, vi } from 'vitest';

// Colours are off when stdout is not a terminal; force truecolor for this file (before Ink loads chalk).
vi.hoisted(() => {
  process.env.FORCE_COLOR = '3';
  process.env.COLORTERM = 'truecolor';
});

import { openScenario, startApp } from '../test-support/app-flow.js';
import { renderInk, expectSafeFrame, settle } from '../test-support/ink.js';
import { ThemeProvider } from './ThemeContext.js';
import { ansiTheme, darkTheme, lightTheme, noColorTheme, resolveTheme, themeByName } from './theme.js';
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

/** An SGR sequence that sets a foreground or background colour (not bold, dim, underline…). */
const hasColour = (frame: string): boolean =>
  /\x1b\[(?:[0-9]+;)*(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])[;m]/.test(frame); // eslint-disable-line no-control-regex

describe('NO_COLOR', () => {
  it('selects the theme without colours whatever the settings say', () => {
    expect(resolveTheme('light', { NO_COLOR: '1' })).toBe(noColorTheme);
    expect(resolveTheme('light', { NO_COLOR: '' })).toBe(lightTheme);
    expect(resolveTheme('bogus', {})).toBe(darkTheme);
    expect(themeByName('none')).toBe(noColorTheme);
    expect(hasColour('\x1b[1;31m') && hasColour('\x1b[38;2;1;2;3m') && !hasColour('\x1b[1m\x1b[22m')).toBe(
      true,
    );
  });

  it('draws diffs, code and terminal output without colours, keeping bold', async () => {
    await loadHighlighter();
    const frame = renderInk(
      <ThemeProvider theme={resolveTheme('dark', { NO_COLOR: '1' })}>
        <DiffView path="f" oldText={'a\n'} newText={'b\n'} />
        <MarkdownView text={'# Title\n\n```ts\nconst answer = 42;\n```'} />
        <TerminalView
          terminal={{
            terminalId: 't',
            output: '\x1b[1;31mbold red\x1b[0m \x1b[42mon green',
            truncated: false,
            exit: { exitCode: 0 },
          }}
        />
      </ThemeProvider>,
    ).frame();
    expect(frame).toContain('bold red');
    expect(frame).toContain('\x1b[1m');
    expect(hasColour(frame), JSON.stringify(frame)).toBe(false);
    const coloured = renderInk(
      <ThemeProvider theme={resolveTheme('dark', {})}>
        <DiffView path="f" oldText={'a\n'} newText={'b\n'} />
      </ThemeProvider>,
    ).frame();
    expect(hasColour(coloured)).toBe(true);
  });

  it('runs the whole app without a colour on screen', async () => {
    const app = await startApp({ env: () => ({ NO_COLOR: '1' }), files: { 'notes.txt': 'n\n' } });
    try {
      await openScenario(app.r);
      const frames = app.r.stdout.frames.join('\n');
      expect(frames).toContain('Scenario');
      expect(hasColour(frames)).toBe(false);
    } finally {
      await app.close();
    }
    const control = await startApp();
    try {
      await openScenario(control.r);
      expect(hasColour(control.r.stdout.frames.join('\n'))).toBe(true);
    } finally {
      await control.close();
    }
  }, 30_000);
});
