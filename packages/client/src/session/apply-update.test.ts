/**
 * The store folds the neutral model: the concepts v2 brings (message upserts, patch semantics with
 * resets, content chunks of a call, per-call capabilities, foreground state and background work)
 * as well as those v1 maps into.
 */
import { describe, expect, it } from 'vitest';
import type { AgentUpdate } from '../model/agent-update.js';
import type { SessionEvent } from './events.js';
import { reduceSessionEvents } from './reducer.js';
import { initialSessionState, type MessageItem, type ToolCallItem } from './state.js';
import { toolCallTerminal } from './tool-terminals.js';

const u = (update: AgentUpdate): SessionEvent => ({ type: 'update', at: 1, update });
const run = (...events: SessionEvent[]) => reduceSessionEvents(initialSessionState('s', '/p'), events);
const text = (value: string) => ({ type: 'text' as const, text: value });

describe('applyUpdate on the model', () => {
  it('replaces a whole message by id and appends chunks to it', () => {
    const state = run(
      u({ kind: 'message', role: 'agent', messageId: 'm1', content: [text('draft')] }),
      u({ kind: 'message', role: 'agent', messageId: 'm1', content: [text('final')] }),
      u({ kind: 'message_chunk', role: 'agent', messageId: 'm1', content: text(' answer') }),
    );
    const messages = state.items.filter((item): item is MessageItem => item.kind === 'message');
    expect(messages.map((m) => m.content)).toEqual([[text('final answer')]]);
  });

  it('patches a tool call: absent leaves, null resets capabilities, chunks append content', () => {
    const state = run(
      u({
        kind: 'tool_call',
        toolCallId: 't',
        newInstance: true,
        patch: { title: 'Run', status: 'in_progress', capabilities: { cancel: true } },
      }),
      u({ kind: 'tool_call_chunk', toolCallId: 't', content: { type: 'content', content: text('a') } }),
      u({ kind: 'tool_call_chunk', toolCallId: 't', content: { type: 'content', content: text('b') } }),
      u({
        kind: 'tool_call',
        toolCallId: 't',
        newInstance: false,
        patch: { status: 'cancelled', capabilities: null },
      }),
    );
    const call = state.items.find((item): item is ToolCallItem => item.kind === 'tool_call');
    expect(call).toMatchObject({
      title: 'Run',
      status: 'cancelled',
      content: [{ type: 'content' }, { type: 'content' }],
    });
    expect(call?.capabilities).toBeUndefined();
  });

  it('says when a command left running in the background after its turn ends, once', () => {
    const terminal = (exitCode: number | null) =>
      u({
        kind: 'terminal',
        terminalId: 'T',
        owner: 'agent',
        toolCallId: 't',
        command: 'npm test',
        capabilities: { cancel: false },
        ...(exitCode === null ? {} : { exitStatus: { exitCode, signal: null } }),
      });
    // The session is idle (no turn): the terminal outlived its call.
    const state = run(
      u({
        kind: 'tool_call',
        toolCallId: 't',
        newInstance: true,
        patch: { title: 'Test', status: 'completed' },
      }),
      terminal(null),
      terminal(0),
      terminal(0),
    );
    const infos = state.items.filter((item) => item.kind === 'info');
    expect(infos).toEqual([
      expect.objectContaining({ text: 'The background command `npm test` exited with 0.' }),
    ]);
  });

  it('keeps an agent-owned terminal with its streamed output and capabilities on its call', () => {
    const state = run(
      u({ kind: 'tool_call', toolCallId: 't', newInstance: true, patch: { title: 'Serve' } }),
      u({
        kind: 'terminal',
        terminalId: 'T',
        owner: 'agent',
        toolCallId: 't',
        command: 'npm start',
        capabilities: { cancel: true },
      }),
      u({ kind: 'terminal_output', terminalId: 'T', toolCallId: 't', data: 'listening\n' }),
    );
    const call = state.items.find((item): item is ToolCallItem => item.kind === 'tool_call') as ToolCallItem;
    expect(toolCallTerminal(state, call, 'T')).toMatchObject({
      origin: 'agent',
      command: 'npm start',
      output: 'listening\n',
      capabilities: { cancel: true },
    });
  });

  it('records the foreground state and the latest complete background snapshot', () => {
    const background = { terminalIds: ['T'], toolCallIds: [], other: [] };
    let state = run(u({ kind: 'foreground', state: 'running' }));
    expect(state.foreground).toBe('running');
    state = reduceSessionEvents(state, [
      u({ kind: 'foreground', state: 'idle', stopReason: 'end_turn', background }),
    ]);
    expect(state).toMatchObject({ foreground: 'idle', background });
  });

  it('keeps an unknown update with its version', () => {
    const state = run(u({ kind: 'unknown', version: 2, updateKind: 'x_new', raw: { a: 1 } }));
    expect(state.unknownKinds).toEqual(['x_new']);
    expect(state.items[0]).toMatchObject({
      kind: 'unknown',
      version: 2,
      updateKind: 'x_new',
      update: { a: 1 },
    });
  });
});
