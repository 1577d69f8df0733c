import type { SessionUpdate } from '@acp-kit/protocol';
import { describe, expect, it } from 'vitest';
import { MAX_MERGED_TEXT_CHARS } from './apply-update.js';
import { v1UpdateEvents } from '../protocol-v1/v1-events.js';
import type { SessionEvent } from './events.js';
import { reduceSession, reduceSessionEvents } from './reducer.js';
import { initialSessionState, type SessionState, type ToolCallItem } from './state.js';
import { toolCallTerminal } from './tool-terminals.js';

const at = 1000;
// A v1 update as the v1 face turns it into events (several when `_meta` carries a terminal).
const u = (update: Record<string, unknown>): SessionEvent[] =>
  v1UpdateEvents(update as unknown as SessionUpdate, at);
const run = (
  events: (SessionEvent | SessionEvent[])[],
  base: SessionState = initialSessionState('s', '/p'),
) => reduceSessionEvents(base, events.flat());
const text = (t: string) => ({ type: 'text', text: t });

describe('reduceSession', () => {
  it('groups message chunks by messageId, and consecutive chunks without one', () => {
    const state = run([
      u({ sessionUpdate: 'agent_message_chunk', content: text('Hel'), messageId: 'a' }),
      u({ sessionUpdate: 'agent_thought_chunk', content: text('hmm') }),
      u({ sessionUpdate: 'agent_message_chunk', content: text('lo'), messageId: 'a' }),
      u({ sessionUpdate: 'agent_message_chunk', content: text('') }),
      u({ sessionUpdate: 'agent_message_chunk', content: text('new') }),
      u({ sessionUpdate: 'agent_message_chunk', content: text(' one') }),
      u({ sessionUpdate: 'user_message_chunk', content: text('hi') }),
      u({
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'image', data: 'AA==', mimeType: 'image/png' },
      }),
    ]);
    const messages = state.items.map((item) =>
      item.kind === 'message' ? [item.role, item.content] : item.kind,
    );
    expect(messages).toEqual([
      ['agent', [text('Hello')]],
      ['thought', [text('hmm')]],
      ['agent', [text('new one')]],
      ['user', [text('hi')]],
      ['agent', [{ type: 'image', data: 'AA==', mimeType: 'image/png' }]],
    ]);
  });

  it('merges a long message into text blocks of at most 64 KiB, in order', () => {
    const piece = 'x'.repeat(999) + '\n';
    const state = run(
      Array.from({ length: 200 }, () => u({ sessionUpdate: 'agent_message_chunk', content: text(piece) })),
    );
    const message = state.items[0];
    if (message?.kind !== 'message') throw new Error('no message');
    const texts = message.content.map((block) => (block as { text: string }).text);
    expect(texts.join('')).toBe(piece.repeat(200));
    expect(texts.length).toBe(Math.ceil((200 * 1000) / MAX_MERGED_TEXT_CHARS));
    expect(Math.max(...texts.map((t) => t.length))).toBeLessThan(MAX_MERGED_TEXT_CHARS + 1000);
  });

  it('merges tool calls: content and locations replace, other fields patch, unknown ids are created', () => {
    const state = run([
      u({
        sessionUpdate: 'tool_call',
        toolCallId: 't',
        title: 'Read a',
        kind: 'read',
        status: 'pending',
        locations: [{ path: '/p/a' }],
        rawInput: { path: '/p/a' },
      }),
      u({
        sessionUpdate: 'tool_call_update',
        toolCallId: 't',
        status: 'in_progress',
        content: [{ type: 'content', content: text('1') }],
      }),
      u({
        sessionUpdate: 'tool_call_update',
        toolCallId: 't',
        content: [{ type: 'content', content: text('2') }],
        locations: [{ path: '/p/b' }],
        title: null,
      }),
      u({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed', rawOutput: { ok: true } }),
      u({ sessionUpdate: 'tool_call_update', toolCallId: 'ghost', status: 'in_progress' }),
    ]);
    const [tool, ghost] = state.items as ToolCallItem[];
    expect(tool).toMatchObject({
      title: 'Read a',
      toolKind: 'read',
      status: 'completed',
      content: [{ type: 'content', content: text('2') }],
      locations: [{ path: '/p/b' }],
      rawInput: { path: '/p/a' },
      rawOutput: { ok: true },
      announced: true,
    });
    expect(ghost).toMatchObject({
      toolCallId: 'ghost',
      announced: false,
      title: 'Tool call',
      toolKind: 'other',
      status: 'in_progress',
    });
    expect(state.toolCallIndex).toEqual({ t: 0, ghost: 1 });
  });

  it('handles plan, commands, modes, config options, session info, usage, notices and compaction', () => {
    const entries = [{ content: 'step', priority: 'high', status: 'pending' }];
    const state = run([
      u({ sessionUpdate: 'plan', entries }),
      u({ sessionUpdate: 'plan', entries: [] }),
      u({
        sessionUpdate: 'available_commands_update',
        availableCommands: [{ name: 'run tests', description: 'd' }],
      }),
      u({ sessionUpdate: 'current_mode_update', currentModeId: 'code' }),
      u({
        sessionUpdate: 'config_option_update',
        configOptions: [{ id: 'model', name: 'Model', type: 'select', currentValue: 'x', options: [] }],
      }),
      u({ sessionUpdate: 'session_info_update', title: 'Fix bug', updatedAt: '2025-01-01T00:00:00Z' }),
      u({ sessionUpdate: 'usage_update', used: null, size: 200000, cost: { amount: 0.5, currency: 'USD' } }),
      u({ sessionUpdate: 'notice', severity: 'warning', title: 'Rate limited', description: 'slow down' }),
      u({ sessionUpdate: 'compaction_update', compactionId: 'c', status: 'in_progress' }),
      u({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c', content: text('sum') }),
      u({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c', content: text('mary') }),
      u({ sessionUpdate: 'compaction_update', compactionId: 'c', status: 'completed' }),
    ]);
    expect(state.plan).toEqual([]);
    expect(state.commands[0]?.name).toBe('run tests');
    expect(state.modes?.currentModeId).toBe('code');
    expect(state.configOptions[0]?.id).toBe('model');
    expect(state.title).toBe('Fix bug');
    expect(state.updatedAt).toBe('2025-01-01T00:00:00Z');
    expect(state.usage).toEqual({ used: null, size: 200000, cost: { amount: 0.5, currency: 'USD' } });
    expect(state.items).toEqual([
      {
        kind: 'notice',
        key: '0',
        turn: 0,
        severity: 'warning',
        title: 'Rate limited',
        description: 'slow down',
      },
      {
        kind: 'compaction',
        key: '1',
        turn: 0,
        compactionId: 'c',
        status: 'completed',
        summary: [text('summary')],
      },
    ]);
    expect(state.updateCount).toBe(12);
  });

  it('follows the _meta terminal side channel', () => {
    const state = run([
      u({
        sessionUpdate: 'tool_call',
        toolCallId: 't',
        title: 'npm test',
        kind: 'execute',
        content: [{ type: 'terminal', terminalId: 'T1' }],
        _meta: { terminal_info: { terminal_id: 'T1', cwd: '/p' } },
      }),
      u({
        sessionUpdate: 'tool_call_update',
        toolCallId: 't',
        _meta: { terminal_output: { terminal_id: 'T1', data: 'ok 1\n' } },
      }),
      u({
        sessionUpdate: 'tool_call_update',
        toolCallId: 't',
        _meta: { terminal_output: { terminal_id: 'T1', data: 'ok 2\n' } },
      }),
      u({
        sessionUpdate: 'tool_call_update',
        toolCallId: 't',
        status: 'completed',
        _meta: { terminal_exit: { terminal_id: 'T1', exit_code: 0, signal: null } },
      }),
    ]);
    const call = state.items.find((item) => item.kind === 'tool_call') as ToolCallItem;
    expect(toolCallTerminal(state, call, 'T1')).toEqual({
      terminalId: 'T1',
      origin: 'agent',
      toolCallId: 't',
      toolCallKey: call.key,
      cwd: '/p',
      output: 'ok 1\nok 2\n',
      truncated: false,
      exitStatus: { exitCode: 0, signal: null },
    });
  });

  it('cancel marks open tool calls, late updates still apply; failures mark them failed', () => {
    let state = run([
      { type: 'prompt', at, turn: 1, prompt: [text('go')] as never },
      u({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'A', status: 'in_progress' }),
      u({ sessionUpdate: 'tool_call', toolCallId: 'b', title: 'B', status: 'completed' }),
      { type: 'cancel_requested', at, turn: 1 },
    ]);
    expect(state.status).toBe('cancelling');
    expect((state.items[1] as ToolCallItem).clientStatus).toBe('cancelled');
    expect((state.items[2] as ToolCallItem).clientStatus).toBeUndefined();
    state = run(
      [
        u({ sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'completed' }),
        { type: 'turn_end', at, turn: 1, stopReason: 'cancelled' },
      ],
      state,
    );
    expect((state.items[1] as ToolCallItem).clientStatus).toBeUndefined();
    expect(state.status).toBe('idle');
    state = run(
      [
        { type: 'prompt', at, turn: 2, prompt: [] },
        u({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'C', status: 'pending' }),
        {
          type: 'agent_exited',
          at,
          error: { code: 'PEER_EXITED', message: 'agent exited with code 1', exitCode: 1 },
        },
        { type: 'turn_failed', at, turn: 2, error: { code: 'AGENT_EXITED', message: 'x' } },
      ],
      state,
    );
    expect(
      (state.items.find((i) => i.kind === 'tool_call' && i.toolCallId === 'c') as ToolCallItem).clientStatus,
    ).toBe('failed');
    expect(state.status).toBe('disconnected');
  });

  it('keeps unknown variants raw and never mutates earlier snapshots', () => {
    const before = run([u({ sessionUpdate: 'agent_message_chunk', content: text('a') })]);
    const frozen = JSON.stringify(before);
    const after = reduceSessionEvents(
      before,
      u({ sessionUpdate: 'agent_message_chunk', content: text('b') }),
    );
    expect(JSON.stringify(before)).toBe(frozen);
    expect(after.items).not.toBe(before.items);
    expect(after.items[0]).toMatchObject({ kind: 'message', content: [text('ab')] });
  });

  it('records permission questions and answers', () => {
    const request = {
      key: '1',
      source: 'permission_request' as const,
      kind: 'edit',
      paths: [],
      outsideRoots: false,
      secret: false,
      reason: 'r',
    };
    let state = reduceSession(initialSessionState('s', '/p'), { type: 'permission_requested', at, request });
    expect(state.pendingPermissions).toEqual([request]);
    state = reduceSession(state, {
      type: 'permission_resolved',
      at,
      key: '1',
      decision: 'allow',
      by: 'user',
      outcome: { outcome: 'selected', optionId: 'y' },
    });
    expect(state.pendingPermissions).toEqual([]);
    expect(state.items[0]).toMatchObject({
      kind: 'permission',
      decision: 'allow',
      optionId: 'y',
      by: 'user',
    });
  });

  it('replays 100,000 updates in one batch quickly', () => {
    const events: SessionEvent[] = [];
    for (let i = 0; i < 100_000; i++) {
      events.push(
        ...(i % 10 === 0
          ? u({ sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: `T${i}`, status: 'completed' })
          : u({
              sessionUpdate: 'agent_message_chunk',
              content: text(`w${i} `),
              messageId: `m${Math.floor(i / 10)}`,
            })),
      );
    }
    const state = run(events);
    expect(state.updateCount).toBe(100_000);
    expect(state.items.length).toBe(20_000);
  });
});
