/** Rules 5 and 6: the ordered inbound queue, and flow control in both directions. */
import { describe, expect, it, vi } from 'vitest';
import { connectPair, connectToRawPeer, deferred, eventually } from './test-support/raw-peer.js';

describe('inbound ordering', () => {
  it('awaits an async notification handler before the next message', async () => {
    const { connection, peer } = connectToRawPeer();
    const gate = deferred();
    const events: string[] = [];
    connection.onNotification('first', async () => {
      events.push('first:start');
      await gate.promise;
      events.push('first:end');
    });
    connection.onNotification('second', () => void events.push('second'));
    connection.start();
    peer.send({ jsonrpc: '2.0', method: 'first' });
    peer.send({ jsonrpc: '2.0', method: 'second' });
    await eventually(() => events.length > 0);
    expect(events).toEqual(['first:start']);
    gate.resolve();
    await peer.exchange({ jsonrpc: '2.0', method: 'noop' });
    expect(events).toEqual(['first:start', 'first:end', 'second']);
  });

  it('starts request handlers in order without awaiting them: a later notification runs meanwhile', async () => {
    const { connection, peer } = connectToRawPeer();
    const events: string[] = [];
    let stop: (() => void) | undefined;
    connection.onRequest('session/prompt', () => {
      events.push('prompt:start');
      return new Promise((resolve) => {
        stop = () => resolve({ stopReason: 'cancelled' });
      });
    });
    connection.onNotification('session/cancel', () => {
      events.push('cancel');
      stop?.();
    });
    connection.start();
    peer.send({ jsonrpc: '2.0', id: 1, method: 'session/prompt' });
    peer.send({ jsonrpc: '2.0', method: 'session/cancel' });
    expect(await peer.nextFrame()).toEqual({ jsonrpc: '2.0', id: 1, result: { stopReason: 'cancelled' } });
    expect(events).toEqual(['prompt:start', 'cancel']);
  });

  it('starts a request handler only after earlier notification handlers finished', async () => {
    const { connection, peer } = connectToRawPeer();
    const gate = deferred();
    const events: string[] = [];
    connection.onNotification('slow', async () => {
      await gate.promise;
      events.push('slow:end');
    });
    connection.onRequest('req', () => void events.push('req'));
    connection.start();
    peer.send({ jsonrpc: '2.0', method: 'slow' });
    peer.send({ jsonrpc: '2.0', id: 1, method: 'req' });
    gate.resolve();
    await peer.nextFrame();
    expect(events).toEqual(['slow:end', 'req']);
  });

  it('settles a response only after the handlers of notifications before it finished', async () => {
    const responseArrived = deferred();
    const { connection, peer } = connectToRawPeer({
      trace: (direction, text) => {
        if (direction === 'in' && text.includes('"result"')) responseArrived.resolve();
      },
    });
    const gate = deferred();
    const events: string[] = [];
    connection.onNotification('session/update', async () => {
      await gate.promise;
      events.push('update:handled');
    });
    connection.start();
    const pending = connection.request('session/load').then((result) => {
      events.push('load:resolved');
      return result;
    });
    const request = await peer.nextFrame();
    peer.send({ jsonrpc: '2.0', method: 'session/update' });
    peer.send({ jsonrpc: '2.0', id: request.id, result: {} });
    // The response has arrived; give it a full macrotask turn to overtake. It must not.
    await responseArrived.promise;
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual([]);
    gate.resolve();
    await pending;
    expect(events).toEqual(['update:handled', 'load:resolved']);
  });

  it('handles synchronous handlers synchronously, in arrival order', async () => {
    const { left, right, leftChannel } = connectPair();
    const seen: number[] = [];
    right.onNotification('n', (params) => void seen.push((params as { i: number }).i));
    right.start();
    left.start();
    for (let i = 0; i < 200; i++) void left.notify('n', { i });
    // One chunk carries all 200 frames; no handler may be deferred to a later turn.
    const delivered = new Promise<void>((resolve) => {
      const check = () => (seen.length === 200 ? resolve() : queueMicrotask(check));
      queueMicrotask(check);
    });
    await delivered;
    expect(seen).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(leftChannel.bufferedBytes).toBe(0);
  });
});

describe('flow control', () => {
  it('writes frames synchronously in call order', async () => {
    const { connection, peer, local } = connectToRawPeer();
    connection.start();
    void connection.notify('a');
    void connection.request('b');
    void connection.notify('c');
    expect(local.bufferedBytes).toBeGreaterThan(0);
    const frames = await peer.waitForFrames(3);
    expect(frames.map((f) => f.method)).toEqual(['a', 'b', 'c']);
  });

  it('makes an awaiting producer wait for drain: queued bytes stay bounded against a paused reader', async () => {
    const highWaterMark = 4096;
    const { connection, peer, local, remote } = connectToRawPeer({}, { highWaterMark });
    connection.start();
    remote.pause();
    const blocked = deferred();
    const drain = local.drain.bind(local);
    vi.spyOn(local, 'drain').mockImplementation(() => {
      blocked.resolve();
      return drain();
    });
    const pad = 'x'.repeat(200);
    let sent = 0;
    let maxBuffered = 0;
    const producer = (async () => {
      for (let i = 0; i < 500; i++) {
        await connection.notify('session/update', { i, pad });
        sent++;
        maxBuffered = Math.max(maxBuffered, local.bufferedBytes);
      }
    })();
    await blocked.promise;
    expect(sent).toBeLessThan(500);
    expect(local.bufferedBytes).toBeLessThan(highWaterMark + 400);
    remote.resume();
    await producer;
    const frames = await peer.waitForFrames(500);
    expect(frames.map((f) => (f.params as { i: number }).i)).toEqual(
      Array.from({ length: 500 }, (_, i) => i),
    );
    expect(maxBuffered).toBeLessThan(highWaterMark + 400);
  });

  it('pauses reading above maxQueuedInbound queued items and resumes at half', async () => {
    const { connection, peer, local } = connectToRawPeer({ maxQueuedInbound: 4 });
    const pause = vi.spyOn(local, 'pause');
    const resume = vi.spyOn(local, 'resume');
    const gates: (() => void)[] = [];
    connection.onNotification('slow', () => new Promise<void>((resolve) => gates.push(resolve)));
    connection.start();
    for (let i = 0; i < 10; i++) peer.send({ jsonrpc: '2.0', method: 'slow', params: { i } });
    await eventually(() => gates.length === 1);
    // One running, nine queued: above 4, so reading paused once.
    expect(pause).toHaveBeenCalledTimes(1);
    expect(resume).not.toHaveBeenCalled();
    const release = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const expected = gates.length + 1;
        gates[gates.length - 1]?.();
        await eventually(() => gates.length === expected);
      }
    };
    await release(6); // 3 queued now: not yet at half (2)
    expect(resume).not.toHaveBeenCalled();
    await release(1); // 2 queued: resume
    expect(resume).toHaveBeenCalledTimes(1);
    await release(2);
    gates[gates.length - 1]?.();
    expect(pause).toHaveBeenCalledTimes(1);
  });
});
