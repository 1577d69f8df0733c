import { describe, expect, it } from 'vitest';
import type { CloseDetails } from '../jsonrpc/errors.js';
import type { ByteSink } from './types.js';
import { webStreamChannel } from './web-stream.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A sink that records what it gets and lets a test await the end or a given amount of text. */
function recordingSink() {
  const chunks: Uint8Array[] = [];
  let text = '';
  let ended: { details: CloseDetails | undefined } | undefined;
  let endCount = 0;
  const waiters: { predicate: () => boolean; resolve: () => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) {
      if (w.predicate()) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  const sink: ByteSink & { onData?: (chunk: Uint8Array) => void } = {
    data(chunk) {
      chunks.push(chunk);
      text += decoder.decode(chunk, { stream: true });
      sink.onData?.(chunk);
      check();
    },
    end(details) {
      endCount++;
      ended = { details };
      check();
    },
  };
  const until = (predicate: () => boolean) =>
    predicate() ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ predicate, resolve }));
  return {
    sink,
    chunks,
    get text() {
      return text;
    },
    get ended() {
      return ended;
    },
    get endCount() {
      return endCount;
    },
    untilText: (expected: string) => until(() => text === expected),
    untilEnd: () => until(() => ended !== undefined),
  };
}

/** A readable the test pushes chunks into. */
function controlledReadable(strategy?: QueuingStrategy<Uint8Array>) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelReason: unknown = 'not cancelled';
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      cancel(reason) {
        cancelReason = reason;
      },
    },
    strategy,
  );
  return {
    stream,
    push: (text: string) => controller.enqueue(encoder.encode(text)),
    close: () => controller.close(),
    error: (e: unknown) => controller.error(e),
    get desiredSize() {
      return controller.desiredSize;
    },
    get cancelReason() {
      return cancelReason;
    },
  };
}

/** A writable whose sink completes each write only when the test says so. */
function gatedWritable(highWaterMark = 1) {
  const received: string[] = [];
  const pending: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  let onWrite: (() => void) | undefined;
  let closed = false;
  let markClosed!: () => void;
  const whenClosed = new Promise<void>((resolve) => (markClosed = resolve));
  let aborted: unknown;
  const stream = new WritableStream<Uint8Array>(
    {
      write(chunk) {
        received.push(decoder.decode(chunk));
        const done = new Promise<void>((resolve, reject) => pending.push({ resolve, reject }));
        onWrite?.();
        return done;
      },
      close() {
        closed = true;
        markClosed();
      },
      abort(reason) {
        aborted = reason;
      },
    },
    new CountQueuingStrategy({ highWaterMark }),
  );
  return {
    stream,
    received,
    /** Completes the oldest write still in progress. */
    completeOne: () => pending.shift()?.resolve(),
    /** Waits for the underlying sink to be working on a write, then completes it. */
    async completeNext() {
      while (pending.length === 0) await new Promise<void>((resolve) => (onWrite = resolve));
      pending.shift()?.resolve();
    },
    failOne: (e: unknown) => pending.shift()?.reject(e),
    /** Resolves once the underlying sink is working on a write. */
    untilWriting: () =>
      pending.length > 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            onWrite = () => {
              onWrite = undefined;
              resolve();
            };
          }),
    whenClosed,
    get closed() {
      return closed;
    },
    get aborted() {
      return aborted;
    },
  };
}

/** Writable that collects everything at once. */
function collectingWritable() {
  let text = '';
  let closed = false;
  const stream = new WritableStream<Uint8Array>({
    write(chunk) {
      text += decoder.decode(chunk, { stream: true });
    },
    close() {
      closed = true;
    },
  });
  return {
    stream,
    get text() {
      return text;
    },
    get closed() {
      return closed;
    },
  };
}

describe('webStreamChannel', () => {
  it('carries bytes both ways through a TransformStream pair', async () => {
    const aToB = new TransformStream<Uint8Array, Uint8Array>();
    const bToA = new TransformStream<Uint8Array, Uint8Array>();
    const a = webStreamChannel(bToA.readable, aToB.writable);
    const b = webStreamChannel(aToB.readable, bToA.writable);
    const atA = recordingSink();
    const atB = recordingSink();
    a.start(atA.sink);
    b.start(atB.sink);

    a.write('{"jsonrpc":"2.0","method":"hello"}\n');
    a.write('héllo wörld ✓ 🎉\n');
    b.write('pong\n');
    await atB.untilText('{"jsonrpc":"2.0","method":"hello"}\nhéllo wörld ✓ 🎉\n');
    await atA.untilText('pong\n');

    a.close();
    await atB.untilEnd();
    expect(atB.ended?.details).toBeUndefined();
    // Our own close ends our inbound side too, once.
    await atA.untilEnd();
    expect(atA.endCount).toBe(1);
  });

  it('never calls the sink synchronously from start()', () => {
    const input = controlledReadable();
    input.push('early\n');
    const channel = webStreamChannel(input.stream, collectingWritable().stream);
    const rec = recordingSink();
    channel.start(rec.sink);
    expect(rec.chunks).toHaveLength(0);
  });

  it('delivers the end of the readable once, without details', async () => {
    const input = controlledReadable();
    const channel = webStreamChannel(input.stream, collectingWritable().stream);
    const rec = recordingSink();
    channel.start(rec.sink);
    input.push('a\n');
    input.push('b');
    input.close();
    await rec.untilEnd();
    expect(rec.text).toBe('a\nb');
    expect(rec.ended).toEqual({ details: undefined });
    expect(rec.endCount).toBe(1);
  });

  it('reports a read error through end({ cause })', async () => {
    const input = controlledReadable();
    const channel = webStreamChannel(input.stream, collectingWritable().stream);
    const rec = recordingSink();
    channel.start(rec.sink);
    const boom = new Error('broken pipe');
    input.error(boom);
    await rec.untilEnd();
    expect(rec.ended?.details?.cause).toBe(boom);
  });

  it('does not read while paused, leaving the backlog to the stream (backpressure upstream)', async () => {
    const input = controlledReadable(new CountQueuingStrategy({ highWaterMark: 2 }));
    const channel = webStreamChannel(input.stream, collectingWritable().stream);
    const rec = recordingSink();
    // Pause from inside the sink after the first chunk, as an engine with a full queue would.
    rec.sink.onData = () => channel.pause();
    channel.start(rec.sink);

    input.push('1\n');
    await rec.untilText('1\n');
    input.push('2\n');
    input.push('3\n');
    input.push('4\n');
    // Let every pending microtask/read settle: nothing more may be delivered while paused.
    // (A macrotask boundary is a flush, not synchronisation: the assertion is about absence.)
    await new Promise((resolve) => setTimeout(resolve, 0));
    // At most the chunk whose read was already in flight is held by the channel; the rest stays
    // queued in the stream, which reports it to the producer.
    expect(rec.text).toBe('1\n');
    expect(input.desiredSize).toBeLessThanOrEqual(0);

    rec.sink.onData = undefined;
    channel.resume();
    await rec.untilText('1\n2\n3\n4\n');
    expect(rec.chunks.map((c) => decoder.decode(c))).toEqual(['1\n', '2\n', '3\n', '4\n']);
  });

  it('holds a chunk whose read was in flight when pause() was called', async () => {
    const input = controlledReadable();
    const channel = webStreamChannel(input.stream, collectingWritable().stream);
    const rec = recordingSink();
    channel.start(rec.sink);
    // Wait until the channel is blocked in read(): the stream then asks for data.
    await Promise.resolve();
    await Promise.resolve();
    channel.pause();
    input.push('late\n');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(rec.text).toBe('');
    channel.resume();
    await rec.untilText('late\n');
  });

  it('resume() without pause() and repeated pause() are harmless', async () => {
    const input = controlledReadable();
    const channel = webStreamChannel(input.stream, collectingWritable().stream);
    const rec = recordingSink();
    channel.resume();
    channel.start(rec.sink);
    channel.pause();
    channel.pause();
    channel.resume();
    channel.resume();
    input.push('x\n');
    await rec.untilText('x\n');
  });

  it('returns false from write() when the writable is full and drain() resolves when it has room', async () => {
    const out = gatedWritable(2);
    const channel = webStreamChannel(controlledReadable().stream, out.stream);
    channel.start(recordingSink().sink);

    expect(channel.write('one\n')).toBe(true); // desiredSize 2 → 1
    expect(channel.write('two\n')).toBe(false); // → 0
    expect(channel.write('three\n')).toBe(false); // → -1
    let drained = false;
    const drain = channel.drain().then(() => {
      drained = true;
    });
    // The underlying sink is working on 'one'; nothing completed yet.
    await Promise.resolve();
    expect(drained).toBe(false);

    await out.completeNext(); // 'one' done → 'two' starts, desiredSize 0: still full
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(drained).toBe(false);
    await out.completeNext(); // 'two' done → desiredSize 1: room
    await drain;
    expect(drained).toBe(true);
    expect(channel.write('four\n')).toBe(false);
    await out.completeNext();
    await channel.drain();
    await out.completeNext();
    expect(out.received).toEqual(['one\n', 'two\n', 'three\n', 'four\n']);
  });

  it('drain() resolves at once when there is room', async () => {
    const channel = webStreamChannel(controlledReadable().stream, collectingWritable().stream);
    await expect(channel.drain()).resolves.toBeUndefined();
  });

  it('close() releases drain() waiters, closes the writable after queued writes, and cancels the readable', async () => {
    const out = gatedWritable(1);
    const input = controlledReadable();
    const channel = webStreamChannel(input.stream, out.stream);
    const rec = recordingSink();
    channel.start(rec.sink);
    expect(channel.write('a\n')).toBe(false);
    channel.write('b\n');
    const drain = channel.drain();
    channel.close();
    await drain;
    // Writes after close are silent no-ops.
    expect(channel.write('c\n')).toBe(true);
    expect(out.closed).toBe(false);
    await out.completeNext();
    await out.completeNext();
    await rec.untilEnd();
    await out.whenClosed;
    expect(out.received).toEqual(['a\n', 'b\n']);
    expect(out.closed).toBe(true);
    expect(input.cancelReason).toBeUndefined();
    expect(rec.ended?.details).toBeUndefined();
    // Data arriving after close is not delivered.
    expect(() => input.push('ignored\n')).toThrow();
    expect(rec.text).toBe('');
    channel.close(); // idempotent
    expect(rec.endCount).toBe(1);
  });

  it('close() before start() still ends the sink once start() is called, asynchronously', async () => {
    const channel = webStreamChannel(controlledReadable().stream, collectingWritable().stream);
    channel.close();
    const rec = recordingSink();
    channel.start(rec.sink);
    expect(rec.ended).toBeUndefined();
    await rec.untilEnd();
    expect(rec.endCount).toBe(1);
  });

  it('a failed write ends the inbound side with the cause; later writes are no-ops', async () => {
    const out = gatedWritable(4);
    const input = controlledReadable();
    const channel = webStreamChannel(input.stream, out.stream);
    const rec = recordingSink();
    channel.start(rec.sink);
    channel.write('x\n');
    await out.untilWriting();
    const epipe = new Error('EPIPE');
    out.failOne(epipe);
    await rec.untilEnd();
    expect(rec.ended?.details?.cause).toBe(epipe);
    expect(channel.write('y\n')).toBe(true);
    await expect(channel.drain()).resolves.toBeUndefined();
    expect(input.cancelReason).toBe(epipe);
    expect(rec.endCount).toBe(1);
  });

  it('a write error before start() is delivered after start()', async () => {
    const aToB = new TransformStream<Uint8Array, Uint8Array>();
    const channel = webStreamChannel(controlledReadable().stream, aToB.writable);
    const gone = new Error('reader gone');
    await aToB.readable.cancel(gone);
    channel.write('x\n');
    await new Promise((resolve) => setTimeout(resolve, 0));
    const rec = recordingSink();
    channel.start(rec.sink);
    await rec.untilEnd();
    expect(rec.ended?.details?.cause).toBe(gone);
  });

  it('start() twice throws', () => {
    const channel = webStreamChannel(controlledReadable().stream, collectingWritable().stream);
    channel.start(recordingSink().sink);
    expect(() => channel.start(recordingSink().sink)).toThrow(/already/);
  });

  it('accepts non-Uint8Array byte chunks from lenient producers', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new DataView(encoder.encode('ab').buffer) as unknown as Uint8Array);
        c.enqueue(encoder.encode('cd').buffer as unknown as Uint8Array);
        c.enqueue(new Uint8Array(0));
        c.close();
      },
    });
    const channel = webStreamChannel(stream, collectingWritable().stream);
    const rec = recordingSink();
    channel.start(rec.sink);
    await rec.untilEnd();
    expect(rec.text).toBe('abcd');
  });

  it('carries 4 MiB through a TransformStream pair in order, under backpressure', async () => {
    const pipe = new TransformStream<Uint8Array, Uint8Array>();
    const back = new TransformStream<Uint8Array, Uint8Array>();
    const writerSide = webStreamChannel(back.readable, pipe.writable);
    const readerSide = webStreamChannel(pipe.readable, back.writable);
    writerSide.start(recordingSink().sink);
    let bytes = 0;
    let lastIndex = -1;
    let inOrder = true;
    let partial = '';
    const rec = recordingSink();
    const sink: ByteSink = {
      data(chunk) {
        bytes += chunk.length;
        partial += decoder.decode(chunk, { stream: true });
        const lines = partial.split('\n');
        partial = lines.pop() as string;
        for (const line of lines) {
          const index = Number(line.slice(0, line.indexOf(' ')));
          if (index !== lastIndex + 1) inOrder = false;
          lastIndex = index;
        }
      },
      end: rec.sink.end,
    };
    readerSide.start(sink);
    const line = (i: number) => `${i} ${'x'.repeat(1000)}\n`;
    let falseCount = 0;
    const total = 4096;
    for (let i = 0; i < total; i++) {
      if (!writerSide.write(line(i))) {
        falseCount++;
        await writerSide.drain();
      }
    }
    writerSide.close();
    await rec.untilEnd();
    expect(inOrder).toBe(true);
    expect(lastIndex).toBe(total - 1);
    expect(bytes).toBe(Array.from({ length: total }, (_, i) => line(i).length).reduce((a, b) => a + b, 0));
    expect(falseCount).toBeGreaterThan(0);
  });
});
