/**
 * An in-memory {@link ByteChannel} pair for tests and in-process peers. Text really goes through
 * UTF-8 bytes, delivered asynchronously (one chunk per microtask), so framing, flow control and
 * close ordering behave as over a pipe.
 */
import type { CloseDetails } from '../jsonrpc/errors.js';
import type { ByteChannel, ByteSink } from './types.js';

export interface ChannelPairOptions {
  /** Undelivered bytes above which `write()` returns false (default 64 KiB). */
  highWaterMark?: number;
  /** Largest chunk handed to the reader at once; several writes are coalesced up to it (default 64 KiB). */
  maxChunkBytes?: number;
}

/** One end of {@link createChannelPair}. */
export interface MemoryChannel extends ByteChannel {
  /**
   * Ends our outbound side: the peer gets `end(details)` after the bytes already written.
   * `details` lets tests simulate a process exit; a plain `close()` ends with no details.
   */
  close(details?: CloseDetails): void;
  /** Bytes we wrote that the peer has not received yet. */
  readonly bufferedBytes: number;
}

const DEFAULT_HIGH_WATER_MARK = 64 * 1024;

/** One direction of the pair: bytes written on one end, read on the other. */
class Pipe {
  private readonly highWaterMark: number;
  private readonly maxChunkBytes: number;
  private readonly encoder = new TextEncoder();
  private queue: Uint8Array[] = [];
  private head = 0;
  queuedBytes = 0;
  private sink: ByteSink | undefined;
  private paused = false;
  private scheduled = false;
  /** The writer closed: end the reader once the queue is delivered. */
  private writerClosed = false;
  private endDetails: CloseDetails | undefined;
  /** The reader closed or got its end: nothing more is delivered or accepted. */
  private done = false;
  private drainWaiters: (() => void)[] = [];

  constructor(options: ChannelPairOptions) {
    this.highWaterMark = options.highWaterMark ?? DEFAULT_HIGH_WATER_MARK;
    this.maxChunkBytes = Math.max(1, options.maxChunkBytes ?? DEFAULT_HIGH_WATER_MARK);
  }

  write(text: string): boolean {
    if (this.writerClosed || this.done) return true;
    const bytes = this.encoder.encode(text);
    if (bytes.length > 0) {
      this.queue.push(bytes);
      this.queuedBytes += bytes.length;
      this.schedule();
    }
    return this.queuedBytes < this.highWaterMark;
  }

  drain(): Promise<void> {
    if (this.queuedBytes < this.highWaterMark || this.writerClosed || this.done) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  start(sink: ByteSink): void {
    this.sink = sink;
    this.schedule();
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.schedule();
  }

  closeWriter(details: CloseDetails | undefined): void {
    if (this.writerClosed) return;
    this.writerClosed = true;
    this.endDetails = details;
    this.releaseDrainWaiters();
    this.schedule();
  }

  /** The reader went away: drop what is queued and accept nothing more. */
  closeReader(): void {
    this.done = true;
    this.queue = [];
    this.head = 0;
    this.queuedBytes = 0;
    this.releaseDrainWaiters();
  }

  private schedule(): void {
    if (this.scheduled || this.done || this.paused || !this.sink) return;
    this.scheduled = true;
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const sink = this.sink;
    if (this.done || this.paused || !sink) return;
    if (this.queuedBytes > 0) {
      const chunk = this.takeChunk();
      sink.data(chunk);
      if (this.queuedBytes < this.highWaterMark) this.releaseDrainWaiters();
      this.schedule();
      return;
    }
    if (this.writerClosed) {
      this.done = true;
      sink.end(this.endDetails);
    }
  }

  /** Takes up to `maxChunkBytes` from the queue, coalescing small writes like a pipe would. */
  private takeChunk(): Uint8Array {
    const first = this.queue[this.head] as Uint8Array;
    if (first.length >= this.maxChunkBytes || this.head + 1 === this.queue.length) {
      return this.takeFromFirst(Math.min(first.length, this.maxChunkBytes));
    }
    const size = Math.min(this.queuedBytes, this.maxChunkBytes);
    const chunk = new Uint8Array(size);
    let offset = 0;
    while (offset < size) {
      const piece = this.takeFromFirst(Math.min(size - offset, (this.queue[this.head] as Uint8Array).length));
      chunk.set(piece, offset);
      offset += piece.length;
    }
    return chunk;
  }

  private takeFromFirst(size: number): Uint8Array {
    const first = this.queue[this.head] as Uint8Array;
    this.queuedBytes -= size;
    if (size === first.length) {
      this.head++;
      if (this.head === this.queue.length) {
        this.queue = [];
        this.head = 0;
      }
      return first;
    }
    this.queue[this.head] = first.subarray(size);
    return first.subarray(0, size);
  }

  private releaseDrainWaiters(): void {
    const waiters = this.drainWaiters;
    if (waiters.length === 0) return;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

class MemoryEnd implements MemoryChannel {
  private closed = false;

  constructor(
    private readonly outbound: Pipe,
    private readonly inbound: Pipe,
  ) {}

  get bufferedBytes(): number {
    return this.outbound.queuedBytes;
  }

  get bufferedAmount(): number {
    return this.outbound.queuedBytes;
  }

  start(sink: ByteSink): void {
    this.inbound.start(sink);
  }

  write(text: string): boolean {
    return this.outbound.write(text);
  }

  drain(): Promise<void> {
    return this.outbound.drain();
  }

  pause(): void {
    this.inbound.pause();
  }

  resume(): void {
    this.inbound.resume();
  }

  close(details?: CloseDetails): void {
    if (this.closed) return;
    this.closed = true;
    this.outbound.closeWriter(details);
    this.inbound.closeReader();
  }
}

/**
 * Creates two connected channels: what one writes, the other reads.
 *
 * @example
 * const [clientSide, agentSide] = createChannelPair();
 * const client = new JsonRpcConnection(clientSide);
 * const agent = new JsonRpcConnection(agentSide);
 */
export function createChannelPair(options: ChannelPairOptions = {}): [MemoryChannel, MemoryChannel] {
  const leftToRight = new Pipe(options);
  const rightToLeft = new Pipe(options);
  return [new MemoryEnd(leftToRight, rightToLeft), new MemoryEnd(rightToLeft, leftToRight)];
}
