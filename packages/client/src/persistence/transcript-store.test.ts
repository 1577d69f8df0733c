import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../session/events.js';
import { reduceSessionEvents } from '../session/reducer.js';
import { initialSessionState } from '../session/state.js';
import { storedMeta, tempDir } from '../test-support/harness.js';
import { LONG_TEXT_CHARS } from '../util/append-texts.js';
import { stringifyJson } from '../util/stringify-json.js';
import { redactReplacer, redactString, redactValue, REDACTED } from './redact.js';
import { TraceRouter, TraceWriter } from './trace.js';
import { TranscriptStore } from './transcript-store.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

const meta = storedMeta;
const chunk = (text: string): SessionEvent => ({
  type: 'update',
  at: 1,
  update: { kind: 'message_chunk', role: 'agent', content: { type: 'text', text } },
});

describe('TranscriptStore', () => {
  it('appends events and rebuilds the same state; ephemeral events are not written', async () => {
    const store = new TranscriptStore(dir);
    const writer = await store.create(meta('s-1'));
    const events: SessionEvent[] = [
      { type: 'prompt', at: 1, turn: 1, prompt: [{ type: 'text', text: 'q' }] },
      chunk('a'),
      chunk('b'),
      { type: 'turn_end', at: 2, turn: 1, stopReason: 'end_turn' },
    ];
    for (const event of events) writer.append(event);
    writer.append({ type: 'stalled', at: 1, silentMs: 5 });
    writer.append({ type: 'terminal_output', at: 1, terminalId: 't', data: 'x' });
    await writer.close();
    const loaded = await store.load('s-1');
    // Consecutive text chunks of one message are stored as one event.
    expect(loaded.events).toEqual([events[0], { ...chunk('ab'), merged: 2 }, events[3]]);
    const { state } = await store.loadState('s-1');
    expect(state).toEqual(reduceSessionEvents(initialSessionState('s-1', '/p'), events));
  });

  it('merges only plain text chunks of the same message, and keeps everything else apart', async () => {
    const store = new TranscriptStore(dir);
    const writer = await store.create(meta('s-merge'));
    const text = (
      role: 'agent' | 'thought',
      value: string,
      messageId?: string,
      extra: Record<string, unknown> = {},
    ): SessionEvent => ({
      type: 'update',
      at: 1,
      update: {
        kind: 'message_chunk',
        role,
        ...(messageId !== undefined ? { messageId } : {}),
        content: { type: 'text', text: value, ...extra },
      },
    });
    const events: SessionEvent[] = [
      text('agent', 'a', 'm1'),
      text('agent', 'b', 'm1'),
      text('agent', 'c', 'm2'),
      text('thought', 'd', 'm2'),
      text('thought', 'e', 'm2', { annotations: { priority: 1 } }),
      text('agent', 'f'),
      {
        type: 'update',
        at: 1,
        update: {
          kind: 'message_chunk',
          role: 'agent',
          content: { type: 'image', data: 'AA==', mimeType: 'image/png' },
        },
      },
      text('agent', 'g'),
      text('agent', 'h'),
    ];
    for (const event of events) writer.append(event);
    await writer.close();
    const loaded = await store.load('s-merge');
    expect(loaded.events).toEqual([
      { ...text('agent', 'ab', 'm1'), merged: 2 },
      events[2],
      events[3],
      events[4],
      events[5],
      events[6],
      { ...text('agent', 'gh'), merged: 2 },
    ]);
    const { state } = await store.loadState('s-merge');
    expect(state).toEqual(reduceSessionEvents(initialSessionState('s-merge', '/p'), events));
  });

  it('writes a long chunk as a line of its own, exactly as serialising the event would (redacted)', async () => {
    const store = new TranscriptStore(dir);
    const writer = await store.create(meta('s-long'));
    const body = 'a "quoted" line\\ with\ttabs\n\u0001 😀 and a key sk-abcdefghijklmnopqrstu! '
      .repeat(Math.ceil((2.5 * LONG_TEXT_CHARS) / 70))
      .concat('\ud800');
    const long: SessionEvent = {
      type: 'update',
      at: 3,
      update: {
        kind: 'message_chunk',
        role: 'agent',
        messageId: 'm"1',
        content: { type: 'text', text: body },
      },
    };
    const plain = {
      ...long,
      at: 4,
      update: { ...long.update, content: { type: 'text', text: 'x'.repeat(LONG_TEXT_CHARS) } },
    } as SessionEvent;
    // Short chunks of the same message first: written merged, before the long one (never joined to it).
    writer.append({
      ...long,
      update: { ...long.update, content: { type: 'text', text: 'a' } },
    } as SessionEvent);
    writer.append({
      ...long,
      update: { ...long.update, content: { type: 'text', text: 'b' } },
    } as SessionEvent);
    writer.append(long);
    writer.append(plain);
    await writer.close();
    const lines = (await readFile(join(dir, 's-long', 'events.jsonl'), 'utf8')).split('\n');
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ merged: 2, update: { content: { text: 'ab' } } });
    expect(lines[1]).toBe(stringifyJson(long, redactReplacer));
    expect((JSON.parse(lines[1] as string) as typeof long).update).toMatchObject({
      content: { text: redactString(body) },
    });
    expect(lines[1]).not.toContain('sk-abcdefghijklmnopqrstu');
    expect(lines[2]).toBe(stringifyJson(plain));
    expect(lines[3]).toBe('');
  });

  it('survives a torn last line: skipped on read, cut before the next append', async () => {
    const store = new TranscriptStore(dir);
    const writer = await store.create(meta('s-2'));
    writer.append(chunk('kept'));
    await writer.close();
    await appendFile(join(dir, 's-2', 'events.jsonl'), '{"type":"update","at":1,"upd');
    expect((await store.load('s-2')).skippedLines).toBe(1);
    const again = await store.append('s-2');
    again.append(chunk(' and more'));
    await again.close();
    const loaded = await store.load('s-2');
    expect(loaded.skippedLines).toBe(0);
    expect(loaded.events).toEqual([chunk('kept'), chunk(' and more')]);
  });

  it('closes a turn the client was killed in as failed', async () => {
    const store = new TranscriptStore(dir);
    const writer = await store.create(meta('s-3'));
    writer.append({ type: 'prompt', at: 1, turn: 1, prompt: [] });
    writer.append({
      type: 'update',
      at: 1,
      update: {
        kind: 'tool_call',
        toolCallId: 't',
        newInstance: true,
        patch: { title: 'T', status: 'in_progress' },
      },
    });
    await writer.close();
    const { state } = await store.loadState('s-3');
    expect(state.status).toBe('disconnected');
    expect(state.items.find((i) => i.kind === 'tool_call')).toMatchObject({ clientStatus: 'failed' });
  });

  it('lists, finds by prefix or agent id, and deletes; rejects path tricks in ids', async () => {
    const store = new TranscriptStore(dir);
    await (
      await store.create(
        meta('s-aaa1', { updatedAt: '2025-01-02T00:00:00.000Z', agentSessionId: 'agent-xyz' }),
      )
    ).close();
    await (await store.create(meta('s-bbb2'))).close();
    expect((await store.list()).map((m) => m.localId)).toEqual(['s-aaa1', 's-bbb2']);
    expect((await store.find('s-b'))?.localId).toBe('s-bbb2');
    await expect(store.find('s-')).rejects.toThrow(
      /s- matches 2 sessions \(s-aaa1, s-bbb2\): give more of the id/,
    );
    expect(await store.find('s-zzz')).toBeUndefined();
    expect((await store.find('agent-xyz'))?.localId).toBe('s-aaa1');
    expect(await store.delete('s-bbb2')).toBe(true);
    expect(await store.delete('s-bbb2')).toBe(false);
    expect(() => store.sessionDir('../../etc')).toThrow(/invalid session id/);
    expect(() => store.sessionDir('..')).toThrow(/invalid session id/);
  });

  it('skips entries whose meta is not readable', async () => {
    const store = new TranscriptStore(dir);
    await (await store.create(meta('s-ok'))).close();
    await writeFile(join(dir, 's-ok', 'meta.json'), '{not json');
    expect(await store.list()).toEqual([]);
  });
});

describe('traces', () => {
  it('redacts env values, header values, credential fields and token-looking strings', () => {
    const frame = {
      method: 'session/new',
      params: {
        mcpServers: [
          {
            name: 'gh',
            command: 'x',
            args: [],
            env: [{ name: 'GITHUB_TOKEN', value: 'ghp_abcdefghijklmnopqrstuvwxyz0123' }],
          },
          {
            type: 'http',
            name: 'h',
            url: 'https://x',
            headers: [{ name: 'Authorization', value: 'Bearer abc.def.ghi-123456' }],
          },
        ],
        _meta: { apiKey: 'plain-secret', note: 'use sk-ant-REDACTME1234567890abcdef please', inputTokens: 5 },
      },
    };
    const out = JSON.stringify(redactValue(frame));
    expect(out).not.toMatch(/ghp_|plain-secret|REDACTME|abc\.def/);
    expect(out).toContain('"GITHUB_TOKEN"');
    expect(out).toContain('"inputTokens":5');
    expect(out.split(REDACTED).length - 1).toBe(4);
  });

  it('routes frames to session traces (responses by request id, early frames kept)', async () => {
    const store = new TranscriptStore(dir);
    await (await store.create(meta('s-t'))).close();
    const router = new TraceRouter();
    router.frame('out', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }));
    router.frame('in', JSON.stringify({ jsonrpc: '2.0', id: 1, result: { protocolVersion: 1 } }));
    router.frame(
      'in',
      JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'A', update: {} } }),
    );
    const writer = await TraceWriter.open(store.sessionDir('s-t'));
    router.attach('A', writer);
    router.frame(
      'out',
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'session/prompt',
        params: { sessionId: 'A', prompt: [] },
      }),
    );
    router.frame(
      'out',
      JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'session/prompt',
        params: { sessionId: 'B', prompt: [] },
      }),
    );
    router.frame('in', JSON.stringify({ jsonrpc: '2.0', id: 2, result: { stopReason: 'end_turn' } }));
    router.frame('in', 'not json at all');
    await writer.close();
    const lines = (await readFile(join(dir, 's-t', 'trace.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(
      lines.map((l) => [l.dir, l.frame.method ?? l.frame.result?.stopReason ?? l.frame.raw ?? 'result']),
    ).toEqual([
      ['out', 'initialize'],
      ['in', 'result'],
      ['in', 'session/update'],
      ['out', 'session/prompt'],
      ['in', 'end_turn'],
      ['in', 'not json at all'],
    ]);
  });

  it('records a frame known only by its value (a long line parsed without its text) like any frame', async () => {
    const store = new TranscriptStore(dir);
    await (await store.create(meta('s-p'))).close();
    const router = new TraceRouter();
    const writer = await TraceWriter.open(store.sessionDir('s-p'));
    router.attach('A', writer);
    const text = `${'x'.repeat(79)}\n`.repeat(1000);
    router.parsedFrame('in', {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 'A', update: { content: { type: 'text', text }, token: 'sk-secret' } },
    });
    router.parsedFrame('in', { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'B' } });
    await writer.close();
    const lines = (await readFile(join(dir, 's-p', 'trace.jsonl'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0] as string) as {
      dir: string;
      frame: { params: { update: { content: { text: string }; token: string } } };
    };
    expect(record.dir).toBe('in');
    // Cut as the trace cuts every long string; the credential field redacted.
    expect(record.frame.params.update.content.text).toBe(
      `${text.slice(0, 16 * 1024)}…[${text.length} characters]`,
    );
    expect(record.frame.params.update.token).toBe(REDACTED);
  });
});
