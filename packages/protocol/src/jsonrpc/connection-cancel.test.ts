/** Rules 3 and 4: duplicate request ids, cancellation and timeouts. */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AcpKitError, ProtocolError } from './errors.js';
import { connectPair, connectToRawPeer, deferred, recordingLogger } from './test-support/raw-peer.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('duplicate request ids', () => {
  it('answers a duplicate in-flight id with -32600 and leaves the first one alone', async () => {
    const { connection, peer } = connectToRawPeer();
    const release = deferred<string>();
    let calls = 0;
    connection.onRequest('slow', () => {
      calls++;
      return release.promise;
    });
    connection.start();
    peer.send({ jsonrpc: '2.0', id: 1, method: 'slow' });
    const duplicate = await peer.exchange({ jsonrpc: '2.0', id: 1, method: 'slow' });
    expect(duplicate).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32600, message: 'Invalid request', data: { note: 'duplicate request id' } },
      },
    ]);
    release.resolve('done');
    expect(await peer.nextFrame()).toEqual({ jsonrpc: '2.0', id: 1, result: 'done' });
    expect(calls).toBe(1);
    // Once answered, the id may be used again.
    peer.send({ jsonrpc: '2.0', id: 1, method: 'slow' });
    expect(await peer.nextFrame()).toEqual({ jsonrpc: '2.0', id: 1, result: 'done' });
    expect(calls).toBe(2);
  });

  it('treats 1 and "1" as different ids', async () => {
    const { connection, peer } = connectToRawPeer();
    const release = deferred<string>();
    connection.onRequest('slow', () => release.promise);
    connection.start();
    peer.send({ jsonrpc: '2.0', id: 1, method: 'slow' });
    peer.send({ jsonrpc: '2.0', id: '1', method: 'slow' });
    release.resolve('ok');
    const frames = await peer.waitForFrames(2);
    expect(frames.map((f) => [f.id, f.result])).toEqual([
      [1, 'ok'],
      ['1', 'ok'],
    ]);
  });
});

describe('inbound $/cancel_request', () => {
  it('aborts the handler signal with a -32800 ProtocolError; a returned result is still sent', async () => {
    const { connection, peer } = connectToRawPeer();
    const reason = deferred<unknown>();
    connection.onRequest('session/prompt', (_params, ctx) => {
      return new Promise((resolve) => {
        ctx.signal.addEventListener('abort', () => {
          reason.resolve(ctx.signal.reason);
          resolve({ stopReason: 'cancelled' });
        });
      });
    });
    connection.start();
    peer.send({ jsonrpc: '2.0', id: 'p1', method: 'session/prompt' });
    peer.send({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 'p1' } });
    const abortReason = await reason.promise;
    expect(abortReason).toBeInstanceOf(ProtocolError);
    expect((abortReason as ProtocolError).code).toBe(-32800);
    expect(await peer.nextFrame()).toEqual({ jsonrpc: '2.0', id: 'p1', result: { stopReason: 'cancelled' } });
  });

  it('answers -32800 when the handler throws after its signal was aborted', async () => {
    const { connection, peer } = connectToRawPeer();
    connection.onRequest('work', (_params, ctx) => {
      return new Promise((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => reject(new Error('stopped')));
      });
    });
    connection.start();
    peer.send({ jsonrpc: '2.0', id: 5, method: 'work' });
    peer.send({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 5 } });
    expect(await peer.nextFrame()).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32800, message: 'Request cancelled' },
    });
  });

  it('ignores a cancel for an unknown or finished request, and never answers it', async () => {
    const { connection, peer } = connectToRawPeer();
    connection.start();
    expect(
      await peer.exchange({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 42 } }),
    ).toEqual([]);
    expect(await peer.exchange({ jsonrpc: '2.0', method: '$/cancel_request', params: {} })).toEqual([]);
  });

  it('reaches a request still queued behind a slow notification: it starts already aborted', async () => {
    const cancelArrived = deferred();
    const { connection, peer } = connectToRawPeer({
      trace: (direction, text) => {
        if (direction === 'in' && text.includes('$/cancel_request')) queueMicrotask(cancelArrived.resolve);
      },
    });
    const gate = deferred();
    const aborted = deferred<boolean>();
    connection.onNotification('slow', () => gate.promise);
    connection.onRequest('later', (_params, ctx) => {
      aborted.resolve(ctx.signal.aborted);
      return 'ran';
    });
    connection.start();
    peer.send({ jsonrpc: '2.0', method: 'slow' });
    peer.send({ jsonrpc: '2.0', id: 1, method: 'later' });
    peer.send({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 1 } });
    // The cancel bypasses the queue: it is handled on arrival, while the queue still waits.
    await cancelArrived.promise;
    gate.resolve();
    await expect(aborted.promise).resolves.toBe(true);
  });
});

describe('outgoing cancellation and timeouts', () => {
  it('aborting sends $/cancel_request and rejects at once with REQUEST_ABORTED; the late answer is dropped', async () => {
    const logger = recordingLogger();
    const { connection, peer } = connectToRawPeer({ logger });
    connection.start();
    const controller = new AbortController();
    const pending = connection.request('session/prompt', { p: 1 }, { signal: controller.signal });
    const request = await peer.nextFrame();
    controller.abort(new Error('user pressed escape'));
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AcpKitError);
    expect((error as AcpKitError).code).toBe('REQUEST_ABORTED');
    expect(await peer.nextFrame()).toEqual({
      jsonrpc: '2.0',
      method: '$/cancel_request',
      params: { requestId: request.id },
    });
    peer.send({ jsonrpc: '2.0', id: request.id, result: { stopReason: 'cancelled' } });
    await peer.exchange({ jsonrpc: '2.0', method: 'noop' });
    const late = logger.entries.filter((e) => e.message.includes('unknown request id'));
    expect(late.map((e) => [e.level, e.fields])).toEqual([['debug', { id: request.id }]]);
  });

  it('rejects at once without writing anything when the signal is already aborted', async () => {
    const { connection, peer } = connectToRawPeer();
    connection.start();
    const error = await connection.request('x', {}, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect((error as AcpKitError).code).toBe('REQUEST_ABORTED');
    await connection.notify('marker');
    expect(await peer.nextFrame()).toEqual({ jsonrpc: '2.0', method: 'marker' });
  });

  it('times out with REQUEST_TIMEOUT and cancels on the peer (per request and connection-wide)', async () => {
    const { connection, peer } = connectToRawPeer({ requestTimeoutMs: 30 });
    connection.start();
    const byDefault = connection.request('slow/a');
    const custom = connection.request('slow/b', undefined, { timeoutMs: 10 });
    const errors = (await Promise.all(
      [byDefault, custom].map((p) => p.catch((e: unknown) => e)),
    )) as AcpKitError[];
    expect(errors.map((e) => [e.code, e.details.method])).toEqual([
      ['REQUEST_TIMEOUT', 'slow/a'],
      ['REQUEST_TIMEOUT', 'slow/b'],
    ]);
    const frames = await peer.waitForFrames(4);
    expect(frames.slice(2)).toEqual([
      { jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 2 } },
      { jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 1 } },
    ]);
  });

  it('clears its timer and abort listener when the request settles', async () => {
    vi.useFakeTimers();
    const { left, right } = connectPair();
    right.onRequest('fast', () => 'ok');
    left.start();
    right.start();
    const controller = new AbortController();
    await expect(left.request('fast', {}, { signal: controller.signal, timeoutMs: 60_000 })).resolves.toBe(
      'ok',
    );
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    // And on rejection too.
    right.onRequest('fail', () => {
      throw ProtocolError.invalidParams();
    });
    await expect(
      left.request('fail', {}, { signal: controller.signal, timeoutMs: 60_000 }),
    ).rejects.toThrow();
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('cancels between two engines: the handler sees the abort and its answer is dropped', async () => {
    const { left, right } = connectPair();
    const sawAbort = deferred<boolean>();
    right.onRequest('session/prompt', (_params, ctx) => {
      return new Promise((resolve) => {
        ctx.signal.addEventListener('abort', () => {
          sawAbort.resolve(true);
          resolve({ stopReason: 'cancelled' });
        });
      });
    });
    left.start();
    right.start();
    const controller = new AbortController();
    const pending = left.request('session/prompt', {}, { signal: controller.signal });
    await Promise.resolve();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'REQUEST_ABORTED' });
    await expect(sawAbort.promise).resolves.toBe(true);
    right.onRequest('ping', () => 'pong');
    await expect(left.request('ping')).resolves.toBe('pong');
  });
});
