import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionUpdate } from '@acp-kit/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { v1UpdateEvents } from '../protocol-v1/v1-events.js';
import type { SessionEvent } from '../session/events.js';
import { reduceSessionEvents } from '../session/reducer.js';
import { initialSessionState } from '../session/state.js';
import { storedMeta, tempDir } from '../test-support/harness.js';
import { CHECKPOINT_FILE, CHECKPOINT_MIN_BYTES, CHECKPOINT_MIN_LINES } from './checkpoint.js';
import { TranscriptStore } from './transcript-store.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

const meta = storedMeta;
/** A v1 update as the client records it: translated by the v1 face (each of these is one event). */
const update = (u: Record<string, unknown>, at = 1): SessionEvent => {
  const [event] = v1UpdateEvents(u as unknown as SessionUpdate, at);
  if (!event) throw new Error(`no event for ${String(u.sessionUpdate)}`);
  return event;
};

/**
 * Turns of a working session: a prompt, streamed chunks of one message, a tool call answered
 * later, a permission, a terminal, a plan, usage; every 7th turn is cancelled with its tool call
 * open. About 1.3 KB a turn.
 */
function turns(from: number, count: number): SessionEvent[] {
  const events: SessionEvent[] = [];
  for (let turn = from; turn < from + count; turn++) {
    events.push({ type: 'prompt', at: turn, turn, prompt: [{ type: 'text', text: `Turn ${turn}` }] });
    for (let i = 0; i < 6; i++)
      events.push(
        update({
          sessionUpdate: 'agent_message_chunk',
          messageId: `m${turn}`,
          content: { type: 'text', text: `part ${i} of **turn ${turn}** ` },
        }),
      );
    events.push(
      update({ sessionUpdate: 'tool_call', toolCallId: `t${turn}`, title: `Edit f${turn}`, kind: 'edit' }),
    );
    const request = {
      key: `p${turn}`,
      source: 'permission_request' as const,
      kind: 'edit',
      paths: [`/p/f${turn}`],
      outsideRoots: false,
      secret: false,
      reason: 'asks',
    };
    events.push({ type: 'permission_requested', at: turn, request });
    events.push({ type: 'permission_resolved', at: turn, key: `p${turn}`, decision: 'allow', by: 'user' });
    if (turn % 7 === 0) {
      events.push({ type: 'cancel_requested', at: turn, turn });
      events.push({ type: 'turn_end', at: turn, turn, stopReason: 'cancelled' });
      continue;
    }
    events.push({ type: 'terminal_started', at: turn, terminalId: `x${turn}`, command: 'ls', cwd: '/p' });
    events.push({
      type: 'terminal_exited',
      at: turn,
      terminalId: `x${turn}`,
      exitStatus: { exitCode: 0, signal: null },
      output: 'a\nb\n'.repeat(50),
      truncated: false,
    });
    events.push(
      update({
        sessionUpdate: 'tool_call_update',
        toolCallId: `t${turn}`,
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: 'y'.repeat(300) } }],
      }),
    );
    events.push(
      update({ sessionUpdate: 'plan', entries: [{ content: 'x', priority: 'high', status: 'pending' }] }),
    );
    events.push(update({ sessionUpdate: 'usage_update', used: turn, size: 1000 }));
    events.push({ type: 'turn_end', at: turn, turn, stopReason: 'end_turn' });
  }
  return events;
}

/** Turns making at least `bytes` of record. */
const enough = (bytes: number) => Math.ceil(bytes / 1000);

async function record(store: TranscriptStore, localId: string, events: SessionEvent[]) {
  const writer = await store.create(meta(localId));
  for (const event of events) writer.append(event);
  await writer.close();
}

/** The state a full replay of the record gives (what reopening gave before checkpoints). */
async function fullReplay(store: TranscriptStore, localId: string) {
  const { events } = await store.load(localId);
  return reduceSessionEvents(initialSessionState(localId, '/p'), events);
}

describe('checkpoints of a record', () => {
  it('a long record is checkpointed when closed, and reopening from it gives the state of a full replay', async () => {
    const store = new TranscriptStore(dir);
    await record(store, 's-1', turns(1, enough(CHECKPOINT_MIN_BYTES * 1.5)));
    const { state, record: read } = await store.loadState('s-1');
    const size = (await readFile(join(dir, 's-1', 'events.jsonl'))).length;
    expect(read.checkpointBytes).toBe(size);
    expect(state).toEqual(await fullReplay(store, 's-1'));
  });

  it('a short record gets none: replaying it is cheap', async () => {
    const store = new TranscriptStore(dir);
    await record(store, 's-1', turns(1, 20));
    await expect(readFile(join(dir, 's-1', CHECKPOINT_FILE))).rejects.toThrow(/ENOENT/);
    const { state, record: read } = await store.loadState('s-1');
    expect(read.checkpointBytes).toBe(0);
    expect(state).toEqual(await fullReplay(store, 's-1'));
  });

  it('a record of a few huge lines gets none (replaying it costs what reading one would), until enough lines follow', async () => {
    const store = new TranscriptStore(dir);
    const big = (turn: number): SessionEvent[] => [
      { type: 'prompt', at: turn, turn, prompt: [{ type: 'text', text: 'go' }] },
      update({
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: 'z'.repeat(CHECKPOINT_MIN_BYTES) },
      }),
      { type: 'turn_end', at: turn, turn, stopReason: 'end_turn' },
    ];
    await record(store, 's-1', [...big(1), ...big(2)]);
    await expect(readFile(join(dir, 's-1', CHECKPOINT_FILE))).rejects.toThrow(/ENOENT/);
    let loaded = await store.loadState('s-1');
    expect(loaded.record.checkpointBytes).toBe(0);
    expect(loaded.state).toEqual(await fullReplay(store, 's-1'));

    // Lines read back count with the ones appended: past the minimum, the checkpoint is made.
    const writer = await store.append('s-1', loaded.record);
    for (const event of turns(3, Math.ceil(CHECKPOINT_MIN_LINES / 8))) writer.append(event);
    await writer.close();
    loaded = await store.loadState('s-1');
    expect(loaded.record.checkpointBytes).toBe((await readFile(join(dir, 's-1', 'events.jsonl'))).length);
    expect(loaded.state).toEqual(await fullReplay(store, 's-1'));
  });

  it('events appended after it are replayed onto it; a new one is made once enough were appended', async () => {
    const store = new TranscriptStore(dir);
    const size = () => readFile(join(dir, 's-1', 'events.jsonl')).then((b) => b.length);
    await record(store, 's-1', turns(1, enough(CHECKPOINT_MIN_BYTES * 1.2)));
    const first = await size();

    // Reopened, a few turns, closed: the checkpoint stays where it was.
    let { record: read } = await store.loadState('s-1');
    let writer = await store.append('s-1', read);
    for (const event of turns(5000, 30)) writer.append(event);
    await writer.close();
    let loaded = await store.loadState('s-1');
    expect(loaded.record.checkpointBytes).toBe(first);
    expect(loaded.state).toEqual(await fullReplay(store, 's-1'));

    // Reopened again, a long stretch: checkpointed at the new end.
    ({ record: read } = await store.loadState('s-1'));
    writer = await store.append('s-1', read);
    for (const event of turns(6000, enough(CHECKPOINT_MIN_BYTES * 1.2))) writer.append(event);
    await writer.close();
    loaded = await store.loadState('s-1');
    expect(loaded.record.checkpointBytes).toBe(await size());
    expect(loaded.state).toEqual(await fullReplay(store, 's-1'));
  });

  it('is not used once the record no longer starts with what it covered', async () => {
    const store = new TranscriptStore(dir);
    const events = turns(1, enough(CHECKPOINT_MIN_BYTES * 1.2));
    await record(store, 's-1', events);
    const file = join(dir, 's-1', 'events.jsonl');
    const original = await readFile(file, 'utf8');

    // Replaced by another record (here: the same one, its last tool output changed).
    const cut = original.length - 2000;
    await writeFile(file, original.slice(0, cut) + original.slice(cut).replaceAll('yyyyy', 'zzzzz'));
    let loaded = await store.loadState('s-1');
    expect(loaded.record.checkpointBytes).toBe(0);
    expect(loaded.state).toEqual(await fullReplay(store, 's-1'));

    // Cut shorter than what it covered.
    await writeFile(file, original.slice(0, original.length / 2).replace(/[^\n]*$/, ''));
    loaded = await store.loadState('s-1');
    expect(loaded.record.checkpointBytes).toBe(0);
    // (It ends in the middle of a turn, which loadState closes: compare the record's state.)
    expect(loaded.record.state).toEqual(await fullReplay(store, 's-1'));
  });

  it('is not used when made by another state version, or unreadable', async () => {
    const store = new TranscriptStore(dir);
    await record(store, 's-1', turns(1, enough(CHECKPOINT_MIN_BYTES * 1.2)));
    const path = join(dir, 's-1', CHECKPOINT_FILE);
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace(/"stateVersion":\d+/, '"stateVersion":0'));
    expect((await store.loadState('s-1')).record.checkpointBytes).toBe(0);
    await writeFile(path, text.slice(0, text.length / 2));
    const loaded = await store.loadState('s-1');
    expect(loaded.record.checkpointBytes).toBe(0);
    expect(loaded.state).toEqual(await fullReplay(store, 's-1'));
  });

  it('after a crash: a torn last line is left out, a turn left open is closed (but not in the record state)', async () => {
    const store = new TranscriptStore(dir);
    await record(store, 's-1', turns(1, enough(CHECKPOINT_MIN_BYTES * 1.2)));
    const file = join(dir, 's-1', 'events.jsonl');
    await appendFile(
      file,
      `${JSON.stringify({ type: 'prompt', at: 9, turn: 9999, prompt: [] })}\n{"type":"upd`,
    );
    const loaded = await store.loadState('s-1');
    expect(loaded.skippedLines).toBe(1);
    expect(loaded.record.checkpointBytes).toBeGreaterThan(0);
    expect(loaded.record.state.status).toBe('running');
    expect(loaded.state.status).toBe('disconnected');
    expect(loaded.state.items.at(-1)).toMatchObject({ kind: 'error', error: { code: 'INTERRUPTED' } });
    // Appending again starts a clean line after the cut.
    const writer = await store.append('s-1', loaded.record);
    writer.append({ type: 'turn_end', at: 10, turn: 9999, stopReason: 'end_turn' });
    await writer.close();
    const again = await store.loadState('s-1');
    expect(again.skippedLines).toBe(0);
    expect(again.state).toEqual(await fullReplay(store, 's-1'));
  });

  it('holds only what the record holds: no credential the record left out', async () => {
    const store = new TranscriptStore(dir);
    const secret = 'sk-ant-api03-checkpointCanary0123456789abcdef';
    const events = turns(1, enough(CHECKPOINT_MIN_BYTES * 1.2));
    events.push(
      update({
        sessionUpdate: 'tool_call',
        toolCallId: 'env',
        title: 'run',
        rawInput: { command: 'deploy', env: { ANTHROPIC_API_KEY: secret } },
      }),
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `key ${secret}` } }),
    );
    await record(store, 's-1', events);
    const checkpoint = await readFile(join(dir, 's-1', CHECKPOINT_FILE), 'utf8');
    expect(checkpoint).not.toContain(secret);
    expect(checkpoint).not.toContain('checkpointCanary');
  });
});
