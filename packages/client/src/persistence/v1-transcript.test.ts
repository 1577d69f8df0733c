/**
 * A session recorded before the neutral model (meta `version: 1`, events holding v1 wire updates)
 * still opens, through the v1 face, as it was shown; appending to it writes neutral events and
 * marks the record version 2, and the mixed record still reads.
 */
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageItem, ToolCallItem } from '../session/state.js';
import { toolCallTerminal } from '../session/tool-terminals.js';
import { tempDir } from '../test-support/harness.js';
import { TRANSCRIPT_VERSION, TranscriptStore } from './transcript-store.js';

const FIXTURE = fileURLToPath(new URL('../test-support/fixtures/v1-transcript', import.meta.url));

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await cp(FIXTURE, dir, { recursive: true });
});
afterEach(() => cleanup());

describe('a v1 transcript on disk', () => {
  it('opens with every item as the v1 client showed it', async () => {
    const store = new TranscriptStore(dir);
    expect((await store.list()).map((meta) => [meta.localId, meta.version])).toEqual([['s-v1fixture', 1]]);
    const { state, skippedLines } = await store.loadState('s-v1fixture');
    expect(skippedLines).toBe(0);
    expect(state.status).toBe('idle');
    expect(state.lastStopReason).toBe('end_turn');
    expect(state.title).toBe('Fix the parser');
    expect(state.modes?.currentModeId).toBe('ask');
    expect(state.commands.map((c) => c.name)).toEqual(['test']);
    expect(state.usage).toEqual({ used: 1200, size: 200000, cost: { amount: 0.01, currency: 'USD' } });
    expect(state.unknownKinds).toEqual(['future_update_kind']);
    expect(state.items.map((item) => item.kind)).toEqual([
      'attached',
      'message',
      'message',
      'tool_call',
      'tool_call',
      'permission',
      'tool_call',
      'message',
      'unknown',
      'stop',
    ]);
    const messages = state.items.filter((item): item is MessageItem => item.kind === 'message');
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ['user', [{ type: 'text', text: 'Why does the parser fail?' }]],
      ['thought', [{ type: 'text', text: 'Reading the parser first.' }]],
      ['agent', [{ type: 'text', text: 'The parser used eval; it uses JSON.parse now.' }]],
    ]);
    // 12 update lines, one of them 3 merged chunks, and 3 terminal updates from `_meta`.
    expect(state.updateCount).toBe(12 + 2 + 3);
    const calls = state.items.filter((item): item is ToolCallItem => item.kind === 'tool_call');
    expect(calls.map((c) => [c.toolCallId, c.status, c.announced])).toEqual([
      ['read-1', 'completed', true],
      ['edit-1', 'completed', false],
      ['run-1', 'completed', true],
    ]);
    // The permission request's tool call kept its `_meta` and its diff's place in the file.
    const edit = calls[1] as ToolCallItem;
    expect(edit.meta).toEqual({ claudeCode: { toolName: 'Edit' } });
    expect(edit.allowed).toBe(true);
    expect(edit.diffPlacements).toEqual([{ line: 12, wholeFile: false, atEnd: false }]);
    // The `_meta` terminal channel became the call's agent-owned terminal.
    expect(toolCallTerminal(state, calls[2] as ToolCallItem, 'T1')).toMatchObject({
      origin: 'agent',
      command: 'npm test',
      cwd: '/work/project',
      output: 'PASS parse.test.ts\n',
      exitStatus: { exitCode: 0, signal: null },
    });
    const unknown = state.items.find((item) => item.kind === 'unknown');
    expect(unknown).toMatchObject({ version: 1, updateKind: 'future_update_kind' });
  });

  it('takes neutral events after it, and reads both kinds of line', async () => {
    const store = new TranscriptStore(dir);
    const writer = await store.append('s-v1fixture');
    writer.append({ type: 'prompt', at: 2, turn: 2, prompt: [{ type: 'text', text: 'Thanks' }] });
    writer.append({
      type: 'update',
      at: 3,
      update: {
        kind: 'message_chunk',
        role: 'agent',
        messageId: 'm9',
        content: { type: 'text', text: 'Welcome' },
      },
    });
    writer.append({ type: 'turn_end', at: 4, turn: 2, stopReason: 'end_turn' });
    await writer.updateMeta({ turns: 2 });
    await writer.close();
    const meta = JSON.parse(await readFile(join(dir, 's-v1fixture', 'meta.json'), 'utf8')) as {
      version: number;
    };
    expect(meta.version).toBe(TRANSCRIPT_VERSION);
    const { state } = await store.loadState('s-v1fixture');
    const last = state.items.filter((item): item is MessageItem => item.kind === 'message').at(-1);
    expect(last).toMatchObject({ role: 'agent', messageId: 'm9', turn: 2 });
    expect(state.items.filter((item) => item.kind === 'tool_call')).toHaveLength(3);
  });
});
