/**
 * `acp run --format json` prints session content from the client's model: the same lines for the
 * same content whichever protocol version carried it, updates that came before the session was
 * attached right after its `session` line, and a load's history marked as replayed.
 */
import { describe, expect, it } from 'vitest';
import type { SessionUpdate as V1Update } from '@acp-kit/protocol';
import type { SessionUpdate as V2Update } from '@acp-kit/protocol/v2';
import {
  ClientSession,
  fromV1Update,
  initialSessionState,
  V2UpdateTranslator,
  type AgentUpdate,
} from '@acp-kit/client';
import type { Output } from '../io.js';
import { RunOutput } from './run-output.js';
import { JsonRenderer } from './run-json.js';

const ENTRIES = [{ content: 'Read it', priority: 'high', status: 'in_progress' }] as const;

/** The same content as each version sends it. */
const PAIRS: { what: string; v1: V1Update; v2: V2Update }[] = [
  {
    what: 'a plan',
    v1: { sessionUpdate: 'plan', entries: [...ENTRIES] },
    v2: { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'plan', entries: [...ENTRIES] } },
  },
  {
    what: 'a tool call that completed',
    v1: { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' },
    v2: { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' },
  },
  {
    what: 'usage',
    v1: { sessionUpdate: 'usage_update', used: 10, size: 100 },
    v2: { sessionUpdate: 'usage_update', used: 10, size: 100 },
  },
  {
    what: 'config options',
    v1: {
      sessionUpdate: 'config_option_update',
      configOptions: [
        {
          id: 'model',
          name: 'Model',
          type: 'select',
          currentValue: 'a',
          options: [{ value: 'a', name: 'A' }],
        },
      ],
    },
    v2: {
      sessionUpdate: 'config_option_update',
      configOptions: [
        {
          configId: 'model',
          name: 'Model',
          type: 'select',
          currentValue: 'a',
          options: [{ value: 'a', name: 'A' }],
        },
      ],
    },
  },
  {
    what: 'session info',
    v1: { sessionUpdate: 'session_info_update', title: 'Hello' },
    v2: { sessionUpdate: 'session_info_update', title: 'Hello' },
  },
];

/** The JSON lines a run prints for `updates`, some dispatched before the session was attached. */
async function printed(updates: readonly AgentUpdate[], options: { early?: number; replay?: boolean } = {}) {
  let text = '';
  const out: Output = { write: (chunk: string) => (text += chunk) };
  const output = new RunOutput(out, { write: () => undefined });
  const renderer = new JsonRenderer(output);
  const session = new ClientSession('local', initialSessionState('local', '/work'));
  renderer.opening(session);
  const dispatch = (update: AgentUpdate) =>
    session.store.dispatch({ type: 'update', at: 0, update, ...(options.replay ? { replay: true } : {}) });
  const early = options.early ?? 0;
  updates.slice(0, early).forEach(dispatch);
  renderer.attached(session, 'new', 'agent');
  updates.slice(early).forEach(dispatch);
  renderer.result('end_turn', 0);
  await output.settle();
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('acp run --format json: one schema for both protocol versions', () => {
  for (const { what, v1, v2 } of PAIRS) {
    it(`${what}: the same line from v1 and from v2`, async () => {
      const fromV1 = await printed(fromV1Update(v1));
      const fromV2 = await printed(new V2UpdateTranslator().update(v2));
      expect(fromV2).toEqual(fromV1);
      expect(fromV1.filter((line) => line.type === 'update')).toHaveLength(1);
    });
  }

  it('a message chunk: the same line, with the message id only v2 gives', async () => {
    const content = { type: 'text' as const, text: 'hi' };
    const [v1] = (await printed(fromV1Update({ sessionUpdate: 'agent_message_chunk', content }))).filter(
      (line) => line.type === 'update',
    );
    const [v2] = (
      await printed(
        new V2UpdateTranslator().update({ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content }),
      )
    ).filter((line) => line.type === 'update');
    expect(v1?.update).toEqual({ kind: 'message_chunk', role: 'agent', content });
    expect(v2?.update).toEqual({ kind: 'message_chunk', role: 'agent', messageId: 'm1', content });
  });

  it('v2 only: the turn state and a terminal streaming its output as text', async () => {
    const translator = new V2UpdateTranslator();
    const updates = [
      { sessionUpdate: 'state_update', state: 'running' },
      { sessionUpdate: 'terminal_update', terminalId: 'x', command: 'ls', cwd: '/work' },
      {
        sessionUpdate: 'terminal_output_chunk',
        terminalId: 'x',
        data: Buffer.from('héllo').toString('base64'),
      },
    ] as V2Update[];
    const lines = (await printed(updates.flatMap((u) => translator.update(u)))).filter(
      (l) => l.type === 'update',
    );
    expect(lines.map((line) => line.update)).toEqual([
      { kind: 'foreground', state: 'running' },
      { kind: 'terminal', terminalId: 'x', owner: 'agent', reportsExit: true, command: 'ls', cwd: '/work' },
      { kind: 'terminal_output', terminalId: 'x', data: 'héllo' },
    ]);
  });
});

describe('acp run --format json: order and history', () => {
  it('updates from before the session was attached follow its session line, in order', async () => {
    const updates = PAIRS.flatMap(({ v1 }) => fromV1Update(v1));
    const lines = await printed(updates, { early: 2 });
    expect(lines.map((line) => line.type)).toEqual(['session', ...updates.map(() => 'update'), 'result']);
    expect(lines[0]).toMatchObject({ format: 2, how: 'new' });
    expect(lines.slice(1, -1).map((line) => line.update)).toEqual(updates);
  });

  it('a replayed history is marked replay: true', async () => {
    const lines = await printed(fromV1Update(PAIRS[0]!.v1), { replay: true });
    expect(lines.find((line) => line.type === 'update')).toMatchObject({ replay: true });
  });
});
