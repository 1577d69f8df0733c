/**
 * C. Process chaos: our client engine spawning the scripted hostile agent, which is killed, exits,
 * closes its pipes, prints noise, floods stderr, crashes and is restarted, or cannot start.
 * Timeouts, orphans after signals and the shutdown sequence are in c-shutdown.test.ts.
 */
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClientError, type PermissionAsk } from '@acp-kit/client';
import { afterAll, describe, expect, it } from 'vitest';
import { canaryFigure, CanaryWatch } from './support/canary.js';
import { atMost, figure, holds, mib, percentile, zero } from './support/figures.js';
import {
  Collected,
  countOrphans,
  exitOf,
  isAlive,
  makeHome,
  orphanToken,
  PeakMemory,
  pollUntil,
  processesWith,
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
import { COUNTS, seedOf, timeoutMs } from './support/size.js';
import { agentText, recordedEvents, sequenceDefects, sequenceOf } from './support/transcript.js';
import { rng } from './fixtures/fuzz-frames.mjs';

const watch = new CanaryWatch();
afterAll(() => {
  expect(canaryFigure(watch, 'c-chaos')).toEqual([]);
});

/**
 * A host (mode `ask`) that allows what the agent does itself (terminals, writes) but leaves its
 * `session/request_permission` questions open until their signal aborts: a dialog left on screen.
 */
function openDialogHost() {
  const asks: PermissionAsk[] = [];
  return {
    asks,
    host: {
      askPermission: (ask: PermissionAsk) => {
        if (!ask.toolCall) return Promise.resolve({ decision: 'allow' as const });
        return new Promise<never>((_, reject) => {
          asks.push(ask);
          ask.signal.addEventListener('abort', () => reject(new Error('closed')));
        });
      },
    },
  };
}

const ALLOW_REJECT = [
  { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
  { optionId: 'no', name: 'No', kind: 'reject_once' },
];

/** Steps that open a terminal, a tool call and a permission question, then stream numbered updates. */
function busyTurn(token: string, updates = 1_000_000): unknown[] {
  return [
    {
      request: 'terminal/create',
      params: { command: process.execPath, args: ['-e', 'setInterval(()=>{},1e6)', token, 'terminal'] },
    },
    {
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 'work',
        title: 'work',
        kind: 'execute',
        status: 'in_progress',
      },
    },
    {
      request: 'session/request_permission',
      params: { toolCall: { toolCallId: 'ask', title: 'may I' }, options: ALLOW_REJECT },
      await: false,
    },
    { flood: { count: updates, bytes: 200 } },
  ];
}

describe('C1 SIGKILL the agent mid-turn', () => {
  it(
    `${COUNTS.killTrials} trials at a random delay of 0–500 ms: prompt rejected, nothing lost, dialogs closed, terminals killed`,
    async () => {
      const seed = seedOf(1001);
      const random = rng(seed);
      const latencies: number[] = [];
      let hangs = 0;
      let lost = 0;
      let received = 0;
      let orphans = 0;
      const wrong: string[] = [];
      for (let trial = 0; trial < COUNTS.killTrials; trial++) {
        const token = orphanToken();
        const { host, asks } = openDialogHost();
        const battery = await batteryClient({ watch, host, mode: 'ask' });
        try {
          const agent = await battery.client.connect(relayEntry({ token }));
          const session = await agent.newSession({ cwd: battery.home.work });
          const outcome = session.prompt(script(busyTurn(token))).then(
            () => undefined,
            (e: unknown) => e as Error,
          );
          await pollUntil(
            () => sequenceOf(agentText(session.state)).length > 0 && asks.length > 0,
            'the turn is streaming',
            15_000,
          );
          // The agent and its terminal are running (so "terminals killed" is checked for real).
          const running = processesWith(token).length;
          await new Promise((done) => setTimeout(done, Math.floor(random() * 500)));
          const killedAt = performance.now();
          process.kill(agent.pid as number, 'SIGKILL');
          const error = await within(outcome, 10_000, 'the prompt settling after SIGKILL').catch(() => {
            hangs++;
            return undefined;
          });
          latencies.push(performance.now() - killedAt);
          watch.seeError('C1 prompt error', error);
          const state = session.state;
          const inStore = sequenceOf(agentText(state));
          await session.close();
          const onDisk = sequenceOf(JSON.stringify(recordedEvents(battery.home.data, session.localId)));
          received += inStore.length;
          lost +=
            sequenceDefects(inStore) +
            Math.max(0, inStore.length - new Set(onDisk).size) +
            sequenceDefects(onDisk);
          const tool = state.items.find((i) => i.kind === 'tool_call' && i.toolCallId === 'work');
          const toolClosed =
            tool?.kind === 'tool_call' &&
            (tool.clientStatus === 'failed' || tool.clientStatus === 'cancelled');
          const problems = [
            running < 2 && `only ${running} of the agent and its terminal were running`,
            !(error instanceof ClientError && error.code === 'AGENT_EXITED') && `error ${String(error)}`,
            !/SIGKILL/.test(error?.message ?? '') && 'message does not name SIGKILL',
            state.pendingPermissions.length > 0 && 'a permission question is still pending',
            !asks.every((a) => a.signal.aborted) && 'a permission dialog was not closed',
            !toolClosed && 'the open tool call was not marked failed or cancelled',
          ].filter((p): p is string => typeof p === 'string');
          if (problems.length > 0) wrong.push(`trial ${trial}: ${problems.join('; ')}`);
        } finally {
          await battery.close();
          orphans += await countOrphans(token);
        }
      }
      const p50 = Math.round(percentile(latencies, 50));
      const p99 = Math.round(percentile(latencies, 99));
      figure({
        case: 'C1',
        name: `kill→error surfaced p50 (${COUNTS.killTrials} trials)`,
        value: p50,
        unit: 'ms',
        target: '≤ 100 ms',
        pass: p50 <= 100,
        seed,
      });
      figure({
        case: 'C1',
        name: `kill→error surfaced p99 (${COUNTS.killTrials} trials)`,
        value: p99,
        unit: 'ms',
        target: '≤ 500 ms',
        pass: p99 <= 500,
        seed,
      });
      zero({ case: 'C1', name: 'hangs', seed }, hangs);
      zero({ case: 'C1', name: `updates lost or out of order (of ${received} received)`, seed }, lost);
      zero({ case: 'C1', name: 'orphan processes (agent, terminals)', seed }, orphans);
      zero(
        { case: 'C1', name: 'trials with a wrong error, open dialog or open tool call', seed },
        wrong.length,
      );
      expect(hangs).toBe(0);
      expect(lost).toBe(0);
      expect(orphans).toBe(0);
      expect(wrong, `seed ${seed}`).toEqual([]);
      expect(p50).toBeLessThanOrEqual(100);
      expect(p99).toBeLessThanOrEqual(500);
    },
    timeoutMs(180_000, 900_000),
  );
});

describe('C2 the agent exits with a code mid-turn', () => {
  it('exit(3) mid-turn, during a permission question, during a write: the exit code is shown, no half-written file', async () => {
    const problems: string[] = [];
    const big = 'w'.repeat(8 * 1024 * 1024);
    const cases = [
      { name: 'mid-turn', steps: [{ flood: { count: 50, bytes: 200 } }, { exit: 3 }] },
      {
        name: 'during request_permission',
        steps: [
          {
            request: 'session/request_permission',
            params: { toolCall: { toolCallId: 'p', title: 'may I' }, options: ALLOW_REJECT },
            await: false,
          },
          { sleep: 100 },
          { exit: 3 },
        ],
      },
      {
        name: 'during fs/write_text_file',
        steps: [
          { request: 'fs/write_text_file', params: { path: '@WORK@/big.txt', content: big }, await: false },
          { exit: 3 },
        ],
      },
    ];
    for (const c of cases) {
      const { host, asks } = openDialogHost();
      const battery = await batteryClient({ watch, host, mode: 'ask' });
      try {
        const agent = await battery.client.connect(relayEntry());
        const session = await agent.newSession({ cwd: battery.home.work });
        const steps = JSON.parse(JSON.stringify(c.steps).replace('@WORK@', battery.home.work)) as unknown[];
        const error = await within(
          session.prompt(script(steps)).then(
            () => undefined,
            (e: unknown) => e as Error,
          ),
          15_000,
          `prompt (${c.name})`,
        );
        watch.seeError('C2 prompt error', error);
        if (!/code 3\b/.test(error?.message ?? ''))
          problems.push(`${c.name}: message "${error?.message}" does not show code 3`);
        if (session.state.pendingPermissions.length > 0 || !asks.every((a) => a.signal.aborted))
          problems.push(`${c.name}: a permission dialog stayed open`);
        const files = readdirSync(battery.home.work);
        const leftovers = files.filter((f) => f !== 'big.txt');
        if (leftovers.length > 0) problems.push(`${c.name}: leftover files ${leftovers.join(', ')}`);
        if (files.includes('big.txt')) {
          const content = readFileSync(join(battery.home.work, 'big.txt'), 'utf8');
          if (content !== big)
            problems.push(`${c.name}: big.txt is half-written (${content.length} of ${big.length} bytes)`);
        }
        await session.close();
      } finally {
        await battery.close();
      }
    }
    zero(
      { case: 'C2', name: 'exit(3) cases with a missing exit code, open dialog or half-written file' },
      problems.length,
    );
    expect(problems).toEqual([]);
  }, 60_000);
});

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
