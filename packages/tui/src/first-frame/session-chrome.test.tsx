/**
 * The session screen drawn before the UI is loaded must be the frame the UI then draws: both go
 * through a terminal emulator and are compared cell by cell (characters, colours, bold, inverse),
 * over widths, themes, agent names and key bindings.
 */
import { EventEmitter } from 'node:events';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import chalk from 'chalk';
import { render } from 'ink';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveClientPaths, type AgentEntry } from '@acp-kit/client';
import { readScreen } from '../../../../scripts/ansi-svg.ts';
import { AppRoot } from '../app/components/AppRoot.js';
import { Controller } from '../app/services/controller.js';
import { loadSettings, settingsPath } from '../app/settings/settings-file.js';
import { AppStore } from '../app/state/app-store.js';
import { makeDirs, type HarnessDirs } from '../e2e/tmux-harness.js';
import { resolveKeyBindings } from '../keys/key-bindings.js';
import { formatKeySpec } from '../keys/key-spec.js';
import { resolveTheme } from '../theme/theme.js';
import { sessionChrome } from './session-chrome.js';

const NOW = 1_800_000_000_123;
const ROWS = 12;

/** A stdout of `columns` that keeps Ink's last frame (Ink in debug mode writes each frame whole). */
class FrameStdout extends EventEmitter {
  last = '';
  constructor(readonly columns: number) {
    super();
  }
  readonly rows = 40;
  write = (frame: string): boolean => {
    this.last = frame;
    return true;
  };
}

/** Ink's first frame of the app with one tab whose agent (`name`) is starting. */
async function uiFrame(dirs: HarnessDirs, columns: number, name: string): Promise<string> {
  const store = new AppStore();
  const env = { ACP_KIT_CONFIG_DIR: dirs.config, ACP_KIT_DATA_DIR: dirs.data };
  const controller = await Controller.create({
    store,
    paths: resolveClientPaths(env),
    cwd: dirs.workspace,
    env,
    handover: { run: (work) => work() },
  });
  const agent: AgentEntry = { id: 'x', name, command: 'x', args: [], source: 'user' };
  store.dispatch({
    type: 'tab_added',
    tab: { id: 't1', agent, phase: 'starting', message: `Starting ${name}…`, queued: 0 },
    activate: true,
  });
  const stdout = new FrameStdout(columns);
  const stdin = Object.assign(new EventEmitter(), {
    isTTY: true,
    setRawMode: () => undefined,
    setEncoding: () => undefined,
    resume: () => undefined,
    pause: () => undefined,
    ref: () => undefined,
    unref: () => undefined,
    read: () => null,
  });
  const ink = render(<AppRoot controller={controller} />, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const frame = stdout.last;
  ink.unmount();
  await controller.quit(0);
  return frame;
}

/** The chrome for the same state, from the same settings file. */
async function chromeFrame(dirs: HarnessDirs, columns: number, name: string): Promise<string | undefined> {
  const { settings } = await loadSettings(settingsPath(dirs.config));
  const bindings = resolveKeyBindings(settings.keys).bindings;
  const label = (action: keyof typeof bindings): string => {
    const first = bindings[action][0];
    return first === undefined ? '' : formatKeySpec(first);
  };
  const lines = sessionChrome({
    columns,
    theme: resolveTheme(settings.theme, {}),
    keys: {
      menu: label('app.menu'),
      cancel: label('app.cancel'),
      restart: label('app.restart'),
      newTab: label('app.newTab'),
    },
    agentName: name,
    now: NOW,
  });
  return lines?.join('\n');
}

async function cells(ansi: string, columns: number) {
  return (await readScreen(ansi, { columns, rows: ROWS })).lines;
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
      expect(await cells(chrome ?? '', columns)).toEqual(await cells(ui, columns));
    });
  }

  it('is not drawn when a line would not fit or a character is not one cell wide', async () => {
    dirs = makeDirs();
    expect(await chromeFrame(dirs, 30, 'acp-kit demo agent')).toBeUndefined();
    expect(await chromeFrame(dirs, 120, '智能体')).toBeUndefined();
    expect(await chromeFrame(dirs, 120, 'agent 🚀')).toBeUndefined();
  });
});
