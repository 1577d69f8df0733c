/**
 * Flow control in both directions: a slow consumer stops the reading (the peer then blocks in its
 * own writes), at most so many request handlers run at once, and a peer that does not read cannot
 * make us queue without bound.
 */
import { describe, expect, it } from 'vitest';
import { AcpKitError } from './errors.js';
import { connectToRawPeer, deferred, eventually } from './test-support/raw-peer.js';

const update = (seq: number, pad = 0) => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: { seq, text: 'x'.repeat(pad) },
});

describe('inbound backpressure', () => {
  it('pauses reading while a slow handler holds more than maxQueuedInboundBytes, resumes, and loses nothing', async () => {
    const { connection, peer, local } = connectToRawPeer({ maxQueuedInboundBytes: 4096 });
    const paused: boolean[] = [];
    const pause = local.pause.bind(local);
    const resume = local.resume.bind(local);
    local.pause = () => (paused.push(true), pause());
    local.resume = () => (paused.push(false), resume());
    const seen: number[] = [];
    let gate = deferred();
    connection.onNotification('session/update', (params) => {
      seen.push((params as { seq: number }).seq);
      // The consumer is stalled for the first 10 messages.
      return seen.length <= 10 ? gate.promise : undefined;
    });
    connection.start();
    for (let seq = 0; seq < 200; seq++) peer.send(update(seq, 200));
    await eventually(() => paused.length > 0);
    expect(paused).toEqual([true]);
    expect(seen).toEqual([0]);
    for (let i = 0; i < 10; i++) {
      const current = gate;
      gate = deferred();
      current.resolve();
      await eventually(() => seen.length >= i + 2 || seen.length === 200);
    }
    await eventually(() => seen.length === 200);
    expect(paused).toContain(false);
    expect(seen).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it('runs at most maxConcurrentRequests request handlers at once; later requests wait their turn', async () => {
    const { connection, peer } = connectToRawPeer({ maxConcurrentRequests: 3 });
    const running = new Map<number, () => void>();
    let most = 0;
    connection.onRequest('work', (params) => {
      const n = (params as { n: number }).n;
      return new Promise<number>((resolve) => {
        running.set(n, () => {
          running.delete(n);
          resolve(n);
        });
        most = Math.max(most, running.size);
      });
    });
    connection.start();
    for (let n = 0; n < 10; n++) peer.send({ jsonrpc: '2.0', id: n, method: 'work', params: { n } });
    await eventually(() => running.size === 3);
    for (let answered = 0; answered < 10; answered++) {
      await eventually(() => running.size > 0);
      const [first] = [...running.keys()];
      running.get(first as number)?.();
      await peer.waitForFrames(answered + 1);
    }
    expect(most).toBe(3);
    expect(peer.frames.map((frame) => frame.result)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe('outbound bound', () => {
  it('fails request() and notify() at once with OUTBOUND_BUFFER_FULL past maxOutboundBytes, still answers the peer', async () => {
    // The peer reads nothing: what we write stays buffered in the channel.
    const { connection, peer, remote } = connectToRawPeer(
      { maxOutboundBytes: 64 * 1024 },
      { highWaterMark: 1024 },
    );
    remote.pause();
    connection.onRequest('ping', () => 'pong');
    connection.start();
    const big = { data: 'y'.repeat(10 * 1024) };
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        Promise.race([
          connection.request('take', big).catch((error: unknown) => error),
          new Promise((resolve) => setImmediate(() => resolve('queued'))),
        ]),
      ),
    );
    const refused = outcomes.filter((o) => o instanceof AcpKitError && o.code === 'OUTBOUND_BUFFER_FULL');
    expect(outcomes.slice(0, 6)).toEqual(Array(6).fill('queued'));
    expect(refused.length).toBeGreaterThan(10);
    expect((refused[0] as AcpKitError).message).toContain('is not reading its input');
    await expect(connection.notify('note', big)).rejects.toMatchObject({ code: 'OUTBOUND_BUFFER_FULL' });
    expect(remote.bufferedAmount).toBe(0);
    // Answers to the peer's own requests are never refused.
    peer.send({ jsonrpc: '2.0', id: 'p1', method: 'ping' });
    remote.resume();
    const frames = await peer.waitForFrames(7);
    expect(frames.at(-1)).toMatchObject({ id: 'p1', result: 'pong' });
  });
});
