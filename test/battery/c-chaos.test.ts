/**
 * C1, C2. Process chaos mid-turn: the scripted agent is SIGKILLed at a random moment (100 trials at
 * full size) or exits with a code while a question, a write or a stream is open. C3–C11 are in
 * c-pipes.test.ts; timeouts, orphans after signals and shutdown timing in c-shutdown.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClientError, type PermissionAsk } from '@acp-kit/client';
import { describe, expect, it } from 'vitest';
import { fileWatch } from './support/canary.js';
import { figure, percentile, zero } from './support/figures.js';
import { countOrphans, orphanToken, pollUntil, processesWith, within } from './support/procs.js';
import { ALLOW_REJECT, batteryClient, relayEntry, script } from './support/relay.js';
import { COUNTS, seedOf, timeoutMs } from './support/size.js';
import { agentText, recordedEvents, sequenceDefects, sequenceOf } from './support/transcript.js';
import { rng } from './fixtures/fuzz-frames.mjs';

const watch = fileWatch('c-chaos');

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
