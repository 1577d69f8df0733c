/**
 * The UI stopped from outside while its agent is still starting, in a real terminal: the terminal
 * closed (tmux kills the pane: SIGHUP), SIGTERM, and a quick double Ctrl+C. The agent ignores the
 * end of its stdin, SIGTERM and SIGHUP, never answers `initialize`, and starts a grandchild: only
 * the full shutdown sequence, to SIGKILL of its process group, stops it. Nothing may survive.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { processGone } from '../../../client/src/test-support/harness.js';
import { makeDirs, type TuiHarness } from './tmux-harness.js';
import { tmuxPerTest } from './tmux-per-test.js';

const FAKE_AGENT = fileURLToPath(new URL('../../../client/src/test-support/fake-agent.mjs', import.meta.url));
const tmux = tmuxPerTest();

/** Still running (a zombie waiting to be reaped counts as gone). */
const alive = (pid: number): boolean => !processGone(pid);

/** Polls until none of `pids` is alive; the ones left after `timeoutMs`. */
async function survivors(pids: number[], timeoutMs = 20_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return pids.filter(alive);
}

/** The UI started with a stubborn agent that never finishes starting; its pids once known. */
async function startingAgent(): Promise<{ h: TuiHarness; ui: number; agent: number; grandchild: number }> {
  const dirs = tmux.keep(makeDirs());
  const pidFile = join(dirs.root, 'agent-pids.json');
  const options = JSON.stringify({ stubborn: true, hangInit: true, pidFile });
  const h = tmux.launch({ args: ['--', process.execPath, FAKE_AGENT, options] });
  await h.waitFor('Starting fake-agent.mjs');
  let pids: { agent: number; grandchild: number } | undefined;
  const deadline = Date.now() + 20_000;
  while (!pids && Date.now() < deadline) {
    try {
      pids = JSON.parse(readFileSync(pidFile, 'utf8')) as { agent: number; grandchild: number };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  if (!pids) throw new Error('the agent did not start');
  return { h, ui: Number(h.pane('#{pane_pid}')), ...pids };
}

describe('stopping the UI while its agent starts', () => {
  it('closing the terminal (the pane is killed: SIGHUP) leaves neither acp nor the agent running', async () => {
    const { h, ui, agent, grandchild } = await startingAgent();
    expect([ui, agent, grandchild].every(alive)).toBe(true);
    h.tmux('kill-pane', '-t', 'main');
    expect(await survivors([ui, agent, grandchild])).toEqual([]);
  }, 60_000);

  it('SIGTERM: exit 143, nothing left', async () => {
    const { h, ui, agent, grandchild } = await startingAgent();
    process.kill(ui, 'SIGTERM');
    expect(await h.exitStatus(20_000)).toBe(143);
    expect(await survivors([agent, grandchild])).toEqual([]);
  }, 60_000);

  it('a quick double Ctrl+C quits at once instead of waiting for the start, a third hurries it', async () => {
    const { h, agent, grandchild } = await startingAgent();
    h.press('C-c', 'C-c');
    await h.waitFor('Quitting: stopping the agents');
    h.press('C-c');
    expect(await h.exitStatus(10_000)).toBe(0);
    expect(await survivors([agent, grandchild], 5000)).toEqual([]);
  }, 60_000);
});
