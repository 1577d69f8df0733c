/**
 * E. Cancellation races through the client engine and the scripted agent: cancel during a
 * permission question (E1), cancels that come too late, twice, or for nothing (E2),
 * `$/cancel_request` for ids that do not exist (E3), seeded random interleavings of prompt,
 * updates, permission questions, cancel and agent exit checked against invariants (E4), and a
 * cancel followed by the agent's death (E5).
 */
import fc from 'fast-check';
import type { AgentConnection, PermissionAnswer, PermissionAsk } from '@acp-kit/client';
import { afterAll, describe, expect, it } from 'vitest';
import { canaryFigure, CanaryWatch } from './support/canary.js';
import { eventually } from './support/channel.js';
import { figure, holds, zero } from './support/figures.js';
import { demoAgentReader } from './support/readers.js';
import {
  batteryClient,
  relayEntry,
  relayScript,
  script,
  statusFile,
  waitForStatus,
} from './support/relay.js';
import { COUNTS, seedOf, timeoutMs } from './support/size.js';
import { agentText } from './support/transcript.js';
import { within } from './support/procs.js';

const watch = new CanaryWatch();
afterAll(() => {
  expect(canaryFigure(watch, 'e-cancel')).toEqual([]);
});

const OPTIONS = [
  { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
  { optionId: 'no', name: 'No', kind: 'reject_once' },
];
const ask = (toolCallId: string, label: string) => ({
  request: 'session/request_permission',
  params: { toolCall: { toolCallId, title: `may I (${toolCallId})` }, options: OPTIONS },
  label,
});

/** A host that never answers on its own: questions wait for their signal (or for `answer`). */
function pendingHost() {
  const asks: PermissionAsk[] = [];
  return {
    asks,
    host: {
      askPermission: (a: PermissionAsk) =>
        new Promise<PermissionAnswer>((_, reject) => {
          asks.push(a);
          a.signal.addEventListener('abort', () => reject(new Error('withdrawn')));
        }),
    },
  };
}

describe('E1 session/cancel while a permission question is pending', () => {
  it('the question is answered cancelled, open tool calls are marked cancelled, later updates are kept, the turn ends cancelled', async () => {
    const { host, asks } = pendingHost();
    const battery = await batteryClient({ watch, host, mode: 'ask' });
    const status = statusFile(battery.home);
    try {
      const agent = await battery.client.connect(relayEntry({ status }));
      const session = await agent.newSession({ cwd: battery.home.work });
      const turn = session.prompt(
        script([
          {
            update: {
              sessionUpdate: 'tool_call',
              toolCallId: 'e1-tool',
              title: 'edit',
              kind: 'edit',
              status: 'in_progress',
            },
          },
          ask('e1-perm', 'e1'),
          { waitCancel: 'continue' },
          {
            update: { sessionUpdate: 'tool_call_update', toolCallId: 'e1-tool', title: 'edit (late title)' },
          },
          { text: 'late text after cancel' },
          { stop: 'cancelled' },
        ]),
      );
      await eventually(() => asks.length === 1, 'the permission question reached the host');
      await session.cancel();
      const result = await within(turn, 10_000, 'the cancelled turn');
      const answer = (await waitForStatus(status, (r) => r.event === 'answer' && r.label === 'e1'))
        .answer as { result?: unknown };
      const tool = session.state.items.find((i) => i.kind === 'tool_call' && i.toolCallId === 'e1-tool');
      const ok =
        JSON.stringify(answer.result) === JSON.stringify({ outcome: { outcome: 'cancelled' } }) &&
        result.stopReason === 'cancelled' &&
        tool?.kind === 'tool_call' &&
        tool.clientStatus === 'cancelled' &&
        agentText(session.state).includes('late text after cancel');
      holds(
        {
          case: 'E1',
          name: 'cancel during a permission question: answered cancelled, tool call cancelled, late updates kept',
        },
        ok,
      );
      expect(answer.result).toEqual({ outcome: { outcome: 'cancelled' } });
      expect(result.stopReason).toBe('cancelled');
      expect(tool?.kind === 'tool_call' && tool.clientStatus).toBe('cancelled');
      expect(tool?.kind === 'tool_call' && tool.title).toBe('edit (late title)');
      expect(agentText(session.state)).toContain('late text after cancel');
      expect(asks[0]?.signal.aborted).toBe(true);
    } finally {
      await battery.close();
    }
  });
});

describe('E2 cancels that come too late, twice, or for nothing', () => {
  it('after the turn ended, twice in a row, for an unknown session: no error, one terminal state', async () => {
    const battery = await batteryClient({ watch });
    const status = statusFile(battery.home);
    try {
      const agent = await battery.client.connect(relayEntry({ status }));
      const session = await agent.newSession({ cwd: battery.home.work });
      const done = await session.prompt('quick');
      await session.cancel();
      const turn = session.prompt(script([{ waitCancel: true }]));
      await waitForStatus(status, (r) => r.event === 'waiting-for-cancel');
      await Promise.all([session.cancel(), session.cancel()]);
      const cancelled = await within(turn, 10_000, 'the cancelled turn');
      await session.cancel();
      await agent.connection.cancelSession({ sessionId: 'no-such-session' });
      const after = await session.prompt('still works');
      const stops = session.state.items.filter((i) => i.kind === 'stop');
      const errors = session.state.items.filter((i) => i.kind === 'error');
      const ok =
        done.stopReason === 'end_turn' &&
        cancelled.stopReason === 'cancelled' &&
        after.stopReason === 'end_turn' &&
        stops.length === 3 &&
        errors.length === 0;
      holds(
        {
          case: 'E2',
          name: 'late, double and unknown-session cancels: no error, one terminal state per turn',
        },
        ok,
      );
      expect([done.stopReason, cancelled.stopReason, after.stopReason]).toEqual([
        'end_turn',
        'cancelled',
        'end_turn',
      ]);
      expect(stops).toHaveLength(3);
      expect(errors).toHaveLength(0);
    } finally {
      await battery.close();
    }
  });

  it('demo agent: session/cancel for an unknown session and after its turn ended: no reply, alive', async () => {
    const reader = demoAgentReader(watch.logger('demo agent'));
    const send = (frame: unknown) => reader.channel.feedText(JSON.stringify(frame) + '\n');
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: 1, clientCapabilities: {} },
    });
    send({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 'nope' } });
    send({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 'nope' } });
    send({ jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: reader.dataDir, mcpServers: [] } });
    await eventually(
      () => reader.channel.out.some((f) => (f as { id?: unknown }).id === 2),
      'session/new answered',
      15_000,
    );
    const replies = reader.channel.out.filter((f) => (f as { id?: unknown }).id === null);
    zero({ case: 'E2', name: 'demo agent: replies to cancels of unknown sessions' }, replies.length);
    expect(replies).toEqual([]);
    await reader.close();
  });
});

describe('E3 $/cancel_request for ids that are unknown, finished or not yet arrived', () => {
  it('client engine: no crash, the connection stays usable', async () => {
    const battery = await batteryClient({ watch });
    try {
      const agent = await battery.client.connect(relayEntry());
      const session = await agent.newSession({ cwd: battery.home.work });
      const cancel = (requestId: unknown) => ({ notify: '$/cancel_request', params: { requestId } });
      await relayScript(agent, session.agentSessionId ?? '', [
        cancel('unknown-id'),
        cancel('b1'),
        cancel(12345),
        cancel('b999'),
        cancel(null),
        cancel({ nested: true }),
      ]);
      const turn = await session.prompt('after the stray cancels');
      holds(
        { case: 'E3', name: 'client: stray $/cancel_request, connection usable' },
        turn.stopReason === 'end_turn',
      );
      expect(turn.stopReason).toBe('end_turn');
    } finally {
      await battery.close();
    }
  });

  it('demo agent: cancel of an unknown id, of a finished request, and before the request arrives', async () => {
    const reader = demoAgentReader(watch.logger('demo agent'));
    const send = (frame: unknown) => reader.channel.feedText(JSON.stringify(frame) + '\n');
    const cancel = (requestId: unknown) =>
      send({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId } });
    cancel('never-sent');
    send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: 1, clientCapabilities: {} },
    });
    await eventually(
      () => reader.channel.out.some((f) => (f as { id?: unknown }).id === 'init'),
      'initialize answered',
    );
    cancel('init');
    cancel('later');
    send({
      jsonrpc: '2.0',
      id: 'later',
      method: 'session/new',
      params: { cwd: reader.dataDir, mcpServers: [] },
    });
    await eventually(
      () => reader.channel.out.some((f) => (f as { id?: unknown }).id === 'later'),
      'the request after its early cancel answered',
      15_000,
    );
    holds({ case: 'E3', name: 'demo agent: stray $/cancel_request, alive' }, !reader.connection.isClosed);
    expect(reader.connection.isClosed).toBe(false);
    await reader.close();
  });
});

// ---- E4: seeded random interleavings ----

type AgentStep = { text: string } | { tool: string } | { ask: string } | { sleep: number } | { exit: 1 };
interface Program {
  steps: AgentStep[];
  stop: 'end_turn' | 'cancelled';
  cancelAfterMs: number | null;
  answer: 'allow' | 'deny' | 'never';
  answerAfterMs: number;
}

const programArbitrary: fc.Arbitrary<Program> = fc
  .record({
    steps: fc.array(
      fc.oneof(
        fc.string({ maxLength: 6 }).map((text) => ({ text: `t:${text}` })),
        fc.nat(9).map((n) => ({ tool: `tool-${n}` })),
        fc.nat(9).map((n) => ({ ask: `ask-${n}` })),
        fc.integer({ min: 0, max: 15 }).map((sleep) => ({ sleep })),
      ),
      { maxLength: 6 },
    ),
    // One program in ten ends with the agent exiting mid-turn.
    dies: fc.nat(9).map((n) => n === 0),
    stop: fc.constantFrom('end_turn' as const, 'cancelled' as const),
    cancelAfterMs: fc.option(fc.integer({ min: 0, max: 30 }), { nil: null }),
    answer: fc.constantFrom('allow' as const, 'deny' as const, 'never' as const),
    answerAfterMs: fc.integer({ min: 0, max: 20 }),
  })
  .map(({ dies, ...p }) => ({ ...p, steps: dies ? [...p.steps, { exit: 1 as const }] : p.steps }));

function toScript(program: Program): unknown[] {
  return [
    ...program.steps.map((step) => {
      if ('text' in step) return { text: step.text };
      if ('tool' in step)
        return {
          update: {
            sessionUpdate: 'tool_call',
            toolCallId: step.tool,
            title: step.tool,
            kind: 'other',
            status: 'in_progress',
          },
        };
      if ('ask' in step) return { ...ask(step.ask, step.ask), await: true };
      if ('sleep' in step) return { sleep: step.sleep };
      return { exit: 1 };
    }),
    { stop: program.stop },
  ];
}

describe('E4 random interleavings of prompt, updates, permission, cancel and agent exit', () => {
  it(
    `${COUNTS.interleavings} seeded interleavings: one outcome per prompt, nothing left pending, no open dialog, no leak`,
    async () => {
      const seed = seedOf(4001);
      let explored = 0;
      let failures = 0;
      let agent: AgentConnection | undefined;
      let answerTimers: ReturnType<typeof setTimeout>[] = [];
      let program: Program | undefined;
      const asks: PermissionAsk[] = [];
      const host = {
        askPermission: (a: PermissionAsk) =>
          new Promise<PermissionAnswer>((resolve, reject) => {
            asks.push(a);
            a.signal.addEventListener('abort', () => reject(new Error('withdrawn')));
            if (program && program.answer !== 'never')
              answerTimers.push(
                setTimeout(
                  () => resolve({ decision: program?.answer === 'allow' ? 'allow' : 'deny' }),
                  program.answerAfterMs,
                ),
              );
          }),
      };
      const battery = await batteryClient({ watch, host, mode: 'ask' });
      const listenersBefore = process.listenerCount('exit') + process.listenerCount('SIGINT');
      try {
        await fc.assert(
          fc.asyncProperty(programArbitrary, async (p) => {
            explored++;
            program = p;
            asks.length = 0;
            if (!agent?.running) agent = await battery.client.connect(relayEntry());
            const session = await agent.newSession({ cwd: battery.home.work });
            let settled = 0;
            const turn = session.prompt(script(toScript(p))).then(
              (r) => {
                settled++;
                return r.stopReason as string;
              },
              () => {
                settled++;
                return 'error';
              },
            );
            const cancelTimer =
              p.cancelAfterMs === null ? undefined : setTimeout(() => void session.cancel(), p.cancelAfterMs);
            // A pending question never answered and never cancelled would block the turn: the
            // program then cancels it (as a user would), which is part of the interleaving.
            const rescue = setTimeout(() => void session.cancel(), 2_000);
            const outcome = await within(turn, 10_000, `the turn of ${JSON.stringify(p)}`);
            clearTimeout(cancelTimer);
            clearTimeout(rescue);
            answerTimers.forEach(clearTimeout);
            answerTimers = [];
            await new Promise((done) => setTimeout(done, 5));
            const state = session.state;
            const terminal = state.items.filter((i) => i.kind === 'stop' || i.kind === 'error');
            const openTools = state.items.filter(
              (i) => i.kind === 'tool_call' && i.status === 'in_progress' && !i.clientStatus,
            );
            const problems = [
              settled !== 1 && `settled ${settled} times`,
              terminal.length !== 1 && `${terminal.length} terminal items`,
              state.pendingPermissions.length > 0 && 'pending permissions left',
              asks.some((a) => !a.signal.aborted && p.answer === 'never') && 'a dialog left open',
              (state.status === 'running' || state.status === 'cancelling') && `status ${state.status}`,
              outcome !== 'end_turn' &&
                openTools.length > 0 &&
                `${openTools.length} tool calls left open after ${outcome}`,
            ].filter((x): x is string => typeof x === 'string');
            if (problems.length > 0) failures++;
            expect(problems, JSON.stringify(p)).toEqual([]);
            await session.close();
          }),
          { seed, numRuns: COUNTS.interleavings },
        );
      } finally {
        await battery.close();
      }
      const listenersAfter = process.listenerCount('exit') + process.listenerCount('SIGINT');
      figure({
        case: 'E4',
        name: 'interleavings explored',
        value: explored,
        target: '≥ 1,000 (full size)',
        pass: explored >= 1000,
        seed,
      });
      zero({ case: 'E4', name: 'interleavings breaking an invariant', seed }, failures);
      zero({ case: 'E4', name: 'process listeners leaked', seed }, listenersAfter - listenersBefore);
      expect(listenersAfter).toBe(listenersBefore);
    },
    timeoutMs(150_000, 900_000),
  );
});

describe('E5 the user cancels, then the agent dies', () => {
  it('one error, not two', async () => {
    const battery = await batteryClient({ watch });
    const status = statusFile(battery.home);
    try {
      const agent = await battery.client.connect(relayEntry({ status, ignoreCancel: true }));
      const session = await agent.newSession({ cwd: battery.home.work });
      const errors: unknown[] = [];
      const turn = session.prompt(script([{ waitCancel: true }])).catch((e: unknown) => errors.push(e));
      await waitForStatus(status, (r) => r.event === 'waiting-for-cancel');
      await session.cancel();
      await waitForStatus(status, (r) => r.event === 'cancel-received');
      process.kill(agent.pid as number, 'SIGKILL');
      await within(turn, 10_000, 'the turn settling');
      const items = session.state.items.filter((i) => i.kind === 'error' || i.kind === 'stop');
      holds(
        { case: 'E5', name: 'cancel then agent death: a single error' },
        errors.length <= 1 && items.length === 1,
      );
      expect(errors.length).toBeLessThanOrEqual(1);
      expect(items).toHaveLength(1);
    } finally {
      await battery.close();
    }
  });
});
