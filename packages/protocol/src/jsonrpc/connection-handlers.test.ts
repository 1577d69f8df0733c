/** Rule 2: dispatch to handlers, and what their results and errors become on the wire. */
import { describe, expect, it, vi } from 'vitest';
import { AcpKitError, ProtocolError } from './errors.js';
import { connectPair, connectToRawPeer, deferred, recordingLogger } from './test-support/raw-peer.js';

describe('request handlers', () => {
  it('round-trips requests and notifications between two engines', async () => {
    const { left, right } = connectPair();
    const seen: unknown[] = [];
    right.onRequest('math/add', (params, ctx) => {
      const { a, b } = params as { a: number; b: number };
      seen.push([ctx.id, ctx.method]);
      return { sum: a + b };
    });
    right.onNotification('log', (params, ctx) => void seen.push([ctx.method, params]));
    left.start();
    right.start();
    await left.notify('log', { text: 'hi' });
    await expect(left.request('math/add', { a: 2, b: 3 })).resolves.toEqual({ sum: 5 });
    expect(seen).toEqual([
      ['log', { text: 'hi' }],
      [1, 'math/add'],
    ]);
  });

  it('answers an unknown request with -32601 naming the (truncated) method', async () => {
    const { connection, peer } = connectToRawPeer();
    connection.start();
    peer.send({ jsonrpc: '2.0', id: 1, method: 'nope/nothing' });
    peer.send({ jsonrpc: '2.0', id: 2, method: 'm'.repeat(5000) });
    const [first, second] = await peer.waitForFrames(2);
    expect(first).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'Method not found', data: { method: 'nope/nothing' } },
    });
    const data = (second?.error as { data: { method: string } }).data;
    expect(data.method.length).toBeLessThanOrEqual(200);
  });

  it('ignores an unknown notification', async () => {
    const { connection, peer } = connectToRawPeer();
    connection.start();
    expect(await peer.exchange({ jsonrpc: '2.0', method: 'nobody/listens', params: {} })).toEqual([]);
  });

  it('answers with the code, message and data of a thrown ProtocolError', async () => {
    const { connection, peer } = connectToRawPeer();
    connection.onRequest('find', () => {
      throw ProtocolError.resourceNotFound('Session not found', { sessionId: 's1' });
    });
    connection.start();
    peer.send({ jsonrpc: '2.0', id: 1, method: 'find' });
    expect(await peer.nextFrame()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32002, message: 'Session not found', data: { sessionId: 's1' } },
    });
  });

  it('answers a system error (EACCES…) with its cause in words and code, never the path in its message', async () => {
    const { connection, peer } = connectToRawPeer();
    connection.onRequest('write', () => {
      throw Object.assign(new Error("EACCES: permission denied, open '/home/me/secret/file'"), {
        code: 'EACCES',
        syscall: 'open',
      });
    });
    connection.onRequest('odd', () => {
      throw Object.assign(new Error('EFOO: something, /x'), { code: 'EFOO' });
    });
    connection.start();
    peer.send({ jsonrpc: '2.0', id: 1, method: 'write' });
    expect(await peer.nextFrame()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: 'permission denied (EACCES)', data: { reason: 'EACCES' } },
    });
    peer.send({ jsonrpc: '2.0', id: 2, method: 'odd' });
    expect((await peer.nextFrame()).error).toEqual({
      code: -32603,
      message: 'system error (EFOO)',
      data: { reason: 'EFOO' },
    });
  });

  it('caps error data at 1 KiB', async () => {
    const { connection, peer } = connectToRawPeer();
    connection.onRequest('big', () => {
      throw new ProtocolError(-32602, 'Invalid params', { blob: 'x'.repeat(5000) });
    });
    connection.start();
    peer.send({ jsonrpc: '2.0', id: 1, method: 'big' });
    const reply = await peer.nextFrame();
    expect(JSON.stringify((reply.error as { data: unknown }).data).length).toBeLessThanOrEqual(1024);
  });

  it.each([
    ['an Error', () => new Error('database password is hunter2')],
    ['a string', () => 'just a string'],
    ['undefined', () => undefined],
  ])('answers -32603 when a handler throws %s, and lives on', async (_name, make) => {
    const logger = recordingLogger();
    const { connection, peer } = connectToRawPeer({ logger });
    connection.onRequest('boom', () => {
      throw make();
    });
    connection.onRequest('async-boom', async () => {
      await Promise.resolve();
      throw make();
    });
    connection.onRequest('ok', () => 'fine');
    connection.start();
    peer.send({ jsonrpc: '2.0', id: 1, method: 'boom' });
    peer.send({ jsonrpc: '2.0', id: 2, method: 'async-boom' });
    peer.send({ jsonrpc: '2.0', id: 3, method: 'ok' });
    const frames = await peer.waitForFrames(3);
    const byId = new Map(frames.map((f) => [f.id, f]));
    expect(byId.get(1)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: 'Internal error' },
    });
    expect(byId.get(2)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32603, message: 'Internal error' },
    });
    expect(byId.get(3)).toEqual({ jsonrpc: '2.0', id: 3, result: 'fine' });
    expect(logger.entries.filter((e) => e.message === 'request handler failed')).toHaveLength(2);
  });

  it.each([
    ['a BigInt', () => 10n],
    [
      'a circular object',
      () => {
        const o: Record<string, unknown> = {};
        o.self = o;
        return o;
      },
    ],
    ['a function', () => () => 1],
  ])('answers -32603 when the result is %s (not serialisable)', async (_name, make) => {
    const { connection, peer } = connectToRawPeer();
    connection.onRequest('weird', make);
    connection.onRequest('ok', () => 1);
    connection.start();
    peer.send({ jsonrpc: '2.0', id: 1, method: 'weird' });
    peer.send({ jsonrpc: '2.0', id: 2, method: 'ok' });
    const [first, second] = await peer.waitForFrames(2);
    expect(first).toMatchObject({ id: 1, error: { code: -32603 } });
    expect(second).toEqual({ jsonrpc: '2.0', id: 2, result: 1 });
  });

  it('answers result: null when a handler returns undefined', async () => {
    const { connection, peer } = connectToRawPeer();
    connection.onRequest('void', () => undefined);
    connection.onRequest('async-void', async () => undefined);
    connection.start();
    peer.send({ jsonrpc: '2.0', id: 1, method: 'void' });
    peer.send({ jsonrpc: '2.0', id: 2, method: 'async-void' });
    expect(await peer.waitForFrames(2)).toEqual([
      { jsonrpc: '2.0', id: 1, result: null },
      { jsonrpc: '2.0', id: 2, result: null },
    ]);
  });

  it('replaces handlers, and falls back to onUnhandledRequest / onUnhandledNotification', async () => {
    const { connection, peer } = connectToRawPeer();
    const notes: string[] = [];
    connection.onRequest('m', () => 'first');
    connection.onRequest('m', () => 'second');
    connection.onUnhandledRequest((_params, ctx) => `fallback:${ctx.method}`);
    connection.onUnhandledNotification((_params, ctx) => void notes.push(ctx.method));
    connection.start();
    peer.send({ jsonrpc: '2.0', id: 1, method: 'm' });
    peer.send({ jsonrpc: '2.0', id: 2, method: 'other' });
    peer.send({ jsonrpc: '2.0', method: '_ext/note' });
    expect(await peer.waitForFrames(2)).toEqual([
      { jsonrpc: '2.0', id: 1, result: 'second' },
      { jsonrpc: '2.0', id: 2, result: 'fallback:other' },
    ]);
    connection.onUnhandledRequest(undefined);
    peer.send({ jsonrpc: '2.0', id: 3, method: 'other' });
    expect((await peer.waitForFrames(3))[2]).toMatchObject({ id: 3, error: { code: -32601 } });
    expect(notes).toEqual(['_ext/note']);
  });

  it('logs a failing notification handler and goes on', async () => {
    const logger = recordingLogger();
    const { connection, peer } = connectToRawPeer({ logger });
    const seen: number[] = [];
    connection.onNotification('n', (params) => {
      const { i } = params as { i: number };
      if (i === 1) throw new Error('sync failure');
      if (i === 2) return Promise.reject(new Error('async failure'));
      seen.push(i);
      return undefined;
    });
    connection.start();
    for (const i of [1, 2, 3]) peer.send({ jsonrpc: '2.0', method: 'n', params: { i } });
    await peer.exchange({ jsonrpc: '2.0', method: 'n', params: { i: 4 } });
    expect(seen).toEqual([3, 4]);
    const failures = logger.entries.filter((e) => e.message === 'notification handler failed');
    expect(failures.map((e) => [e.level, e.fields?.method])).toEqual([
      ['warn', 'n'],
      ['warn', 'n'],
    ]);
  });

  it('rejects request()/notify() with INVALID_ARGUMENT for unserialisable params, writing nothing', async () => {
    const { connection, peer } = connectToRawPeer();
    connection.start();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    for (const attempt of [connection.request('x', { n: 1n }), connection.notify('x', circular)]) {
      const error = await attempt.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AcpKitError);
      expect((error as AcpKitError).code).toBe('INVALID_ARGUMENT');
    }
    await connection.notify('after');
    expect(await peer.nextFrame()).toEqual({ jsonrpc: '2.0', method: 'after' });
  });

  it('accepts requests before start() and ignores a second start()', async () => {
    const { left, right } = connectPair();
    right.onRequest('ping', () => 'pong');
    const answer = left.request('ping');
    right.start();
    left.start();
    left.start();
    await expect(answer).resolves.toBe('pong');
  });

  it('never writes to the console', async () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((name) =>
      vi.spyOn(console, name).mockImplementation(() => undefined),
    );
    try {
      const { connection, peer } = connectToRawPeer({ maxMessageBytes: 200 });
      connection.onRequest('boom', () => {
        throw new Error('x');
      });
      connection.onNotification('bad', () => {
        throw new Error('y');
      });
      connection.start();
      const pending = connection.request('never').catch(() => undefined);
      peer.send('junk');
      peer.send({ jsonrpc: '2.0', id: 1, method: 'boom' });
      peer.send({ jsonrpc: '2.0', method: 'bad' });
      peer.send({ jsonrpc: '2.0', id: 77, result: 1 });
      await peer.waitForFrames(3);
      peer.send('x'.repeat(500));
      await connection.closed;
      await pending;
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('passes every frame to the trace hook, in and out', async () => {
    const trace: [string, string][] = [];
    const { connection, peer } = connectToRawPeer({
      trace: (direction, text) => trace.push([direction, text]),
    });
    connection.onRequest('echo', (params) => params);
    connection.start();
    peer.send({ jsonrpc: '2.0', id: 1, method: 'echo', params: [1] });
    await peer.nextFrame();
    expect(trace).toEqual([
      ['in', '{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]}'],
      ['out', '{"jsonrpc":"2.0","id":1,"result":[1]}'],
    ]);
  });

  it('hands the trace hook the parsed inbound frame, and undefined for a line that is not JSON', async () => {
    const seen: [string, string, unknown][] = [];
    const { connection, peer } = connectToRawPeer({
      trace: (direction, text, parsed) => seen.push([direction, text, parsed]),
    });
    const noted = deferred<undefined>();
    connection.onNotification('note', () => noted.resolve(undefined));
    connection.start();
    peer.send('not json');
    peer.send({ jsonrpc: '2.0', method: 'note', params: { a: 1 } });
    await noted.promise;
    const inbound = seen.filter(([direction]) => direction === 'in');
    expect(inbound).toEqual([
      ['in', 'not json', undefined],
      [
        'in',
        '{"jsonrpc":"2.0","method":"note","params":{"a":1}}',
        { jsonrpc: '2.0', method: 'note', params: { a: 1 } },
      ],
    ]);
  });
});

describe('handler context', () => {
  it('gives each request its id, method and an unaborted signal', async () => {
    const { connection, peer } = connectToRawPeer();
    const done = deferred<{ id: unknown; method: string; aborted: boolean }>();
    connection.onRequest('ctx', (_params, ctx) => {
      done.resolve({ id: ctx.id, method: ctx.method, aborted: ctx.signal.aborted });
      return null;
    });
    connection.start();
    peer.send({ jsonrpc: '2.0', id: 'abc', method: 'ctx' });
    await expect(done.promise).resolves.toEqual({ id: 'abc', method: 'ctx', aborted: false });
  });
});
