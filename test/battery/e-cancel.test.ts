/**
 * E1–E3, E5. Cancellation races through the client engine and the scripted agent: cancel during
 * a permission question (E1), cancels that come too late, twice, or for nothing (E2),
 * `$/cancel_request` for ids that do not exist (E3), and a cancel followed by the agent's death
 * (E5). The random interleavings (E4) are in e-interleavings.test.ts.
 */
import type { PermissionAnswer, PermissionAsk } from '@acp-kit/client';
import { describe, expect, it } from 'vitest';
import { fileWatch } from './support/canary.js';
import { eventually } from './support/channel.js';
import { holds, zero } from './support/figures.js';
import { demoAgentReader } from './support/readers.js';
import {
  batteryClient,
  relayEntry,
  relayScript,
  script,
  statusFile,
  waitForStatus,
  askStep,
} from './support/relay.js';
import { agentText } from './support/transcript.js';
import { within } from './support/procs.js';

const watch = fileWatch('e-cancel');

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
          askStep('e1-perm', 'e1'),
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
