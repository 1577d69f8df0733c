/**
 * `acp run` as a real process, stopped by each signal at the worst moments, against an agent that
 * ignores the end of its stdin, SIGTERM, SIGINT and SIGHUP and starts a grandchild, while a
 * command it asked for runs in a client-side terminal. Afterwards nothing may survive (counted by
 * pid), and the exit code is the conventional one.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processGone } from '../../client/src/test-support/harness.js';
import { fakeCommand, jsonLines, spawnCli, testHome, type TestHome } from './test-support/cli-harness.js';

let home: TestHome;
beforeEach(async () => {
  home = await testHome();
});
afterEach(async () => {
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone, as it should be.
    }
  }
  started.length = 0;
  await home.cleanup();
});

const started: number[] = [];

/** Still running (a zombie waiting to be reaped counts as gone). */
const alive = (pid: number): boolean => !processGone(pid);

async function pidsIn(file: string): Promise<number[]> {
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text.trim() !== '') {
      const pids = text.trim().startsWith('{')
        ? Object.values(JSON.parse(text) as Record<string, number>)
        : [Number(text.trim())];
      started.push(...pids);
      return pids;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Starts `acp run` with a stubborn agent; resolves with the process and how it ended. */
function run(args: string[], agentOptions: Record<string, unknown>, stdin: 'ignore' | 'pipe' = 'ignore') {
  const child = spawnCli([...args, '--', ...fakeCommand({ stubborn: true, ...agentOptions })], home, stdin);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>(
    (resolve) => {
      let since = 0;
      child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - since }));
      Object.defineProperty(child, 'markSignal', { value: () => (since = Date.now()) });
    },
  );
  const signal = (name: NodeJS.Signals): void => {
    (child as unknown as { markSignal(): void }).markSignal();
    child.kill(name);
  };
  return { child, exited, signal, output: () => stdout, errors: () => stderr };
}

/** A turn that starts a terminal command (which records its pid) and then hangs, ignoring cancel. */
function busyTurn(terminalPidFile: string): string {
  return JSON.stringify([
    {
      terminalStart: {
        command: 'sh',
        args: ['-c', `echo $$ > ${terminalPidFile}; exec sleep 1000`],
      },
    },
    { text: 'working' },
    { hang: true },
  ]);
}

async function waitFor(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A run in the middle of {@link busyTurn}, with the pids of the agent, its grandchild and the terminal. */
async function busyRun(args: string[]) {
  const agentPids = join(home.dir, 'agent.json');
  const terminalPid = join(home.dir, 'terminal.pid');
  const r = run(['run', '--approve', 'all', ...args, busyTurn(terminalPid)], { pidFile: agentPids });
  const pids = [...(await pidsIn(agentPids)), ...(await pidsIn(terminalPid))];
  await waitFor(() => r.output().includes('working'));
  return { ...r, pids };
}

describe('acp run stopped by a signal leaves nothing behind', () => {
  it('SIGTERM mid-turn: cancel, close, shutdown sequence to SIGKILL; exit 143', async () => {
    const { pids, ...r } = await busyRun(['--format', 'json']);
    expect(pids.every(alive)).toBe(true);
    r.signal('SIGTERM');
    const { code, stdout, ms } = await r.exited;
    expect(code).toBe(143);
    expect(jsonLines(stdout).at(-1)).toMatchObject({ type: 'result', exitCode: 143 });
    expect(pids.filter(alive)).toEqual([]);
    console.info(`SIGTERM with a stubborn agent: exited after ${ms} ms`);
  });

  it('a second signal escalates: no more waiting, still no survivors, the transcript is kept', async () => {
    const { pids, ...r } = await busyRun(['--format', 'json']);
    r.signal('SIGTERM');
    // Signals of one kind do not queue: wait until the first one was seen.
    await waitFor(() => r.output().includes('SIGTERM: stopping the agent'));
    r.signal('SIGTERM');
    const { code, stdout, ms } = await r.exited;
    expect(code).toBe(143);
    expect(jsonLines(stdout).some((line) => line.message === 'stopping now: killing the agent')).toBe(true);
    expect(pids.filter(alive)).toEqual([]);
    const localId = String(jsonLines(stdout)[0]?.localId);
    const events = await readFile(
      join(home.env.ACP_KIT_DATA_DIR as string, 'client', 'sessions', localId, 'events.jsonl'),
      'utf8',
    );
    expect(events).toContain('working');
    console.info(`SIGTERM twice: exited after ${ms} ms`);
  });

  it('SIGHUP while the agent is still starting: exit 129, agent and grandchild gone', async () => {
    const agentPids = join(home.dir, 'agent.json');
    const r = run(['run', 'hello'], { pidFile: agentPids, hangInit: true });
    const pids = await pidsIn(agentPids);
    r.signal('SIGHUP');
    const { code, stderr } = await r.exited;
    expect(code).toBe(129);
    expect(stderr).toContain('SIGHUP: stopping the agent');
    expect(stderr).not.toContain('error:');
    expect(pids.filter(alive)).toEqual([]);
  });

  it('SIGINT: the first cancels the turn, the second stops everything; exit 130', async () => {
    const { pids, ...r } = await busyRun([]);
    r.signal('SIGINT');
    // Signals of one kind do not queue: wait until the first one was seen.
    await waitFor(() => r.errors().includes('cancelling the turn'));
    r.signal('SIGINT');
    const { code } = await r.exited;
    expect(code).toBe(130);
    expect(pids.filter(alive)).toEqual([]);
  });

  it('a reader that goes away (broken stdout) stops the run like a signal: exit 141', async () => {
    const agentPids = join(home.dir, 'agent.json');
    const steps = JSON.stringify([{ text: 'first ' }, { flood: 200_000 }, { hang: true }]);
    const r = run(['run', steps], { pidFile: agentPids });
    const pids = await pidsIn(agentPids);
    await waitFor(() => r.output().includes('first'));
    r.child.stdout.destroy();
    const { code } = await r.exited;
    expect(code).toBe(141);
    expect(pids.filter(alive)).toEqual([]);
  });
});

describe('acp on a dumb terminal (line mode) takes the same shutdown path', () => {
  it('SIGTERM mid-turn: the agent, its grandchild and the terminal are gone; exit 143', async () => {
    home.env.TERM = 'dumb';
    const agentPids = join(home.dir, 'agent.json');
    const terminalPid = join(home.dir, 'terminal.pid');
    const r = run([], { pidFile: agentPids }, 'pipe');
    r.child.stdin?.write(`${busyTurn(terminalPid)}\n`);
    // The client's own policy asks before the terminal starts: allow it.
    await waitFor(() => r.errors().includes('answer 1-'));
    r.child.stdin?.write('y\n');
    const pids = [...(await pidsIn(agentPids)), ...(await pidsIn(terminalPid))];
    await waitFor(() => r.output().includes('working'));
    r.signal('SIGTERM');
    const { code, stderr } = await r.exited;
    expect(code).toBe(143);
    expect(stderr).toContain('SIGTERM: stopping the agent');
    expect(pids.filter(alive)).toEqual([]);
  });
});
