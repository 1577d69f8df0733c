import type { SessionUpdate } from '@acp-kit/protocol/v2';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../session/events.js';
import { reduceSessionEvents } from '../session/reducer.js';
import { initialSessionState, type ToolCallItem } from '../session/state.js';
import { toolCallTerminal } from '../session/tool-terminals.js';
import { V2UpdateTranslator } from './from-v2-update.js';

const v2 = (update: Record<string, unknown>): SessionUpdate => update as unknown as SessionUpdate;
const b64 = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64');

describe('V2UpdateTranslator', () => {
  it('decodes terminal output across chunks that split a character, and flushes at exit', () => {
    const t = new V2UpdateTranslator();
    const euro = Buffer.from('€', 'utf8'); // three bytes
    const first = t.update(
      v2({ sessionUpdate: 'terminal_output_chunk', terminalId: 'T', data: b64(euro.subarray(0, 2)) }),
    );
    const second = t.update(
      v2({ sessionUpdate: 'terminal_output_chunk', terminalId: 'T', data: b64(euro.subarray(2)) }),
    );
    expect(first).toEqual([{ kind: 'terminal_output', terminalId: 'T', data: '' }]);
    expect(second).toEqual([{ kind: 'terminal_output', terminalId: 'T', data: '€' }]);
    // Another terminal has its own stream.
    t.update(v2({ sessionUpdate: 'terminal_output_chunk', terminalId: 'U', data: b64(euro.subarray(0, 1)) }));
    const exit = t.update(
      v2({ sessionUpdate: 'terminal_update', terminalId: 'U', exitStatus: { exitCode: 1, signal: null } }),
    );
    expect(exit).toEqual([
      { kind: 'terminal_output', terminalId: 'U', data: '\ufffd' },
      {
        kind: 'terminal',
        terminalId: 'U',
        owner: 'agent',
        reportsExit: true,
        exitStatus: { exitCode: 1, signal: null },
      },
    ]);
  });

  it('makes a terminal upsert with a replacement snapshot and a cancel capability', () => {
    const t = new V2UpdateTranslator();
    t.update(v2({ sessionUpdate: 'terminal_output_chunk', terminalId: 'T', data: b64(Buffer.from([0xe2])) }));
    expect(
      t.update(
        v2({
          sessionUpdate: 'terminal_update',
          terminalId: 'T',
          command: 'npm start',
          cwd: '/w',
          output: { data: b64('all so far\n') },
          capabilities: { cancel: {} },
        }),
      ),
    ).toEqual([
      {
        kind: 'terminal',
        terminalId: 'T',
        owner: 'agent',
        reportsExit: true,
        command: 'npm start',
        cwd: '/w',
        output: 'all so far\n',
        capabilities: { cancel: true },
      },
    ]);
  });

  it('maps state updates to the foreground state with the background snapshot', () => {
    const t = new V2UpdateTranslator();
    expect(
      t.update(
        v2({
          sessionUpdate: 'state_update',
          state: 'idle',
          stopReason: 'error',
          error: { code: -32603, message: 'boom' },
          background: [
            { type: 'terminal', terminalId: 'T' },
            { type: 'tool_call', toolCallId: 'c' },
          ],
        }),
      ),
    ).toEqual([
      {
        kind: 'foreground',
        state: 'idle',
        stopReason: 'error',
        error: { code: -32603, message: 'boom' },
        background: { terminalIds: ['T'], toolCallIds: ['c'], other: [] },
      },
    ]);
    expect(t.update(v2({ sessionUpdate: 'state_update', state: 'running' }))).toEqual([
      { kind: 'foreground', state: 'running' },
    ]);
  });

  it('maps messages, tool call upserts and a diff into one file change per file with its patch', () => {
    const t = new V2UpdateTranslator();
    expect(
      t.update(
        v2({ sessionUpdate: 'agent_message', messageId: 'm', content: [{ type: 'text', text: 'hi' }] }),
      ),
    ).toEqual([{ kind: 'message', role: 'agent', messageId: 'm', content: [{ type: 'text', text: 'hi' }] }]);
    const patch = [
      'diff --git a/src/a.ts b/src/a.ts',
      '--- a/src/a.ts',
      '+++ b/src/a.ts',
      '@@ -1 +1 @@',
      '-old',
      '+new',
      'diff --git a/b.txt b/c.txt',
      'rename from b.txt',
      'rename to c.txt',
      '',
    ].join('\n');
    const [update] = t.update(
      v2({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c',
        title: 'Edit',
        status: 'completed',
        capabilities: null,
        content: [
          {
            type: 'diff',
            changes: [
              { operation: 'modify', path: '/w/src/a.ts', fileType: 'text' },
              { operation: 'move', oldPath: '/w/b.txt', path: '/w/c.txt' },
            ],
            patch: { format: 'git_patch', text: patch },
          },
        ],
      }),
    );
    expect(update).toEqual({
      kind: 'tool_call',
      toolCallId: 'c',
      newInstance: false,
      patch: {
        title: 'Edit',
        status: 'completed',
        capabilities: null,
        content: [
          {
            type: 'file_change',
            path: '/w/src/a.ts',
            operation: 'modify',
            fileType: 'text',
            patch:
              'diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-old\n+new\n',
          },
          {
            type: 'file_change',
            path: '/w/c.txt',
            oldPath: '/w/b.txt',
            operation: 'move',
            patch: 'diff --git a/b.txt b/c.txt\nrename from b.txt\nrename to c.txt\n',
          },
        ],
      },
    });
  });

  it('feeds the store: a call with a cancellable agent terminal streaming into its card', () => {
    const t = new V2UpdateTranslator();
    const updates = [
      v2({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c',
        title: 'Serve',
        status: 'in_progress',
        content: [{ type: 'terminal', terminalId: 'T' }],
        capabilities: { cancel: {} },
      }),
      v2({
        sessionUpdate: 'terminal_update',
        terminalId: 'T',
        command: 'npm start',
        capabilities: { cancel: {} },
      }),
      v2({ sessionUpdate: 'terminal_output_chunk', terminalId: 'T', data: b64('listening\n') }),
      v2({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: [] } }),
      v2({ sessionUpdate: 'from_the_future', x: 1 }),
    ];
    const events: SessionEvent[] = updates.flatMap((u) =>
      t.update(u).map((update): SessionEvent => ({ type: 'update', at: 1, update })),
    );
    const state = reduceSessionEvents(initialSessionState('s', '/w'), events);
    const call = state.items.find((item): item is ToolCallItem => item.kind === 'tool_call') as ToolCallItem;
    expect(call).toMatchObject({ status: 'in_progress', capabilities: { cancel: true } });
    expect(toolCallTerminal(state, call, 'T')).toMatchObject({
      origin: 'agent',
      command: 'npm start',
      output: 'listening\n',
      capabilities: { cancel: true },
    });
    expect(state.unknownKinds).toEqual(['from_the_future']);
  });
});
