/**
 * End to end in tmux with the scripted agent: hunk-by-hunk review, a rejected permission, commands
 * as Claude and Codex ask to run them, cancel
 * with a stuck agent (kill and restart), a crash and restart, two tabs, reopening a session, a
 * form filled in by keyboard.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyHunkDecisions } from '../diff/review-hunks.js';
import { makeScenarioDirs, NOTES, type HarnessDirs, type TuiHarness } from './tmux-harness.js';
import { tmuxPerTest } from './tmux-per-test.js';

const tmux = tmuxPerTest();

/** The scripted agent as a user agent of the catalog, `notes.txt` in the workspace. */
const setup = (): HarnessDirs => tmux.keep(makeScenarioDirs({ files: { 'notes.txt': NOTES } }));

const launch = (args: string[], env: Record<string, string> = {}): TuiHarness => tmux.launch({ args, env });

describe('scripted agent in tmux', () => {
  it('reviews a write hunk by hunk: the file gets exactly the accepted hunks and the agent is told', async () => {
    const d = setup();
    const h = launch(['--agent', 'scenario']);
    await h.waitFor('Connected to scenario: new session');
    await h.submit('edit notes.txt');
    await h.waitFor(/Permission requested[\s\S]*Edit notes\.txt/);
    await h.answer('y');
    await h.waitFor('Review write to notes.txt · 3 hunks');
    h.press('y');
    await h.waitFor('1 accepted · 0 rejected · 2 undecided');
    h.press('n');
    await h.waitFor('1 accepted · 1 rejected · 1 undecided');
    h.press('y');
    await h.waitFor('2 accepted · 1 rejected · 0 undecided');
    h.press('Enter');
    const told = await h.waitFor(/write result: error: The user accepted 2 of 3 changes/, { history: true });
    expect(told.replace(/\s+/g, ' ')).toContain('rejected the changes at line 11');
    const proposed = NOTES.split('\n')
      .map((line, i) => ([1, 10, 19].includes(i) ? `${line} (changed)` : line))
      .join('\n');
    expect(readFileSync(join(d.workspace, 'notes.txt'), 'utf8')).toBe(
      applyHunkDecisions(NOTES, proposed, ['accept', 'reject', 'accept']),
    );

    // A rejected permission: nothing is written, the agent says so.
    await h.submit('edit notes.txt');
    await h.waitFor(/Permission requested[\s\S]*Edit notes\.txt/);
    await h.answer('n');
    await h.waitFor('write result: not allowed', { history: true });
    expect(readFileSync(join(d.workspace, 'notes.txt'), 'utf8')).not.toContain('line 2 (changed) (changed)');
  }, 60_000);

  it('offers no hunk review for a rewrite that changes nothing (+0 -0)', async () => {
    // One line without a newline: the scripted agent's change (lines 2, 11, 20) leaves it as it is.
    const d = tmux.keep(makeScenarioDirs({ files: { 'same.txt': 'the only line' } }));
    const h = launch(['--agent', 'scenario']);
    await h.waitFor('Connected to scenario: new session');
    await h.submit('patch same.txt');
    const asked = await h.waitFor(/Permission requested[\s\S]*No changes\.[\s\S]*Enter answer/);
    expect(asked).not.toContain('review the changes hunk by hunk');
    await h.answer('y');
    await h.waitFor('write result: ok', { history: true });
    expect(readFileSync(join(d.workspace, 'same.txt'), 'utf8')).toBe('the only line');
  });

  it('shows a command once, as a command, as Claude and Codex ask to run it', async () => {
    setup();
    const h = launch(['--agent', 'scenario']);
    await h.waitFor('Connected to scenario: new session');
    for (const [style, command] of [
      ['claude', '$ ls -la'],
      ['codex', "$ bash -lc 'ls -la'"],
    ] as const) {
      await h.submit(`command ${style}`);
      const screen = await h.waitFor(/Permission requested[\s\S]*↑↓ choose · Enter answer/);
      const lines = screen.split('\n');
      const start = lines.findIndex((line) => line.includes('Permission requested'));
      const box = lines.slice(start, lines.findIndex((line, i) => i > start && line.includes('╰')) + 1);
      expect(box.join('\n'), style).toContain('Run a command');
      expect(
        box.filter((line) => line.includes('ls -la')).map((line) => line.replace(/^│|│$/g, '').trim()),
      ).toEqual([command]);
      expect(box.join('\n'), style).not.toContain('`');
      h.press('y');
      await h.waitFor(`command result: yes`, { history: true });
      await h.waitFor('Message · / for commands');
    }
  }, 60_000);

  it('cancels; a second Esc on a stuck agent offers to kill it; restart reopens the session', async () => {
    setup();
    const h = launch(['--agent', 'scenario']);
    await h.waitFor('Connected to scenario: new session');
    await h.submit('hello');
    await h.waitFor('You said: hello');
    await h.submit('hang');
    await h.waitFor('ignoring cancel');
    h.press('Escape');
    await h.waitFor('Esc cancel');
    h.press('Escape');
    await h.waitFor('has not stopped the cancelled turn');
    h.press('k');
    const stopped = await h.waitFor('Scenario was stopped');
    expect(stopped).toContain('The transcript above is kept.');
    h.press('r');
    await h.waitFor('Connected to scenario: session loaded by the agent', { history: true });
    await h.waitFor('Message · / for commands');
    await h.submit('after restart');
    const after = await h.waitFor('You said: after restart', { history: true });
    expect(after).toContain('You said: hello');
  }, 60_000);

  it('shows a crash with its exit reason, keeps the transcript, and restarts', async () => {
    setup();
    const h = launch(['--agent', 'scenario']);
    await h.waitFor('Connected to scenario: new session');
    await h.submit('before the crash');
    await h.waitFor('You said: before the crash');
    await h.submit('crash');
    // The stderr lines are in the transcript's last item, printed just above the panel.
    const crashed = await h.waitFor(
      (screen) => screen.includes('Scenario exited') && screen.includes('boom: simulated crash'),
    );
    expect(crashed).toMatch(/(exited with|exit) code 3/);
    expect(crashed).toContain('boom: simulated crash');
    expect(crashed).toContain('r restart the agent and reopen the session');
    expect(h.history()).toContain('You said: before the crash');
    h.press('r');
    await h.waitFor('Message · / for commands');
    await h.submit('alive again');
    await h.waitFor('You said: alive again', { history: true });
  }, 60_000);

  it('runs two tabs and prints each tab’s transcript when switching; reopens a session with --resume', async () => {
    const d = setup();
    let h = launch(['--agent', 'scenario']);
    await h.waitFor('Connected to scenario: new session');
    await h.submit('first tab');
    await h.waitFor('You said: first tab');
    h.press('C-n');
    const picker = await h.waitFor('New tab: choose an agent');
    const hotkey = /(\d) Scenario/.exec(picker)?.[1];
    expect(hotkey).toBeDefined();
    h.press(hotkey as string);
    await h.waitFor(/2 Scenario/);
    await h.waitFor('Message · / for commands');
    await h.submit('second tab');
    let screen = await h.waitFor('You said: second tab');
    expect(screen).not.toContain('You said: first tab');
    h.press('C-Left');
    screen = await h.waitFor('You said: first tab');
    expect(screen).not.toContain('You said: second tab');
    h.press('C-Right');
    await h.waitFor('You said: second tab');
    // A third tab, left without a turn: nothing to resume there.
    h.press('C-n');
    await h.waitFor('New tab: choose an agent');
    h.press(hotkey as string);
    await h.waitFor(/3 Scenario/);
    await h.waitFor('Message · / for commands');

    h.press('C-q');
    expect(await h.exitStatus()).toBe(0);
    const exited = h.history();
    h.close();
    const sessionsDir = join(d.data, 'client', 'sessions');
    // The third tab's session is recorded when its session/new finished before the quit: 2 or 3.
    const recorded = readdirSync(sessionsDir);
    const [first, second] = recorded
      .map((id) => ({
        id,
        meta: JSON.parse(readFileSync(join(sessionsDir, id, 'meta.json'), 'utf8')) as {
          createdAt: string;
          turns: number;
        },
      }))
      .filter(({ meta }) => meta.turns > 0)
      .sort((a, b) => a.meta.createdAt.localeCompare(b.meta.createdAt));
    expect(first).toBeDefined();
    // On exit, below the transcript: how to resume the two sessions that had a turn.
    const resume = exited.split('\n').filter((line) => line.includes('acp --resume'));
    expect(resume.map((line) => line.trim().split(/\s+/)[2]).sort()).toEqual([first?.id, second?.id].sort());
    expect(exited).toContain('Resume a session with:');
    // A prefix of both sessions is said to be ambiguous, in the UI (it used to throw and exit).
    h = launch(['--resume', 's-']);
    await h.waitFor(new RegExp(`s- matches ${recorded.length} sessions`));
    h.press('C-q');
    expect(await h.exitStatus()).toBe(0);
    h.close();
    const metricsFile = join(d.root, 'resume-metrics.json');
    h = launch(['--resume', first?.id as string], { ACP_KIT_TUI_METRICS_FILE: metricsFile });
    screen = await h.waitFor('Connected to scenario: session loaded by the agent', { history: true });
    expect(screen).toContain('You said: first tab');
    expect(screen).not.toContain('You said: second tab');
    await h.waitFor('Message · / for commands');
    await h.submit('after reopening');
    await h.waitFor('You said: after reopening', { history: true });
    h.press('C-q');
    expect(await h.exitStatus()).toBe(0);
    // The reopened session's agent started once its history was printed, not beside it.
    const { marks } = JSON.parse(readFileSync(metricsFile, 'utf8')) as { marks: Record<string, number> };
    expect(marks['agent-start']).toBeGreaterThanOrEqual(marks['history-printed'] as number);
  }, 120_000);

  it('signs in: explains what it cannot do, hands the terminal to a terminal login, then reconnects', async () => {
    setup();
    const h = launch(['--agent', 'scenario'], { SCENARIO_AUTH: '1' });
    await h.waitFor('Scenario needs you to sign in');
    h.press('3');
    await h.waitFor('set SCENARIO_API_KEY in the environment');
    h.press('1');
    await h.waitFor('scenario login: press Enter to sign in');
    h.press('Enter');
    await h.waitFor('Connected to scenario: new session', { timeoutMs: 60_000 });
    await h.submit('signed in');
    await h.waitFor('You said: signed in', { history: true });
  }, 60_000);

  it('fills in a form the agent asks for by keyboard; the agent gets the accepted content, a decline, a cancel', async () => {
    setup();
    const h = launch(['--agent', 'scenario']);
    await h.waitFor('Connected to scenario: new session');
    const flatten = (text: string): string => text.replace(/[│\s]+/g, ' ');
    /** Waits for the form to take keys (its key hints replace "keys work in a moment"). */
    const armed = () => h.waitFor(/Input requested by Scenario agent[\s\S]*Esc decline/);

    await h.submit('elicit');
    const form = await armed();
    expect(flatten(form)).toContain('The deploy tool needs a few details.');
    expect(form).toContain('⚑ 1 form waiting');
    // Submitting as it opens shows what is missing, beside the fields.
    h.press('C-s');
    await h.waitFor(
      (screen) => /Name \* +✗ Required/.test(screen) && /Regions \* +✗ Choose at least 1/.test(screen),
    );
    h.type('Ada');
    await h.waitFor((screen) => screen.includes('Ada') && !/Name \* +✗/.test(screen));
    h.press('Tab', 'BSpace');
    h.type('3');
    h.press('Tab', 'Right', 'Tab', 'Space', 'Right', 'Space', 'Tab', 'Space');
    const filled = flatten(
      await h.waitFor((screen) => screen.includes('[x] Notify the team') && screen.includes('[x] us-east-1')),
    );
    expect(filled).toContain('( ) Staging (•) Production');
    expect(filled).toContain('[x] eu-west-1 [x] us-east-1');
    h.press('Enter');
    const told = await h.waitFor(
      (text) =>
        flatten(text).includes(
          'elicit result: accept name="Ada" replicas=3 environment="production" regions=["eu-west-1","us-east-1"] notify=true',
        ),
      { history: true },
    );
    expect(flatten(told)).toContain('The deploy tool needs a few details. → accept');
    await h.waitFor('Message · / for commands');

    await h.submit('elicit');
    await armed();
    h.press('Escape');
    await h.waitFor('elicit result: decline', { history: true });
    await h.waitFor('Message · / for commands');

    await h.submit('elicit');
    await armed();
    h.press('BTab', 'Right', 'Right');
    await h.waitFor('❯ Cancel');
    h.press('Enter');
    await h.waitFor('elicit result: cancel', { history: true });
    const after = await h.waitFor('Message · / for commands');
    expect(after).not.toContain('Input requested');
  }, 60_000);
});
