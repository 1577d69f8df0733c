import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ByteChannel, ByteSink } from '../transport/types.js';
import { JsonRpcConnection } from './connection.js';
import { MAX_PACED_READ_BYTES, ReadPacer } from './read-pacing.js';

const encoder = new TextEncoder();
const notification = (n: number): Uint8Array =>
  encoder.encode(`${JSON.stringify({ jsonrpc: '2.0', method: 'update', params: { n } })}\n`);
const request = (id: number): Uint8Array =>
  encoder.encode(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'ask', params: {} })}\n`);

/** A channel the test feeds by hand, recording pause and resume. */
class HandChannel implements ByteChannel {
  sink: ByteSink | undefined;
  readonly calls: string[] = [];
  paused = false;
  readonly written: string[] = [];
  start(sink: ByteSink): void {
    this.sink = sink;
  }
  write(text: string): boolean {
    this.written.push(text);
    return true;
  }
  drain(): Promise<void> {
    return Promise.resolve();
  }
  pause(): void {
    this.paused = true;
    this.calls.push('pause');
  }
  resume(): void {
    this.paused = false;
    this.calls.push('resume');
  }
  close(): void {}
  /** Delivers a chunk as a stream would: never while paused. */
  read(chunk: Uint8Array): void {
    expect(this.paused, 'read while paused').toBe(false);
    this.sink?.data(chunk);
  }
}

describe('ReadPacer', () => {
  it('rests from the second quick notification-only read, not for requests, big reads or slow ones', () => {
    const pacer = new ReadPacer(50);
    expect(pacer.afterRead(true, 100, 0)).toBe(false);
    expect(pacer.afterRead(true, 100, 4)).toBe(true);
    // After a rest, what is read at once continues the streak.
    pacer.resumed(54);
    expect(pacer.afterRead(true, 100, 55)).toBe(true);
    // A request or a response ends it.
    expect(pacer.afterRead(false, 100, 60)).toBe(false);
    expect(pacer.afterRead(true, 100, 62)).toBe(false);
    expect(pacer.afterRead(true, 100, 64)).toBe(true);
    // A flood's big reads are never paced, nor the small reads right after them (the same flood,
    // read faster than it is written): resting would leave the writer blocked on a full pipe.
    expect(pacer.afterRead(true, MAX_PACED_READ_BYTES, 66)).toBe(false);
    expect(pacer.afterRead(true, 100, 67)).toBe(false);
    expect(pacer.afterRead(true, 100, 68)).toBe(false);
    expect(pacer.afterRead(true, MAX_PACED_READ_BYTES, 70)).toBe(false);
    expect(pacer.afterRead(true, 100, 119)).toBe(false);
    // Once the flood has slowed down, pacing is back.
    expect(pacer.afterRead(true, 100, 125)).toBe(false);
    expect(pacer.afterRead(true, 100, 130)).toBe(true);
    // Sparse updates (a quiet agent) are read as they come.
    expect(pacer.afterRead(true, 100, 1000)).toBe(false);
    expect(pacer.afterRead(true, 100, 1100)).toBe(false);
  });
});

describe('JsonRpcConnection coalesceReadsMs', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('rests reading while notifications stream, and every frame is still handled in order', async () => {
    const channel = new HandChannel();
    const connection = new JsonRpcConnection(channel, { coalesceReadsMs: 50 });
    const seen: number[] = [];
    connection.onNotification('update', (params) => void seen.push((params as { n: number }).n));
    connection.start();
    channel.read(notification(1));
    vi.advanceTimersByTime(4);
    channel.read(notification(2));
    expect(channel.calls).toEqual(['pause']);
    vi.advanceTimersByTime(49);
    expect(channel.paused).toBe(true);
    vi.advanceTimersByTime(1);
    expect(channel.calls).toEqual(['pause', 'resume']);
    // What waited in the pipe comes in one read; the stream goes on, so reading rests again.
    const batch = new Uint8Array([...notification(3), ...notification(4), ...notification(5)]);
    channel.read(batch);
    expect(channel.calls).toEqual(['pause', 'resume', 'pause']);
    await vi.runAllTimersAsync();
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    await connection.close();
  });

  it('never rests after a read holding a request, so an agent that asks and waits is not slowed', async () => {
    const channel = new HandChannel();
    const connection = new JsonRpcConnection(channel, { coalesceReadsMs: 50 });
    connection.onRequest('ask', () => ({ ok: true }));
    connection.start();
    for (let id = 1; id <= 5; id++) {
      channel.read(notification(id));
      channel.read(request(id));
      vi.advanceTimersByTime(1);
    }
    expect(channel.calls).toEqual([]);
    await vi.runAllTimersAsync();
    expect(channel.written.join('')).toContain('"id":5');
    await connection.close();
  });

  it('is off by default', () => {
    const channel = new HandChannel();
    const connection = new JsonRpcConnection(channel);
    connection.onNotification('update', () => undefined);
    connection.start();
    for (let n = 0; n < 10; n++) channel.read(notification(n));
    expect(channel.calls).toEqual([]);
    void connection.close();
  });

  it('does not resume reading that a full inbound queue paused', async () => {
    const channel = new HandChannel();
    const connection = new JsonRpcConnection(channel, { coalesceReadsMs: 50, maxQueuedInbound: 2 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const seen: number[] = [];
    connection.onNotification('update', async (params) => {
      seen.push((params as { n: number }).n);
      await gate;
    });
    connection.start();
    channel.read(new Uint8Array([...notification(1), ...notification(2)]));
    vi.advanceTimersByTime(1);
    // One running, three waiting (above 2): the queue pauses reading, and the streak rests it too.
    channel.read(new Uint8Array([...notification(3), ...notification(4), ...notification(5)]));
    expect(channel.paused).toBe(true);
    // The rest ends while the queue is still full: reading stays paused.
    vi.advanceTimersByTime(100);
    expect(channel.paused).toBe(true);
    release();
    await vi.runAllTimersAsync();
    expect(channel.paused).toBe(false);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    await connection.close();
  });
});
