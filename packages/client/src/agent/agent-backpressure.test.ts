/**
 * A host that cannot keep up pushes back on a flooding agent: while its backpressure source holds,
 * the engine stops reading the agent's stdout (the agent blocks in its own writes), and once it
 * lets go, every update arrives, in order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LogLevel, SessionNotification } from '@acp-kit/protocol';
import { TraceWriter } from '../persistence/trace.js';
import { TranscriptStore } from '../persistence/transcript-store.js';
import { script, startFake, tempDir } from '../test-support/harness.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('AgentConnection.addBackpressure', () => {
  it('pauses reading while the host is backed up, resumes, and loses or reorders nothing', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const logs: { level: LogLevel; message: string }[] = [];
    const { connection } = await startFake(
      dir,
      {},
      { logger: { log: (level, message) => logs.push({ level, message }) } },
    );
    cleanups.push(() => connection.close(200));
    const session = await connection.newSession({ cwd: dir });
    const seen: number[] = [];
    connection.events.on('update', (params: SessionNotification) => {
      const text = (params.update as { content?: { text?: string } }).content?.text ?? '';
      const match = /^x(\d+) $/.exec(text);
      if (match) seen.push(Number(match[1]));
    });
    let release: (() => void) | undefined;
    let held = true;
    // The host stalls once it has seen 100 updates, until released.
    connection.addBackpressure(() => {
      if (!held || seen.length < 100) return undefined;
      return new Promise<void>((resolve) => (release = resolve));
    });
    const turn = session.prompt(script([{ flood: 20_000 }]));
    while (!logs.some((entry) => entry.message === 'inbound queue full, pausing reads'))
      await new Promise((resolve) => setTimeout(resolve, 10));
    // Paused: far fewer updates than the agent wrote have been handled.
    expect(seen.length).toBeLessThan(20_000);
    held = false;
    release?.();
    await expect(turn).resolves.toMatchObject({ stopReason: 'end_turn' });
    expect(seen).toEqual(Array.from({ length: 20_000 }, (_, i) => i));
  });
});

describe('recording pressure', () => {
  it('a trace or transcript file that lags far behind asks the producer to wait, then lets go', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const trace = await TraceWriter.open(dir);
    const now = new Date().toISOString();
    const transcript = await new TranscriptStore(dir).create({
      version: 1,
      localId: 'l1',
      cwd: dir,
      additionalDirectories: [],
      createdAt: now,
      updatedAt: now,
      turns: 0,
      attachments: [],
    });
    const line = `${JSON.stringify({ t: 0, dir: 'in', frame: { text: 'x'.repeat(1000) } })}\n`;
    expect(trace.pressure()).toBeUndefined();
    // 2 MiB queued in one go: more than the writers may hold before the producer waits.
    for (let i = 0; i < 2048; i++) {
      trace.write(line);
      transcript.append({ type: 'title_set', at: i, title: 'x'.repeat(1000) });
    }
    const waits = [trace.pressure(), transcript.pressure()];
    expect(waits.every((wait) => wait instanceof Promise)).toBe(true);
    await Promise.all(waits);
    expect(trace.pressure()).toBeUndefined();
    expect(transcript.pressure()).toBeUndefined();
    await trace.close();
    await transcript.close();
  });
});
