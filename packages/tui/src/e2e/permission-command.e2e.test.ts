/**
 * End to end in a real terminal (tmux): what a question about a command shows and how often it is
 * asked. A compound command (`echo one; echo two`) is asked about once — the agent's question
 * covers the terminal that runs exactly that script — and a terminal that sets a variable off the
 * allow list shows the variable, its value and the working directory, invisible characters escaped.
 */
import { describe, expect, it } from 'vitest';
import { makeScenarioDirs, permissionBox } from './tmux-harness.js';
import { tmuxPerTest } from './tmux-per-test.js';

const tmux = tmuxPerTest();

describe('questions about commands', () => {
  it('asks once about a compound command the agent runs in a terminal', async () => {
    const h = tmux.launch({ args: ['--agent', 'demo'] });
    await h.waitFor('Connected to demo: new session', { timeoutMs: 60_000 });
    await h.submit('run echo one; echo two');
    const asked = permissionBox(await h.waitFor(/Permission requested[\s\S]*\$ echo one; echo two/));
    expect(asked).toContain('Run a command');
    await h.answer('y');
    // A second question (the terminal's `/bin/sh -c …`) would hold the turn here.
    const done = await h.waitFor(/exited with 0/, { history: true });
    expect(done).toMatch(/one\n[\s\S]*two/);
    expect(done.split('(by you)').length - 1).toBe(1);
    expect(h.screen()).not.toContain('Permission requested');
  }, 90_000);

  it('shows the cwd and the variables a terminal sets, escaped, and the warning about them', async () => {
    const dirs = tmux.keep(makeScenarioDirs());
    const h = tmux.launch({ args: ['--agent', 'scenario'], columns: 160 });
    await h.waitFor('Connected to scenario: new session', { timeoutMs: 60_000 });
    await h.submit('term env');
    const screen = await h.waitFor(/Permission requested[\s\S]*env GIT_DIR=/);
    const asked = permissionBox(screen);
    expect(asked).toContain('$ echo terminal-says-hi');
    expect(asked).toContain(`in ${dirs.workspace}`);
    expect(asked).toContain(`env GIT_DIR=${dirs.workspace}/.agent\\u{200b}/repo`);
    expect(screen).toContain('⚠ Sets GIT_DIR: they can change what the command runs');
    await h.answer('n');
    await h.waitFor(/term result: .*refused/, { history: true });
  }, 90_000);
});
