/**
 * Permission questions an agent can abuse (battery H1, H4): ambiguous and endless option lists,
 * floods of concurrent requests, and questions it does not wait for.
 */
import type { PermissionOption } from '@acp-kit/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentConnection } from '../agent/agent-connection.js';
import type { ClientHost, PermissionAnswer, PermissionAsk } from '../agent/host.js';
import { MAX_PERMISSION_OPTIONS, normalizeOptions } from '../permissions/options.js';
import { PermissionPolicy } from '../permissions/policy.js';
import { fakeAgent, reportedResults, script, tempDir, waitForState } from '../test-support/harness.js';
import type { TraceFrame } from '../persistence/trace.js';
import { MAX_WAITING_QUESTIONS } from './question-queue.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(host: ClientHost) {
  const { cleanup } = await tempDir();
  cleanups.push(cleanup);
  const connection = await AgentConnection.start({
    agent: fakeAgent(),
    policy: new PermissionPolicy({ mode: 'ask' }),
    host,
  });
  cleanups.push(() => connection.close(200));
  const diagnostics: string[] = [];
  connection.events.on('diagnostic', ({ message }) => diagnostics.push(message));
  return { connection, diagnostics };
}

type Option = PermissionOption;
const ask = (id: string, options: Option[]) => ({
  request: 'session/request_permission',
  params: { toolCall: { toolCallId: id, kind: 'execute', title: 'rm -rf build' }, options },
});
const outcomes = (state: Parameters<typeof reportedResults>[0]) =>
  (reportedResults(state) as { result: { outcome: unknown } }[]).map((r) => r.result.outcome);

describe('option lists', () => {
  const shared: Option[] = [
    { optionId: 'x', name: 'Allow', kind: 'allow_once' },
    { optionId: 'x', name: 'Reject', kind: 'reject_once' },
  ];

  it('never answers a deny with an id that also names an allow option', async () => {
    const seen: PermissionAsk[] = [];
    const { connection, diagnostics } = await start({
      askPermission: async (question) => {
        seen.push(question);
        return { decision: 'deny', optionId: 'x' };
      },
    });
    const session = await connection.newSession({ cwd: process.cwd() });
    const withRejectOnly: Option[] = [...shared, { optionId: 'no', name: 'No', kind: 'reject_once' }];
    await session.prompt(script([ask('a', shared), ask('b', withRejectOnly)]));
    expect(outcomes(session.state)).toEqual([
      { outcome: 'cancelled' },
      { outcome: 'selected', optionId: 'no' },
    ]);
    expect(seen.map((q) => q.options?.map((o) => o.optionId))).toEqual([[], ['no']]);
    expect(diagnostics.some((d) => d.includes('option id for options that mean different things'))).toBe(
      true,
    );
  });

  it('cannot allow through an ambiguous id either', async () => {
    const { connection } = await start({ askPermission: async () => ({ decision: 'allow', optionId: 'x' }) });
    const session = await connection.newSession({ cwd: process.cwd() });
    await session.prompt(script([ask('a', shared)]));
    expect(outcomes(session.state)).toEqual([{ outcome: 'cancelled' }]);
    const item = session.state.items.find((i) => i.kind === 'permission');
    expect(item).toMatchObject({ decision: 'deny' });
  });

  it('keeps a bounded list, with a reject option among them', async () => {
    const many: Option[] = Array.from({ length: 1000 }, (_, i) => ({
      optionId: `allow-${i}`,
      name: `Allow ${i}`,
      kind: 'allow_once',
    }));
    many.push({ optionId: 'reject-last', name: 'Reject', kind: 'reject_once' });
    const kept = normalizeOptions(many);
    expect(kept.options).toHaveLength(MAX_PERMISSION_OPTIONS);
    expect(kept.options.at(-1)?.optionId).toBe('reject-last');
    expect(kept.problems).toEqual([`the agent offered 1001 permission options; kept the first 64`]);
    expect(normalizeOptions([...shared.slice(0, 1), ...shared.slice(0, 1)])).toEqual({
      options: shared.slice(0, 1),
      problems: ['the agent offered the same permission option id twice; kept the first'],
    });

    const seen: PermissionAsk[] = [];
    const { connection } = await start({
      askPermission: async (question) => {
        seen.push(question);
        return { decision: 'deny' };
      },
    });
    const session = await connection.newSession({ cwd: process.cwd() });
    await session.prompt(script([ask('a', many)]));
    expect(seen[0]?.options).toHaveLength(MAX_PERMISSION_OPTIONS);
    expect(outcomes(session.state)).toEqual([{ outcome: 'selected', optionId: 'reject-last' }]);
  });
});

describe('many questions at once', () => {
  it('asks the host one at a time, queues a bounded number, answers the rest cancelled; cancel clears all', async () => {
    let open = 0;
    let mostOpen = 0;
    const asked: PermissionAsk[] = [];
    const { connection, diagnostics } = await start({
      askPermission: (question) => {
        asked.push(question);
        mostOpen = Math.max(mostOpen, ++open);
        // Held until withdrawn: the test decides when the flood is over.
        return new Promise<PermissionAnswer>((resolve) =>
          question.signal.addEventListener('abort', () => {
            open--;
            resolve({ decision: 'allow' });
          }),
        );
      },
    });
    const session = await connection.newSession({ cwd: process.cwd() });
    const count = 1000;
    const queued = MAX_WAITING_QUESTIONS + 1;
    // The flood is over when every request is either waiting or answered at once.
    let cancelledAtOnce = 0;
    let settle: () => void = () => undefined;
    const flooded = new Promise<void>((resolve) => (settle = resolve));
    const check = (): void => {
      if (session.state.pendingPermissions.length === queued && cancelledAtOnce === count - queued) settle();
    };
    session.store.subscribe(check);
    session.onFrame((frame: TraceFrame) => {
      const result = (frame.frame as { result?: { outcome?: { outcome?: string } } }).result;
      if (frame.dir === 'out' && result?.outcome?.outcome === 'cancelled') cancelledAtOnce++;
      check();
    });
    const turn = session.prompt(
      script([
        {
          parallel: {
            count,
            request: 'session/request_permission',
            params: ask('t', [{ optionId: 'ok', name: 'OK', kind: 'allow_once' }]).params,
          },
        },
        { waitForCancel: true },
      ]),
    );
    await flooded;
    expect(asked).toHaveLength(1);
    expect(diagnostics.filter((d) => d.includes('permission questions were waiting'))).toHaveLength(1);
    await session.cancel();
    expect((await turn).stopReason).toBe('cancelled');
    const [results] = reportedResults(session.state) as { result: { outcome: unknown } }[][];
    expect(results).toHaveLength(count);
    expect(new Set(results?.map((r) => JSON.stringify(r.result.outcome)))).toEqual(
      new Set([JSON.stringify({ outcome: 'cancelled' })]),
    );
    expect(asked).toHaveLength(1);
    expect(mostOpen).toBe(1);
    expect(session.state.pendingPermissions).toEqual([]);
  }, 15_000);
});

describe('a question the agent does not wait for', () => {
  it('is withdrawn when its turn ends: answered cancelled, the host told', async () => {
    const asked: PermissionAsk[] = [];
    const { connection } = await start({
      askPermission: (question) => {
        asked.push(question);
        return new Promise<PermissionAnswer>(() => undefined);
      },
    });
    const session = await connection.newSession({ cwd: process.cwd() });
    const { params } = ask('late', [{ optionId: 'ok', name: 'OK', kind: 'allow_once' }]);
    // The agent ends its turn without waiting for the answer.
    const { stopReason } = await session.prompt(
      script([{ detached: 'session/request_permission', params }, { text: 'asked' }]),
    );
    expect(stopReason).toBe('end_turn');
    const state = await waitForState(session.store, (s) =>
      s.items.some((i) => i.kind === 'message' && JSON.stringify(i.content).includes('LATE')),
    );
    expect(JSON.stringify(state.items)).toContain(
      JSON.stringify(`LATE ${JSON.stringify({ result: { outcome: { outcome: 'cancelled' } } })}\n`),
    );
    expect(state.pendingPermissions).toEqual([]);
    expect(asked.length).toBeLessThanOrEqual(1);
    expect(asked.every((question) => question.signal.aborted)).toBe(true);
    const item = state.items.find((i) => i.kind === 'permission');
    expect(item).toMatchObject({ decision: 'cancelled', reason: 'the turn ended before it was answered' });
  }, 10_000);
});
