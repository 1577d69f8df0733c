/**
 * The live traffic of a session: the frames the connection routes to it, redacted, as they pass,
 * with a bounded buffer of recent ones — checked against the trace file the engine writes.
 */
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AcpClient } from '../client.js';
import { resolveClientPaths } from '../paths.js';
import type { TraceFrame } from '../persistence/trace.js';
import { fakeAgent, startFake, tempDir } from '../test-support/harness.js';
import { FrameFeed } from './frame-feed.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function dir(): Promise<string> {
  const { dir, cleanup } = await tempDir();
  cleanups.push(cleanup);
  return dir;
}

const frame = (t: number): TraceFrame => ({
  t,
  dir: 'in',
  frame: { jsonrpc: '2.0', method: 'x', params: { t } },
});
const methodOf = (f: TraceFrame): unknown => (f.frame as { method?: unknown }).method;

describe('FrameFeed', () => {
  it('keeps the newest frames within its count and byte budgets, and tells subscribers', () => {
    const feed = new FrameFeed(3, 100);
    const seen: number[] = [];
    const off = feed.subscribe((f) => seen.push(f.t));
    for (let t = 1; t <= 5; t++) feed.push(frame(t), 10);
    expect(feed.recent().map((f) => f.t)).toEqual([3, 4, 5]);
    feed.push(frame(6), 91);
    expect(feed.recent().map((f) => f.t)).toEqual([6]);
    feed.push(frame(7), 500);
    expect(feed.recent().map((f) => f.t)).toEqual([7]);
    off();
    feed.push(frame(8), 1);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
    feed.preload([{ frame: frame(9), size: 1 }]);
    expect(feed.recent().map((f) => f.t)).toEqual([8, 9]);
    expect(seen).toHaveLength(7);
  });
});

describe('session.onFrame', () => {
  it('delivers each frame of its own session as it passes, redacted, the same as trace.jsonl', async () => {
    const data = await dir();
    const { connection, transcripts } = await startFake(data);
    cleanups.push(() => connection.close(200));
    const session = await connection.newSession({ cwd: data });
    const other = await connection.newSession({ cwd: data });
    const live: TraceFrame[] = [];
    const off = session.onFrame((f) => live.push(f));
    await session.prompt('my key is sk-abcdefghijklmnopqrstuvwxyz0123');
    await other.prompt('not for the first session');
    off();
    expect(live.map((f) => [f.dir, methodOf(f) ?? 'response'])).toEqual([
      ['out', 'session/prompt'],
      ['in', 'session/update'],
      ['in', 'session/update'],
      ['in', 'response'],
    ]);
    expect(JSON.stringify(live)).not.toContain('sk-abcdefghijklmnopqrstuvwxyz0123');
    expect(JSON.stringify(live)).toContain('[redacted]');
    expect(JSON.stringify(live)).not.toContain('not for the first session');
    // The recent frames start with what came before the session (initialize) and its creation.
    const recent = session.recentFrames();
    expect(recent.slice(0, 2).map((f) => [f.dir, methodOf(f) ?? 'response'])).toEqual([
      ['out', 'initialize'],
      ['in', 'response'],
    ]);
    expect(recent.slice(-4)).toEqual(live);
    await session.close();
    const lines = (await readFile(join(transcripts.sessionDir(session.localId), 'trace.jsonl'), 'utf8'))
      .split('\n')
      .filter((line) => line !== '');
    expect(lines).toEqual(session.recentFrames().map((f) => JSON.stringify(f)));
  });

  it('works without recording or traces', async () => {
    const data = await dir();
    const { connection, transcripts } = await startFake(data, {}, { trace: false });
    cleanups.push(() => connection.close(200));
    const session = await connection.newSession({ cwd: data });
    const live: TraceFrame[] = [];
    session.onFrame((f) => live.push(f));
    await session.prompt('hello');
    expect(live.map(methodOf)).toContain('session/prompt');
    await expect(readFile(join(transcripts.sessionDir(session.localId), 'trace.jsonl'))).rejects.toThrow(
      /ENOENT/,
    );
  });

  it('starts with the end of the recorded trace when the session is reopened from disk', async () => {
    const root = await dir();
    const paths = resolveClientPaths({
      ACP_KIT_CONFIG_DIR: join(root, 'config'),
      ACP_KIT_DATA_DIR: join(root, 'data'),
    });
    const client = await AcpClient.create({ paths });
    cleanups.push(() => client.close());
    const connection = await client.connect(fakeAgent());
    const session = await connection.newSession({ cwd: root });
    await session.prompt('first run');
    const agentSessionId = session.agentSessionId as string;
    await session.close();
    const recorded = session.recentFrames();
    // A line torn by a crash is skipped.
    await appendFile(
      join(client.transcripts.sessionDir(session.localId), 'trace.jsonl'),
      '{"t":1,"dir":"in","fr',
    );
    const { session: reopened } = await client.loadStored(session.localId);
    cleanups.push(() => reopened.close());
    expect(reopened.recentFrames()).toEqual(recorded);
    const live: TraceFrame[] = [];
    reopened.onFrame((f) => live.push(f));
    await connection.reattach(reopened, { agentId: 'fake', agentSessionId });
    expect(live.map(methodOf)).toContain('session/resume');
    expect(reopened.recentFrames().slice(0, recorded.length)).toEqual(recorded);
  });
});
