import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { AcpKitError, type CloseDetails } from '../jsonrpc/errors.js';
import { deferred } from '../jsonrpc/test-support/raw-peer.js';
import { nodeStreamChannel } from './stream-channel.js';

function sink() {
  const chunks: Uint8Array[] = [];
  const ended = deferred<CloseDetails | undefined>();
  return {
    chunks,
    ended,
    data: (c: Uint8Array) => void chunks.push(c),
    end: (d?: CloseDetails) => ended.resolve(d),
  };
}

/** A writable that records each underlying write and can be told to fail. */
function recordingWritable(options: { highWaterMark?: number; fail?: Error } = {}) {
  const writes: string[] = [];
  let release: (() => void) | undefined;
  const writable = new Writable({
    highWaterMark: options.highWaterMark ?? 16 * 1024,
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      if (options.fail) return callback(options.fail);
      writes.push(String(chunk));
      // Hold the callback while `stall` is set, to simulate a slow reader.
      if (stall.on) release = () => callback();
      else callback();
    },
  });
  const stall = { on: false, release: () => release?.() };
  return { writable, writes, stall };
}

describe('nodeStreamChannel', () => {
  it('delivers what arrived while paused as one chunk on resume (read pacing handles it in one go)', async () => {
    const readable = new PassThrough();
    const channel = nodeStreamChannel(readable, new PassThrough());
    const s = sink();
    channel.start(s);
    channel.pause();
    for (const text of ['a\n', 'b\n', 'c\n']) readable.write(text);
    await new Promise((resolve) => setImmediate(resolve));
    expect(s.chunks).toEqual([]);
    channel.resume();
    // Never inside resume() itself: the consumer may be in the middle of handling input.
    expect(s.chunks).toEqual([]);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(s.chunks.map((c) => Buffer.from(c).toString())).toEqual(['a\nb\nc\n']);
    readable.write('d\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(s.chunks.map((c) => Buffer.from(c).toString())).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('delivers readable chunks as bytes and ends the sink when the readable ends', async () => {
    const readable = new PassThrough();
    const channel = nodeStreamChannel(readable, new PassThrough());
    const s = sink();
    channel.start(s);
    readable.write('abc');
    readable.end('def');
    // Our output is still open: the peer may still read our answers.
    await expect(s.ended.promise).resolves.toEqual({ peerReading: true });
    expect(Buffer.concat(s.chunks).toString()).toBe('abcdef');
    expect(s.chunks[0]).toBeInstanceOf(Uint8Array);
  });

  it('turns string chunks (readable with an encoding) into bytes', async () => {
    const readable = new PassThrough();
    readable.setEncoding('utf8');
    const channel = nodeStreamChannel(readable, new PassThrough());
    const s = sink();
    channel.start(s);
    readable.end('héllo');
    await s.ended.promise;
    expect(new TextDecoder().decode(s.chunks[0])).toBe('héllo');
  });

  it('coalesces writes made in one tick into one underlying write', async () => {
    const { writable, writes } = recordingWritable();
    const channel = nodeStreamChannel(new PassThrough(), writable);
    for (let i = 0; i < 100; i++) channel.write(`{"i":${i}}\n`);
    expect(writes).toHaveLength(0);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(writes).toHaveLength(1);
    expect(writes[0]?.split('\n')).toHaveLength(101);
  });

  it('writes the first frame after a read at once (a lone answer), and gathers the rest of the tick', async () => {
    const readable = new PassThrough();
    const { writable, writes } = recordingWritable();
    const channel = nodeStreamChannel(readable, writable);
    const seen: string[][] = [];
    const read = deferred<void>();
    channel.start({
      data: () => {
        channel.write('{"id":1,"result":{}}\n');
        seen.push([...writes]);
        channel.write('{"method":"a"}\n');
        channel.write('{"method":"b"}\n');
        seen.push([...writes]);
        read.resolve();
      },
      end: () => {},
    });
    readable.write('{"id":1,"method":"x"}\n');
    await read.promise;
    // The answer reached the writable inside the read's own handling, before any tick.
    expect(seen).toEqual([['{"id":1,"result":{}}\n'], ['{"id":1,"result":{}}\n']]);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(writes).toEqual(['{"id":1,"result":{}}\n', '{"method":"a"}\n{"method":"b"}\n']);
    // Without a read in between, a write waits for the tick again.
    channel.write('{"method":"c"}\n');
    expect(writes).toHaveLength(2);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(writes).toHaveLength(3);
  });

  it('returns false past the high-water mark and resolves drain once the writable caught up', async () => {
    const { writable, stall } = recordingWritable({ highWaterMark: 1024 });
    stall.on = true;
    const channel = nodeStreamChannel(new PassThrough(), writable);
    const big = 'x'.repeat(40 * 1024) + '\n';
    expect(channel.write(big)).toBe(true);
    expect(channel.write(big)).toBe(false);
    let drained = false;
    const drain = channel.drain().then(() => (drained = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    stall.on = false;
    stall.release();
    await drain;
    await expect(channel.drain()).resolves.toBeUndefined();
  });

  it('never surfaces EPIPE: it stops writing and ends with a clear cause once the readable ends', async () => {
    const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    const { writable } = recordingWritable({ fail: epipe });
    const readable = new PassThrough();
    const channel = nodeStreamChannel(readable, writable);
    const s = sink();
    channel.start(s);
    channel.write('x\n');
    await new Promise((resolve) => writable.once('error', resolve));
    expect(channel.write('more\n')).toBe(true);
    await expect(channel.drain()).resolves.toBeUndefined();
    readable.end();
    const details = await s.ended.promise;
    expect(details?.cause).toBeInstanceOf(AcpKitError);
    expect((details?.cause as AcpKitError).code).toBe('CONNECTION_CLOSED');
    expect((details?.cause as Error).message).not.toContain('EPIPE');
  });

  it('after a write error, ends anyway when the readable stays open too long', async () => {
    const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    const { writable } = recordingWritable({ fail: epipe });
    const channel = nodeStreamChannel(new PassThrough(), writable, { readableGraceMs: 20 });
    const s = sink();
    channel.start(s);
    channel.write('x\n');
    await expect(s.ended.promise).resolves.toMatchObject({ cause: expect.any(AcpKitError) });
  });

  it('terminate() while the consumer paused reading waits for the resume and delivers what was written', async () => {
    const readable = new PassThrough();
    const channel = nodeStreamChannel(readable, new PassThrough());
    const s = sink();
    channel.start(s);
    channel.pause();
    readable.write('{"last":"frame"}\n');
    channel.terminate();
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(s.chunks).toEqual([]);
    channel.resume();
    await s.ended.promise;
    expect(Buffer.concat(s.chunks).toString()).toBe('{"last":"frame"}\n');
  });

  it('asks closeDetails for the end details', async () => {
    const readable = new PassThrough();
    const closeDetails = vi.fn(async () => ({ exitCode: 7 }));
    const channel = nodeStreamChannel(readable, new PassThrough(), { closeDetails });
    const s = sink();
    channel.start(s);
    readable.end();
    await expect(s.ended.promise).resolves.toEqual({ exitCode: 7 });
    expect(closeDetails).toHaveBeenCalledTimes(1);
  });

  it('reports an end that happened before start', async () => {
    const readable = new PassThrough();
    const channel = nodeStreamChannel(readable, new PassThrough());
    readable.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    const s = sink();
    channel.start(s);
    await expect(s.ended.promise).resolves.toEqual({ peerReading: true });
  });

  it('close() flushes and ends the writable; later writes are no-ops', async () => {
    const writable = new PassThrough();
    const channel = nodeStreamChannel(new PassThrough(), writable);
    channel.write('a\n');
    channel.close();
    channel.close();
    expect(channel.write('b\n')).toBe(true);
    const chunks: Buffer[] = [];
    writable.on('data', (c: Buffer) => chunks.push(c));
    await new Promise((resolve) => writable.once('end', resolve));
    expect(Buffer.concat(chunks).toString()).toBe('a\n');
  });

  it('pauses and resumes the readable', async () => {
    const readable = new PassThrough();
    const channel = nodeStreamChannel(readable, new PassThrough());
    channel.start(sink());
    channel.pause();
    expect(readable.isPaused()).toBe(true);
    channel.resume();
    await new Promise((resolve) => process.nextTick(resolve));
    expect(readable.isPaused()).toBe(false);
  });
});

describe('a peer that ends its output but still reads ours (requests piped into an agent)', () => {
  it('answers every request it received, then closes', async () => {
    const { JsonRpcConnection } = await import('../jsonrpc/connection.js');
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    output.on('data', (chunk: Buffer) => (written += chunk.toString()));
    const connection = new JsonRpcConnection(nodeStreamChannel(input, output), { peerName: 'client' });
    const slow = deferred<void>();
    connection.onRequest('fast', () => 'f');
    connection.onRequest('slow', async () => {
      await slow.promise;
      return 's';
    });
    connection.start();
    input.end('{"jsonrpc":"2.0","id":1,"method":"fast"}\n{"jsonrpc":"2.0","id":2,"method":"slow"}\n');
    // Input ended while `slow` runs: the connection stays open for its answer.
    await new Promise((resolve) => setImmediate(resolve));
    expect(connection.isClosed).toBe(false);
    // Nobody can answer a request we send now.
    await expect(connection.request('x')).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    slow.resolve();
    const reason = await connection.closed;
    expect(reason.code).toBe('CONNECTION_CLOSED');
    const answers = written
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; result: string });
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 1, result: 'f' },
      { jsonrpc: '2.0', id: 2, result: 's' },
    ]);
  });

  it('closes at once when our output is gone too', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    output.end();
    const s = sink();
    nodeStreamChannel(input, output).start(s);
    input.end();
    await expect(s.ended.promise).resolves.toBeUndefined();
  });
});
