/**
 * The agent picker drawn before the UI of `acp` is loaded must be the frame the UI then draws,
 * with the agents found before it: both go through a terminal emulator and are compared cell by
 * cell, over widths, heights (a list that scrolls), themes, a default agent, installed agents of
 * the user's and a broken agents.json.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import chalk from 'chalk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentCatalog, resolveClientPaths } from '@acp-kit/client';
import { orderAgents } from '../app/components/agent-items.js';
import { makeDirs, type HarnessDirs } from '../e2e/tmux-harness.js';
import { cells, dirsEnv, lookOf, uiFirstFrame } from '../test-support/first-frame.js';
import { pickerChrome } from './picker-chrome.js';

/** Both frames of `acp` in `dirs` on a terminal of `columns` × `rows`. */
async function frames(dirs: HarnessDirs, columns: number, rows: number) {
  const paths = resolveClientPaths(dirsEnv(dirs));
  const catalog = await AgentCatalog.load({
    agentsFile: paths.agentsFile,
    self: { command: process.execPath, args: ['acp'] },
  });
  const agents = orderAgents(await catalog.detectAll());
  const chrome = pickerChrome({
    columns,
    rows,
    ...(await lookOf(dirs)),
    agents,
    defaultAgent: catalog.defaultAgent,
    problems: catalog.problems,
  });
  const ui = await uiFirstFrame(
    dirs,
    { columns, rows },
    (store) => store.dispatch({ type: 'overlay_opened', overlay: { kind: 'agents', purpose: 'start' } }),
    agents,
  );
  return { chrome: chrome?.join('\n'), ui, lines: chrome?.length ?? 0 };
}

describe('the agent picker drawn before the UI loads', () => {
  let dirs: HarnessDirs;
  let level: typeof chalk.level;
  beforeAll(() => {
    level = chalk.level;
    chalk.level = 3;
  });
  afterAll(() => {
    chalk.level = level;
  });
  afterEach(() => rmSync(dirs.root, { recursive: true, force: true }));

  const cases: { columns: number; rows: number; theme: string; agents?: object }[] = [
    { columns: 120, rows: 40, theme: 'dark' },
    { columns: 80, rows: 24, theme: 'light' },
    // The list scrolls: 9 agents, 4 shown.
    { columns: 100, rows: 14, theme: 'ansi' },
    {
      columns: 90,
      rows: 30,
      theme: 'none',
      agents: {
        defaultAgent: 'mine',
        agents: { mine: { name: 'My agent', command: process.execPath, description: 'node, mine' } },
      },
    },
    { columns: 130, rows: 30, theme: 'dark', agents: { agents: 'not an object' } },
  ];
  for (const { columns, rows, theme, agents } of cases) {
    it(`is the UI's first frame: ${columns}×${rows}, ${theme} theme${agents ? ', agents.json' : ''}`, async () => {
      dirs = makeDirs();
      writeFileSync(join(dirs.config, 'tui.json'), JSON.stringify({ theme }));
      if (agents) writeFileSync(join(dirs.config, 'agents.json'), JSON.stringify(agents));
      const { chrome, ui, lines } = await frames(dirs, columns, rows);
      expect(chrome).toBeDefined();
      expect(await cells(chrome ?? '', columns, lines)).toEqual(await cells(ui, columns, lines));
    });
  }

  it('is not drawn when a line would not fit', async () => {
    dirs = makeDirs();
    expect((await frames(dirs, 40, 30)).chrome).toBeUndefined();
  });
});
