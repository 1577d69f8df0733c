/**
 * The session screen drawn before the UI is loaded must be the frame the UI then draws: both go
 * through a terminal emulator and are compared cell by cell (characters, colours, bold, inverse),
 * over widths, themes, agent names and key bindings.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import chalk from 'chalk';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AgentEntry } from '@acp-kit/client';
import { makeDirs, type HarnessDirs } from '../e2e/tmux-harness.js';
import { cells, lookOf, uiFirstFrame } from '../test-support/first-frame.js';
import { sessionChrome } from './session-chrome.js';

const NOW = 1_800_000_000_123;
const ROWS = 12;

/** Ink's first frame with one tab whose agent (`name`) is starting. */
function uiFrame(dirs: HarnessDirs, columns: number, name: string): Promise<string> {
  const agent: AgentEntry = { id: 'x', name, command: 'x', args: [], source: 'user' };
  return uiFirstFrame(dirs, { columns, rows: 40 }, (store) =>
    store.dispatch({
      type: 'tab_added',
      tab: { id: 't1', agent, phase: 'starting', message: `Starting ${name}…`, queued: 0 },
      activate: true,
    }),
  );
}

/** The drawing for the same state, from the same settings file. */
async function chromeFrame(dirs: HarnessDirs, columns: number, name: string): Promise<string | undefined> {
  return sessionChrome({ columns, ...(await lookOf(dirs)), agentName: name, now: NOW })?.join('\n');
}

describe('the session screen drawn before the UI loads', () => {
  let dirs: HarnessDirs;
  let level: typeof chalk.level;
  beforeAll(() => {
    level = chalk.level;
    // Colours on (the test's stdout is no terminal), so that they are compared too.
    chalk.level = 3;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterAll(() => {
    chalk.level = level;
    vi.useRealTimers();
  });
  afterEach(() => rmSync(dirs.root, { recursive: true, force: true }));

  const cases: { columns: number; theme: string; name: string; keys?: object }[] = [
    { columns: 120, theme: 'dark', name: 'acp-kit demo agent' },
    { columns: 80, theme: 'light', name: 'Claude Agent' },
    { columns: 60, theme: 'ansi', name: 'goose' },
    { columns: 200, theme: 'none', name: 'Gemini CLI' },
    {
      columns: 55,
      theme: 'dark',
      name: 'Café ‹beta›',
      keys: { 'app.menu': 'ctrl+o', 'app.newTab': ['ctrl+t', 'ctrl+n'] },
    },
  ];
  for (const { columns, theme, name, keys } of cases) {
    it(`is the UI's first frame: ${columns} columns, ${theme} theme, "${name}"`, async () => {
      dirs = makeDirs();
      writeFileSync(join(dirs.config, 'tui.json'), JSON.stringify({ theme, ...(keys ? { keys } : {}) }));
      const chrome = await chromeFrame(dirs, columns, name);
      expect(chrome).toBeDefined();
      const ui = await uiFrame(dirs, columns, name);
      expect(await cells(chrome ?? '', columns, ROWS)).toEqual(await cells(ui, columns, ROWS));
    });
  }

  it('is not drawn when a line would not fit or a character is not one cell wide', async () => {
    dirs = makeDirs();
    expect(await chromeFrame(dirs, 30, 'acp-kit demo agent')).toBeUndefined();
    expect(await chromeFrame(dirs, 120, '智能体')).toBeUndefined();
    expect(await chromeFrame(dirs, 120, 'agent 🚀')).toBeUndefined();
  });
});
