import { describe, expect, it } from 'vitest';
import type { CloseDetails } from '../jsonrpc/errors.js';
import { deferred, eventually } from '../jsonrpc/test-support/raw-peer.js';
import { createChannelPair } from './memory.js';

function reader() {
  const chunks: Uint8Array[] = [];
  const ended = deferred<CloseDetails | undefined>();
  const sink = {
    data: (chunk: Uint8Array) => void chunks.push(chunk),
    end: (d?: CloseDetails) => ended.resolve(d),
  };
  const text = () => new TextDecoder().decode(concat(chunks));
  return { sink, chunks, ended, text };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

describe('createChannelPair', () => {
  it('delivers UTF-8 bytes asynchronously, coalescing writes', async () => {
    const [a, b] = createChannelPair();
    const r = reader();
    b.start(r.sink);
    a.write('héllo ');
    a.write('wörld\n');
    expect(r.chunks).toHaveLength(0);
    await eventually(() => r.chunks.length > 0);
    expect(r.chunks).toHaveLength(1);
    expect(r.chunks[0]).toBeInstanceOf(Uint8Array);
    expect(r.text()).toBe('héllo wörld\n');
  });

  it('splits deliveries at maxChunkBytes, also inside UTF-8 sequences', async () => {
    const [a, b] = createChannelPair({ maxChunkBytes: 3 });
    const r = reader();
    b.start(r.sink);
    a.write('€€€');
    a.close();
    await r.ended.promise;
    expect(r.chunks.map((c) => c.length)).toEqual([3, 3, 3]);
    expect(r.text()).toBe('€€€');
  });

  it('buffers until start, and works in both directions', async () => {
    const [a, b] = createChannelPair();
    a.write('to b');
    b.write('to a');
    const ra = reader();
    const rb = reader();
    a.start(ra.sink);
    b.start(rb.sink);
    await eventually(() => ra.chunks.length > 0 && rb.chunks.length > 0);
    expect([ra.text(), rb.text()]).toEqual(['to a', 'to b']);
  });

  it('honours pause and resume', async () => {
    const [a, b] = createChannelPair();
    const r = reader();
    b.start(r.sink);
    b.pause();
    a.write('x');
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.chunks).toHaveLength(0);
    b.resume();
    await eventually(() => r.chunks.length === 1);
  });

  it('signals backpressure past highWaterMark and resolves drain once delivered', async () => {
    const [a, b] = createChannelPair({ highWaterMark: 10 });
    const r = reader();
    b.start(r.sink);
    b.pause();
    expect(a.write('12345')).toBe(true);
    expect(a.write('67890')).toBe(false);
    expect(a.bufferedBytes).toBe(10);
    let drained = false;
    const drain = a.drain().then(() => (drained = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    b.resume();
    await drain;
    expect(a.bufferedBytes).toBe(0);
    await expect(a.drain()).resolves.toBeUndefined();
  });

  it('closing one side ends the other after pending data, with no details (or the given ones)', async () => {
    const [a, b] = createChannelPair();
    const r = reader();
    b.start(r.sink);
    a.write('last\n');
    a.close();
    a.close();
    await expect(r.ended.promise).resolves.toBeUndefined();
    expect(r.text()).toBe('last\n');

    const [c, d] = createChannelPair();
    const r2 = reader();
    d.start(r2.sink);
    c.close({ exitCode: 2 });
    await expect(r2.ended.promise).resolves.toEqual({ exitCode: 2 });
  });

  it('ignores writes after close on either side, and releases drain waiters', async () => {
    const [a, b] = createChannelPair({ highWaterMark: 1 });
    const r = reader();
    b.start(r.sink);
    b.pause();
    a.write('xx');
    const drain = a.drain();
    b.close();
    await drain;
    expect(a.write('more')).toBe(true);
    a.close();
    expect(a.write('after close')).toBe(true);
    expect(r.chunks).toHaveLength(0);
  });
});
