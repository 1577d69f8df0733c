/**
 * A {@link ByteChannel} over a pair of WHATWG streams (`ReadableStream` / `WritableStream` of bytes).
 * Runtime-neutral: works in Node ≥ 18, Deno, Bun, browsers and workers, and connects an acp-kit
 * connection in-process to anything that speaks web streams (for example the official SDK's
 * `ndJsonStream`).
 */
import type { CloseDetails } from '../jsonrpc/errors.js';
import type { ByteChannel, ByteSink } from './types.js';

/**
 * Wraps `readable` (bytes from the peer) and `writable` (bytes to the peer) as a {@link ByteChannel}.
 *
 * - Both streams are locked for the channel's lifetime.
 * - Inbound: one chunk is read at a time, only while not paused, so a slow consumer leaves data in
 *   the stream and its queuing strategy pushes back on the producer. A chunk whose read was already
 *   in flight when `pause()` was called is held until `resume()`.
 * - Outbound: `write()` returns false once the writable's `desiredSize` drops to 0 or below;
 *   `drain()` resolves on the writer's `ready` (or when the channel closes or the stream errors).
 * - A failed write (the peer went away) ends the inbound side with `{ cause }`; a read error does
 *   the same. `close()` closes the writable after the queued writes and cancels the readable; the
 *   sink then gets `end()` once and no more data.
 *
 * @example
 * const pipe = new TransformStream<Uint8Array, Uint8Array>();
 * const back = new TransformStream<Uint8Array, Uint8Array>();
 * const channel = webStreamChannel(back.readable, pipe.writable);
 * const sdkStream = ndJsonStream(back.writable, pipe.readable); // the peer's end
 */
export function webStreamChannel(
  readable: ReadableStream<Uint8Array>,
  writable: WritableStream<Uint8Array>,
): ByteChannel {
  return new WebStreamChannel(readable, writable);
}

class WebStreamChannel implements ByteChannel {
  private readonly encoder = new TextEncoder();
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private sink: ByteSink | undefined;
  private paused = false;
  private resumeWaiter: (() => void) | undefined;
  /** `close()` was called. */
  private closed = false;
  /** A write failed: the outbound side is gone. */
  private writeFailed = false;
  /** The inbound side is finished (end delivered or pending delivery). */
  private ended = false;
  private endDetails: CloseDetails | undefined;
  private endDelivered = false;
  private drainWaiters: (() => void)[] = [];

  constructor(readable: ReadableStream<Uint8Array>, writable: WritableStream<Uint8Array>) {
    this.reader = readable.getReader();
    this.writer = writable.getWriter();
    // Failures surface through write() and the read loop; keep these from being reported as unhandled.
    this.writer.closed.catch(() => undefined);
    this.reader.closed.catch(() => undefined);
  }

  start(sink: ByteSink): void {
    if (this.sink) throw new Error('webStreamChannel: start() was already called');
    this.sink = sink;
    // Never call the sink synchronously from start().
    void Promise.resolve().then(() => this.pump());
  }

  write(text: string): boolean {
    if (this.closed || this.writeFailed) return true;
    const bytes = this.encoder.encode(text);
    if (bytes.length > 0) {
      this.writer.write(bytes).then(undefined, (cause: unknown) => this.writeError(cause));
    }
    return this.accepting();
  }

  drain(): Promise<void> {
    if (this.closed || this.writeFailed || this.accepting()) return Promise.resolve();
    return new Promise((resolve) => {
      this.drainWaiters.push(resolve);
      // `ready` rejects when the stream errors: the write error path releases the waiters then.
      this.writer.ready.then(
        () => this.releaseDrainWaiters(),
        () => this.releaseDrainWaiters(),
      );
    });
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.wake();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.releaseDrainWaiters();
    if (!this.writeFailed) this.writer.close().catch(() => undefined);
    this.reader.cancel().catch(() => undefined);
    this.wake();
    // The read loop notices and delivers `end()` (after start(), if that has not happened yet).
  }

  private accepting(): boolean {
    const size = this.writer.desiredSize;
    // null: the stream errored (writes are no-ops from now on); 0 after close.
    return size === null || size > 0;
  }

  private writeError(cause: unknown): void {
    if (this.writeFailed || this.closed) return;
    this.writeFailed = true;
    this.releaseDrainWaiters();
    this.finish({ cause });
  }

  private async pump(): Promise<void> {
    try {
      for (;;) {
        await this.whilePaused();
        if (this.stopped()) break;
        const { value, done } = await this.reader.read();
        if (done || this.stopped()) break;
        const chunk = toBytes(value);
        if (chunk.length === 0) continue;
        // pause() may have been called while the read was in flight: hold the chunk.
        await this.whilePaused();
        if (this.stopped()) break;
        (this.sink as ByteSink).data(chunk);
      }
      this.finish(undefined);
    } catch (cause) {
      this.finish(this.closed ? undefined : { cause });
    }
  }

  private stopped(): boolean {
    return this.closed || this.ended;
  }

  private async whilePaused(): Promise<void> {
    while (this.paused && !this.stopped()) {
      await new Promise<void>((resolve) => {
        this.resumeWaiter = resolve;
      });
    }
  }

  private wake(): void {
    const waiter = this.resumeWaiter;
    this.resumeWaiter = undefined;
    waiter?.();
  }

  /** Ends the inbound side once: cancels the reader and tells the sink. */
  private finish(details: CloseDetails | undefined): void {
    if (this.ended) {
      this.deliverEnd();
      return;
    }
    this.ended = true;
    this.endDetails = details;
    this.reader.cancel(details?.cause).catch(() => undefined);
    this.wake();
    this.deliverEnd();
  }

  private deliverEnd(): void {
    if (this.endDelivered || !this.sink) return;
    this.endDelivered = true;
    this.sink.end(this.endDetails);
  }

  private releaseDrainWaiters(): void {
    const waiters = this.drainWaiters;
    if (waiters.length === 0) return;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function toBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (typeof value === 'string') return new TextEncoder().encode(value);
  return new Uint8Array(0);
}
