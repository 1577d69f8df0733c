/**
 * Test helpers: a hand-driven peer that writes raw lines and records the frames it receives, and
 * a recording logger. Not part of the package build.
 */
import type { CloseDetails } from '../errors.js';
import { FrameDecoder } from '../framing.js';
import { JsonRpcConnection, type JsonRpcConnectionOptions } from '../connection.js';
import type { LogLevel, Logger } from '../types.js';
import { createChannelPair, type ChannelPairOptions, type MemoryChannel } from '../../transport/memory.js';

export type Frame = Record<string, unknown>;

/** The far end of a connection under test, driven by hand. */
export class RawPeer {
  readonly frames: Frame[] = [];
  /** The text of each received frame, as written (numbers not yet parsed). */
  readonly lines: string[] = [];
  ended: { details: CloseDetails | undefined } | undefined;
  private readonly waiters: { count: number; resolve: () => void }[] = [];
  private endWaiters: (() => void)[] = [];
  private readIndex = 0;
  private barriers = 0;

  constructor(readonly channel: MemoryChannel) {
    const decoder = new FrameDecoder({
      frame: (text) => {
        this.lines.push(text);
        this.frames.push(JSON.parse(text) as Frame);
        this.waiters.filter((w) => this.frames.length >= w.count).forEach((w) => w.resolve());
      },
      fatal: (error) => {
        throw error;
      },
    });
    channel.start({
      data: (chunk) => decoder.feed(chunk),
      end: (details) => {
        this.ended = { details };
        this.endWaiters.forEach((resolve) => resolve());
        this.endWaiters = [];
      },
    });
  }

  /** Writes a line as is (no newline added unless `newline`). */
  sendRaw(text: string): void {
    this.channel.write(text);
  }

  /** Writes one frame: an object is serialised, a string is sent as the line's text. */
  send(frame: unknown): void {
    this.channel.write((typeof frame === 'string' ? frame : JSON.stringify(frame)) + '\n');
  }

  /** Resolves once at least `count` frames have been received in total. */
  waitForFrames(count: number): Promise<Frame[]> {
    if (this.frames.length >= count) return Promise.resolve(this.frames);
    return new Promise((resolve) => this.waiters.push({ count, resolve: () => resolve(this.frames) }));
  }

  /** The next frame not yet read through `nextFrame` or `exchange`. */
  async nextFrame(): Promise<Frame> {
    const index = this.readIndex++;
    await this.waitForFrames(index + 1);
    return this.frames[index] as Frame;
  }

  /**
   * Sends `frame`, then a barrier request to an unknown method, and returns the unread frames
   * that came before the barrier's answer: replies are written in processing order, so anything
   * `frame` caused arrives first.
   */
  async exchange(frame: unknown): Promise<Frame[]> {
    const barrierId = `barrier-${++this.barriers}`;
    const start = this.readIndex;
    this.send(frame);
    this.send({ jsonrpc: '2.0', id: barrierId, method: '$/test/barrier' });
    for (let seen = start; ;) {
      const frames = await this.waitForFrames(seen + 1);
      seen = frames.length;
      const index = frames.findIndex((f, i) => i >= start && f.id === barrierId);
      if (index !== -1) {
        this.readIndex = index + 1;
        return frames.slice(start, index);
      }
    }
  }

  waitForEnd(): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve) => this.endWaiters.push(resolve));
  }
}

/** A started connection on one end of a memory pair, and a raw peer on the other. */
export function connectToRawPeer(
  options: JsonRpcConnectionOptions = {},
  pairOptions: ChannelPairOptions = {},
): { connection: JsonRpcConnection; peer: RawPeer; local: MemoryChannel; remote: MemoryChannel } {
  const [local, remote] = createChannelPair(pairOptions);
  const connection = new JsonRpcConnection(local, options);
  const peer = new RawPeer(remote);
  return { connection, peer, local, remote };
}

/** Two started connections talking to each other over a memory pair. */
export function connectPair(
  leftOptions: JsonRpcConnectionOptions = {},
  rightOptions: JsonRpcConnectionOptions = {},
  pairOptions: ChannelPairOptions = {},
): {
  left: JsonRpcConnection;
  right: JsonRpcConnection;
  leftChannel: MemoryChannel;
  rightChannel: MemoryChannel;
} {
  const [leftChannel, rightChannel] = createChannelPair(pairOptions);
  const left = new JsonRpcConnection(leftChannel, leftOptions);
  const right = new JsonRpcConnection(rightChannel, rightOptions);
  return { left, right, leftChannel, rightChannel };
}

export interface LogEntry {
  level: LogLevel;
  message: string;
  fields: Record<string, unknown> | undefined;
}

/** A logger that records entries. */
export function recordingLogger(): Logger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  return { entries, log: (level, message, fields) => entries.push({ level, message, fields }) };
}

/** A promise with its resolve function exposed. */
export function deferred<T = void>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (e: unknown) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * Waits until `predicate` holds, letting queued microtasks and I/O callbacks run between checks
 * (one event-loop turn each, no timers). Fails after `maxTurns` turns.
 */
export async function eventually(predicate: () => boolean, maxTurns = 10_000): Promise<void> {
  for (let turn = 0; turn < maxTurns; turn++) {
    if (predicate()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`condition still false after ${maxTurns} event-loop turns`);
}
