import type { SessionUpdate } from '@acp-kit/protocol';
import { describe, expect, it } from 'vitest';
import { v1UpdateEvents } from '../protocol-v1/v1-events.js';
import type { SessionEvent } from './events.js';
import { reduceSessionEvents } from './reducer.js';
import { initialSessionState, type SessionState, type ToolCallItem } from './state.js';

const at = 1000;
const u = (update: Record<string, unknown>, replay = false): SessionEvent =>
  one(v1UpdateEvents(update as unknown as SessionUpdate, at, replay ? { replay } : {}));
/** The one event of a v1 update (the v1 face's translation). */
function one(events: SessionEvent[]): SessionEvent {
  if (events.length !== 1) throw new Error(`expected one event, got ${events.length}`);
  return events[0] as SessionEvent;
}

const prompt = (turn: number): SessionEvent => ({
  type: 'prompt',
  at,
  turn,
  prompt: [{ type: 'text', text: `prompt ${turn}` }],
});
const end = (turn: number, stopReason: 'end_turn' | 'cancelled' = 'end_turn'): SessionEvent => ({
  type: 'turn_end',
  at,
  turn,
  stopReason,
});
const run = (events: SessionEvent[], base: SessionState = initialSessionState('s', '/p')) =>
  reduceSessionEvents(base, events);
const calls = (state: SessionState) =>
  state.items.filter((item): item is ToolCallItem => item.kind === 'tool_call');

describe('tool call ids are scoped per turn', () => {
  it('starts a new card for an id an earlier turn used; updates go to the latest card', () => {
    // The official SDK's example agent numbers its tool calls per turn: call_1, call_2… each time.
    const state = run([
      prompt(1),
      u({ sessionUpdate: 'tool_call', toolCallId: 'call_1', title: 'Read a', kind: 'read' }),
      u({ sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'completed' }),
      end(1),
      prompt(2),
      u({ sessionUpdate: 'tool_call', toolCallId: 'call_1', title: 'Read b', kind: 'read' }),
      u({ sessionUpdate: 'tool_call', toolCallId: 'call_2', title: 'Edit b', kind: 'edit' }),
      u({ sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'completed' }),
    ]);
    expect(calls(state).map((c) => [c.turn, c.title, c.status])).toEqual([
      [1, 'Read a', 'completed'],
      [2, 'Read b', 'completed'],
      [2, 'Edit b', 'pending'],
    ]);
    expect(new Set(calls(state).map((c) => c.key)).size).toBe(3);
  });

  it('keeps one card for a tool_call sent again in the same turn', () => {
    const state = run([
      prompt(1),
      u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Run', kind: 'execute' }),
      u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Run ls', status: 'in_progress' }),
    ]);
    expect(calls(state).map((c) => [c.title, c.status])).toEqual([['Run ls', 'in_progress']]);
  });

  it('splits replayed history at the user messages', () => {
    const state = run([
      u({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'one' } }, true),
      u({ sessionUpdate: 'tool_call', toolCallId: 'call_1', title: 'First', status: 'completed' }, true),
      u({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'two' } }, true),
      u({ sessionUpdate: 'tool_call', toolCallId: 'call_1', title: 'Second', status: 'completed' }, true),
    ]);
    expect(calls(state).map((c) => c.title)).toEqual(['First', 'Second']);
  });

  it('starts a new message for a messageId an earlier turn used', () => {
    const chunk = (t: string) =>
      u({ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: t } });
    const state = run([prompt(1), chunk('first'), end(1), prompt(2), chunk('second')]);
    const agent = state.items.filter((item) => item.kind === 'message' && item.role === 'agent');
    expect(agent.map((m) => (m.kind === 'message' ? m.content : []))).toEqual([
      [{ type: 'text', text: 'first' }],
      [{ type: 'text', text: 'second' }],
    ]);
  });
});

describe('cancelled tool calls', () => {
  it('stay cancelled when the agent then reports them failed, and completed when they completed', () => {
    const state = run([
      prompt(1),
      u({
        sessionUpdate: 'tool_call',
        toolCallId: 'a',
        title: 'Run',
        kind: 'execute',
        status: 'in_progress',
      }),
      u({ sessionUpdate: 'tool_call', toolCallId: 'b', title: 'Read', kind: 'read', status: 'in_progress' }),
      { type: 'cancel_requested', at, turn: 1 },
      // ACP has no "cancelled" status: agents report interrupted calls failed.
      u({ sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'failed' }),
      u({ sessionUpdate: 'tool_call_update', toolCallId: 'b', status: 'completed' }),
      u({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'Late', status: 'failed' }),
      end(1, 'cancelled'),
    ]);
    expect(calls(state).map((c) => [c.toolCallId, c.clientStatus ?? c.status])).toEqual([
      ['a', 'cancelled'],
      ['b', 'completed'],
      ['c', 'cancelled'],
    ]);
  });

  it('a failure in a turn that was not cancelled is a failure', () => {
    const state = run([
      prompt(1),
      u({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'Run', status: 'in_progress' }),
      u({ sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'failed' }),
    ]);
    expect(calls(state)[0]?.clientStatus).toBeUndefined();
  });
});

describe('plans belong to their turn', () => {
  it('moves the plan into the transcript when the next turn starts', () => {
    const entries = [{ content: 'Step', priority: 'medium', status: 'completed' }];
    const state = run([
      prompt(1),
      u({ sessionUpdate: 'plan', entries }),
      u({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'done' } }),
      end(1),
    ]);
    expect(state.plan).toEqual(entries);
    const next = run([prompt(2)], state);
    expect(next.plan).toEqual([]);
    expect(next.items.slice(-2).map((item) => item.kind)).toEqual(['plan', 'message']);
    expect(next.items.at(-2)).toMatchObject({ kind: 'plan', turn: 1, entries });
  });

  it('adds no plan item when the turn had none', () => {
    const state = run([prompt(1), end(1), prompt(2)]);
    expect(state.items.some((item) => item.kind === 'plan')).toBe(false);
  });
});

describe('diff placements', () => {
  it('are kept with the content they describe and dropped when it is replaced', () => {
    const diff = { type: 'diff', path: '/p/a.txt', oldText: 'two', newText: '2' };
    const placed: SessionEvent = {
      ...u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Edit', kind: 'edit', content: [diff] }),
      diffPlacements: [{ line: 2, wholeFile: false, atEnd: false }],
    } as SessionEvent;
    const state = run([prompt(1), placed]);
    expect(calls(state)[0]?.diffPlacements).toEqual([{ line: 2, wholeFile: false, atEnd: false }]);
    const patched = run(
      [u({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed' })],
      state,
    );
    expect(calls(patched)[0]?.diffPlacements).toHaveLength(1);
    const replaced = run(
      [u({ sessionUpdate: 'tool_call_update', toolCallId: 't', content: [{ ...diff, oldText: null }] })],
      state,
    );
    expect(calls(replaced)[0]?.diffPlacements).toBeUndefined();
  });
});
