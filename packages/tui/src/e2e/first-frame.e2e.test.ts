/**
 * End to end in a real terminal (tmux): `acp --agent NAME` draws the session screen before the UI
 * is loaded; the UI's first frame replaces the drawing in place, in the write that erases it (one
 * copy on screen and none in the scrollback). That its connection takes the agent started
 * meanwhile is tested in the client (process/early-agent.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeScenarioDirs, scenarioEnv } from './tmux-harness.js';
import { tmuxPerTest } from './tmux-per-test.js';

const tmux = tmuxPerTest();

/** Text without escape sequences. */
const plain = (text: string): string => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ''); // eslint-disable-line no-control-regex

describe('the first frame of acp --agent NAME', () => {
  it('is drawn before the UI loads and taken over by its first frame, in place', async () => {
    const dirs = tmux.keep(makeScenarioDirs());
    const gate = join(dirs.root, 'open-session');
    const rawLog = join(dirs.root, 'raw.log');
    const h = tmux.launch({
      args: ['--agent', 'scenario'],
      env: { ...scenarioEnv(dirs), SCENARIO_NEW_GATE: gate },
      rawLog,
    });
    // The UI's own state (the drawing says "Starting"): the agent answered initialize.
    const shown = await h.waitFor('Opening the session…', { timeoutMs: 60_000 });
    const history = h.history();
    for (const line of [/^ 1 Scenario/m, /^╭─+╮$/m, /Message · \/ for commands/, /connecting │ Scenario/])
      expect(history.match(new RegExp(line.source, 'gm'))).toHaveLength(1);
    expect(history).not.toContain('Starting Scenario…');
    expect(shown).toMatch(/Ctrl\+X menu · \? keys · Ctrl\+N new tab/);

    // What the terminal got: the drawing first, then the erase of its seven lines, then the UI.
    const raw = readFileSync(rawLog, 'utf8');
    const drawing = raw.slice(0, raw.indexOf('\x1b[2K'));
    expect(plain(drawing).split('\r\n').slice(0, 7)).toEqual([
      expect.stringMatching(/^. Starting Scenario…$/),
      expect.stringMatching(/^╭─+╮$/),
      expect.stringMatching(/^│ › {2}Message · \/ for commands · @ to mention a file +│$/),
      expect.stringMatching(/^╰─+╯$/),
      ' 1 Scenario  ◌',
      '◌ connecting │ Scenario',
      'Ctrl+X menu · ? keys · Ctrl+N new tab',
    ]);
    expect(raw.slice(drawing.length).startsWith(`\x1b[2K${'\x1b[1A\x1b[2K'.repeat(7)}\x1b[G`)).toBe(true);

    writeFileSync(gate, '');
    await h.waitFor('● connected');
  });
});

describe('the first frame of acp', () => {
  it('is the agent picker with the agents found, drawn before the UI loads, which takes it over as it is', async () => {
    const dirs = tmux.keep(makeScenarioDirs());
    const rawLog = join(dirs.root, 'raw.log');
    const h = tmux.launch({ env: scenarioEnv(dirs), rawLog });
    await h.waitFor(/❯ 2 Scenario \[installed\]/, { timeoutMs: 60_000 });
    // A key the UI answers (the drawing cannot): the list's focus moves.
    h.press('Down');
    const moved = await h.waitFor(/❯ 3 Claude Agent/, { timeoutMs: 60_000 });
    expect(moved).toMatch(/^│ {3}2 Scenario \[installed\]/m);
    expect(h.history().match(/Choose an agent/g)).toHaveLength(1);
    // The UI never showed a picker still looking: its first frame was the list drawn before it.
    const raw = readFileSync(rawLog, 'utf8');
    expect(raw).not.toContain('Looking for agents');
    expect(plain(raw.slice(0, raw.indexOf('\x1b[2K')))).toMatch(/^│ Choose an agent +│\r\n/m);
  });
});
