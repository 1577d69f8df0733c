/**
 * End to end in a real terminal (tmux): `acp --agent demo --protocol 2`, a running command whose
 * card offers the key that stops that call alone (ACP v2 `tool_call/cancel`); pressing it stops
 * the call and the turn ends on its own, never cancelled. Under `--protocol 1` no card offers it.
 */
import { describe, expect, it } from 'vitest';
import { tmuxPerTest } from './tmux-per-test.js';

const tmux = tmuxPerTest();

describe('stopping one tool call from its card (ACP v2)', () => {
  it('stops a running command alone with its key; the turn goes on and ends by itself', async () => {
    const h = tmux.launch({ args: ['--agent', 'demo', '--protocol', '2'] });
    await h.waitFor('Connected to demo: new session', { timeoutMs: 60_000 });
    await h.submit('run sleep 30');
    await h.waitFor(/Permission requested[\s\S]*\$ sleep 30/);
    await h.answer('y');
    await h.waitFor('Ctrl+G stops this call (the turn goes on)');
    h.press('C-g');
    await h.waitFor('Message · / for commands', { timeoutMs: 30_000 });
    const history = h.history();
    expect(history).toMatch(/run_command|sleep 30/);
    expect(history).toMatch(/cancelled/i);
    expect(history).not.toContain('Turn cancelled');
    h.press('C-q');
    expect(await h.exitStatus()).toBe(0);
  }, 90_000);

  it('offers no such key to a v1 agent', async () => {
    const h = tmux.launch({ args: ['--agent', 'demo', '--protocol', '1'] });
    await h.waitFor('Connected to demo: new session', { timeoutMs: 60_000 });
    await h.submit('run sleep 2');
    await h.waitFor(/Permission requested[\s\S]*sleep 2/);
    await h.answer('y');
    await h.waitFor('Message · / for commands', { timeoutMs: 30_000 });
    expect(h.history()).not.toContain('stops this call');
    h.press('C-q');
    expect(await h.exitStatus()).toBe(0);
  }, 90_000);
});
