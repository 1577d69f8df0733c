/**
 * C3, C4, C6, C9, C10, C11. The agent closes one of its pipes, prints noise, crashes and is
 * restarted, floods stderr, or cannot start at all.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClientError } from '@acp-kit/client';
import { describe, expect, it } from 'vitest';
import { fileWatch } from './support/canary.js';
import { atMost, figure, holds, mib, zero } from './support/figures.js';
import {
  Collected,
  exitOf,
  isAlive,
  makeHome,
  PeakMemory,
  pollUntil,
  spawnAcp,
  within,
} from './support/procs.js';
import {
  batteryClient,
  readStatus,
  relayCommand,
  relayEntry,
  script,
  statusFile,
  waitForStatus,
} from './support/relay.js';
import { COUNTS, timeoutMs } from './support/size.js';

const watch = fileWatch('c-pipes');

describe('C3/C4 the agent closes one of its pipes but keeps running', () => {
  it('C3 closes its stdin; we write 1 MiB: the pending request fails (no EPIPE), the agent is terminated', async () => {
    const battery = await batteryClient({ watch });
    const status = statusFile(battery.home);
    try {
      const agent = await battery.client.connect(relayEntry({ status, afterNew: [{ closeStdin: true }] }));
      const session = await agent.newSession({ cwd: battery.home.work });
      await waitForStatus(status, (r) => r.event === 'stdin-closed');
      const pid = agent.pid as number;
      const error = await within(
        session.prompt('x'.repeat(1024 * 1024)).then(
          () => undefined,
          (e: unknown) => e as Error,
        ),
        10_000,
        'the 1 MiB prompt failing',
      );
      watch.seeError('C3 prompt error', error);
      const gone = await pollUntil(() => !isAlive(pid), 'the agent terminated by the client', 5_000).then(
        () => true,
        () => false,
      );
      holds(
        { case: 'C3', name: 'stdin closed: request rejected without EPIPE, agent terminated' },
        error instanceof Error && !/EPIPE/.test(error.message) && gone,
      );
      expect(error).toBeInstanceOf(Error);
      expect(error?.message).not.toMatch(/EPIPE/);
      expect(gone).toBe(true);
    } finally {
      await battery.close();
    }
  }, 60_000);

  it('C4 closes its stdout: treated as dead — the turn fails and the agent is terminated', async () => {
    const battery = await batteryClient({ watch });
    const status = statusFile(battery.home);
    try {
      const agent = await battery.client.connect(relayEntry({ status }));
      const session = await agent.newSession({ cwd: battery.home.work });
      const pid = agent.pid as number;
      const exited = new Promise<number>((resolve) => agent.events.on('exit', () => resolve(Date.now())));
      const error = await within(
        session.prompt(script([{ closeStdout: true }, { hang: true }])).then(
          () => undefined,
          (e: unknown) => e as Error,
        ),
        10_000,
        'the prompt failing after stdout closed',
      );
      const closedAt = (await waitForStatus(status, (r) => r.event === 'stdout-closed')).t;
      const detectMs = (await within(exited, 10_000, 'the exit event')) - closedAt;
      const gone = await pollUntil(() => !isAlive(pid), 'the agent terminated by the client', 5_000).then(
        () => true,
        () => false,
      );
      figure({ case: 'C4', name: 'stdout closed: ms to detect', value: detectMs, unit: 'ms' });
      holds(
        { case: 'C4', name: 'stdout closed: turn failed, agent terminated' },
        error instanceof Error && gone,
      );
      expect(error).toBeInstanceOf(Error);
      expect(gone).toBe(true);
    } finally {
      await battery.close();
    }
  }, 60_000);
});

describe('C6 non-JSON noise on stdout', () => {
  it('banner lines before and log lines between frames: tolerated, reported once', async () => {
    const battery = await batteryClient({ watch });
    try {
      const agent = await battery.client.connect(relayEntry({ noiseBefore: 3, noiseBetween: 50 }));
      const noise: string[] = [];
      agent.events.on('noise', ({ sample }) => noise.push(sample));
      const session = await agent.newSession({ cwd: battery.home.work });
      const turn = await session.prompt('hello');
      const ok = turn.stopReason === 'end_turn' && agent.noiseReport.count === 53 && noise.length <= 1;
      holds({ case: 'C6', name: '53 noise lines: session works, counted, reported once' }, ok);
      expect(turn.stopReason).toBe('end_turn');
      expect(agent.noiseReport.count).toBe(53);
      expect(noise.length).toBeLessThanOrEqual(1);
    } finally {
      await battery.close();
    }
  });
});

describe('C9 crash, then a new session', () => {
  it('never the dead connection: a clear error, then a fresh process, within a restart budget', async () => {
    const battery = await batteryClient({ watch });
    try {
      const agent = await battery.client.connect(relayEntry());
      const first = agent.pid;
      const session = await agent.newSession({ cwd: battery.home.work });
      await session.prompt(script([{ exit: 1 }])).catch(() => undefined);
      const refused = await within(
        agent.newSession({ cwd: battery.home.work }).then(
          () => undefined,
          (e: unknown) => e as Error,
        ),
        5_000,
        'newSession on the crashed agent',
      );
      watch.seeError('C9 error', refused);
      const again = await battery.client.connect(relayEntry());
      const fresh = again.pid !== first && (await again.newSession({ cwd: battery.home.work })) !== undefined;
      let restarts = 0;
      let stopped: Error | undefined;
      for (let i = 0; i < 10 && !stopped; i++) {
        await again.restart().then(
          () => restarts++,
          (e: unknown) => (stopped = e as Error),
        );
      }
      const budget = stopped instanceof ClientError && stopped.code === 'RESTART_BUDGET_EXHAUSTED';
      figure({
        case: 'C9',
        name: 'restarts allowed before the budget stops them',
        value: restarts,
        target: '≤ 4 in the window',
        pass: restarts <= 4 && budget,
      });
      holds(
        { case: 'C9', name: 'crashed connection refuses new sessions; a new connect spawns a fresh process' },
        refused instanceof Error && fresh,
      );
      expect(refused).toBeInstanceOf(Error);
      expect(fresh).toBe(true);
      expect(budget).toBe(true);
      expect(restarts).toBeLessThanOrEqual(4);
    } finally {
      await battery.close();
    }
  }, 60_000);
});

describe('C10 the agent floods stderr', () => {
  it(
    `${mib(COUNTS.stderrBytes)} MiB on stderr: drained (the agent never blocks), a bounded sanitised tail kept`,
    async () => {
      const home = makeHome('c10');
      const status = statusFile(home);
      const steps = [
        { waitSignal: 'SIGUSR2' },
        { stderr: { bytes: COUNTS.stderrBytes, escapes: true } },
        { text: 'still here' },
        { exit: 1 },
      ];
      const child = spawnAcp(['run', script(steps), '--', ...relayCommand({ status })], {
        cwd: home.work,
        env: home.env,
      });
      const stdout = new Collected(child.stdout);
      const stderr = new Collected(child.stderr);
      try {
        const waiting = await waitForStatus(status, (r) => r.event === 'waiting-for-signal', 60_000);
        const memory = new PeakMemory(child.pid as number);
        process.kill(waiting.pid, 'SIGUSR2');
        const exit = await exitOf(child, timeoutMs(60_000, 600_000));
        memory.stop();
        const tail = stderr.text.slice(stderr.text.indexOf('--- last stderr ---'));
        const kept = Buffer.byteLength(tail);
        const raw = /[\x1b\x07\u202e]/.exec(stderr.text); // eslint-disable-line no-control-regex
        atMost(
          { case: 'C10', name: 'acp run peak RSS over idle while the agent floods stderr', unit: 'MiB' },
          mib(memory.delta),
          64,
        );
        atMost({ case: 'C10', name: 'stderr tail kept and shown', unit: 'bytes' }, kept, 64 * 1024);
        holds(
          { case: 'C10', name: 'the agent was never blocked; the tail is sanitised and ends at the end' },
          stdout.text.includes('still here') && !raw && tail.includes('STDERR-END-MARKER'),
        );
        expect(exit.code).toBe(7);
        expect(stdout.text).toContain('still here');
        expect(tail).toContain('STDERR-END-MARKER');
        expect(kept).toBeLessThanOrEqual(64 * 1024);
        expect(memory.delta).toBeLessThanOrEqual(64 * 1024 * 1024);
        expect(raw?.[0], 'a raw control or bidi character in the tail').toBeUndefined();
      } finally {
        child.kill('SIGKILL');
        for (const r of readStatus(status)) if (isAlive(r.pid)) process.kill(r.pid, 'SIGKILL');
        home.cleanup();
      }
    },
    timeoutMs(120_000, 900_000),
  );
});

describe('C11 agents that cannot start', () => {
  it('exits at once, missing binary, not executable: a clear error quickly, never a hang', async () => {
    const battery = await batteryClient({ watch });
    const notExecutable = join(battery.home.root, 'agent-without-x-bit');
    writeFileSync(notExecutable, '#!/bin/sh\nexit 0\n');
    chmodSync(notExecutable, 0o644);
    const cases = [
      {
        name: 'exits with code 0 at once',
        entry: { ...relayEntry(), args: ['-e', 'process.exit(0)'] },
        message: /exit|start/i,
      },
      {
        name: 'binary missing (ENOENT)',
        entry: { ...relayEntry(), command: '/nonexistent/battery-agent' },
        message: /not found|not installed|no such/i,
      },
      {
        name: 'not executable',
        entry: { ...relayEntry(), command: notExecutable },
        message: /permission|executable/i,
      },
    ];
    const problems: string[] = [];
    try {
      for (const c of cases) {
        const started = performance.now();
        const error = await within(
          battery.client.connect(c.entry).then(
            () => undefined,
            (e: unknown) => e as Error,
          ),
          10_000,
          c.name,
        );
        const ms = Math.round(performance.now() - started);
        figure({
          case: 'C11',
          name: `${c.name}: ms to error`,
          value: ms,
          unit: 'ms',
          target: '≤ 5,000 ms',
          pass: ms <= 5000 && error !== undefined,
        });
        watch.seeError('C11 error', error);
        if (!error) problems.push(`${c.name}: connected`);
        else if (!c.message.test(error.message))
          problems.push(`${c.name}: unclear message "${error.message}"`);
      }
      zero({ case: 'C11', name: 'unclear or missing start errors' }, problems.length);
      expect(problems).toEqual([]);
    } finally {
      await battery.close();
    }
  }, 60_000);
});
