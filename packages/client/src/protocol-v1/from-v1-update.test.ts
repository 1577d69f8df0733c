import { UNKNOWN_VARIANT, type SessionUpdate } from '@acp-kit/protocol';
import { describe, expect, it } from 'vitest';
import { fromV1Update, toolCallPatchFromV1 } from './from-v1-update.js';

const v1 = (update: Record<string, unknown>): SessionUpdate => update as unknown as SessionUpdate;

describe('fromV1Update', () => {
  it('maps chunks to message chunks of a role, keeping the id and the update `_meta`', () => {
    expect(
      fromV1Update(
        v1({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hm' }, _meta: { a: 1 } }),
      ),
    ).toEqual([
      { kind: 'message_chunk', role: 'thought', content: { type: 'text', text: 'hm' }, meta: { a: 1 } },
    ]);
    expect(
      fromV1Update(
        v1({ sessionUpdate: 'user_message_chunk', messageId: 'u1', content: { type: 'text', text: 'q' } }),
      ),
    ).toEqual([
      { kind: 'message_chunk', role: 'user', messageId: 'u1', content: { type: 'text', text: 'q' } },
    ]);
  });

  it('makes `tool_call` a new instance and `tool_call_update` a patch, null kept as a reset', () => {
    expect(
      fromV1Update(
        v1({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Run', kind: 'execute', _meta: { x: 1 } }),
      ),
    ).toEqual([
      {
        kind: 'tool_call',
        toolCallId: 't',
        newInstance: true,
        patch: { title: 'Run', kind: 'execute', meta: { x: 1 } },
      },
    ]);
    expect(
      fromV1Update(
        v1({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'failed', content: null }),
      ),
    ).toEqual([
      { kind: 'tool_call', toolCallId: 't', newInstance: false, patch: { status: 'failed', content: null } },
    ]);
    expect(toolCallPatchFromV1({ rawInput: { a: 1 }, rawOutput: null, name: 'bash' })).toEqual({
      rawInput: { a: 1 },
      rawOutput: null,
      name: 'bash',
    });
  });

  it('maps the session-level updates', () => {
    const entries = [{ content: 'a', priority: 'high', status: 'pending' }];
    expect(fromV1Update(v1({ sessionUpdate: 'plan', entries }))).toEqual([
      { kind: 'plan', planId: 'plan', entries },
    ]);
    expect(fromV1Update(v1({ sessionUpdate: 'current_mode_update', currentModeId: 'code' }))).toEqual([
      { kind: 'mode', currentModeId: 'code' },
    ]);
    expect(fromV1Update(v1({ sessionUpdate: 'session_info_update', title: null }))).toEqual([
      { kind: 'session_info', title: null },
    ]);
    expect(fromV1Update(v1({ sessionUpdate: 'usage_update', size: 10 }))).toEqual([
      { kind: 'usage', used: null, size: 10 },
    ]);
    expect(fromV1Update(v1({ sessionUpdate: 'available_commands_update', availableCommands: [] }))).toEqual([
      { kind: 'commands', commands: [] },
    ]);
  });

  it('turns the `_meta` terminal channel into terminal upserts and output of the call', () => {
    const updates = fromV1Update(
      v1({
        sessionUpdate: 'tool_call_update',
        toolCallId: 't',
        _meta: {
          terminal_info: { terminal_id: 'T', command: 'ls', cwd: '/w' },
          terminal_output: { terminal_id: 'T', data: 'a\n' },
          terminal_exit: { terminal_id: 'T', exit_code: 2, signal: null },
        },
      }),
    );
    expect(updates.slice(1)).toEqual([
      { kind: 'terminal', terminalId: 'T', owner: 'agent', toolCallId: 't', cwd: '/w', command: 'ls' },
      { kind: 'terminal_output', terminalId: 'T', toolCallId: 't', data: 'a\n' },
      {
        kind: 'terminal',
        terminalId: 'T',
        owner: 'agent',
        toolCallId: 't',
        exitStatus: { exitCode: 2, signal: null },
      },
    ]);
  });

  it('keeps a kind it does not know raw, parsed or read back from a record', () => {
    const raw = { sessionUpdate: 'from_the_future', x: 1 };
    expect(fromV1Update(v1(raw))).toEqual([
      { kind: 'unknown', version: 1, updateKind: 'from_the_future', raw },
    ]);
    const parsed = v1({ ...raw, [UNKNOWN_VARIANT]: true });
    expect(fromV1Update(parsed)[0]).toMatchObject({
      kind: 'unknown',
      version: 1,
      updateKind: 'from_the_future',
    });
  });
});
