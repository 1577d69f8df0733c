/**
 * The checker's side of one connection, at the wire level: it sends frames exactly as built
 * (invalid ones included), records every frame both ways, and never repairs or refuses what the
 * agent sends — judging that is the checks' job. The typed connections of `@acp-kit/protocol`
 * cannot serve here: they validate and repair, which would hide the very mistakes we look for.
 */
import { FrameDecoder, type ByteChannel, type CloseDetails } from '@acp-kit/protocol';
import { isObject, type JsonObject, type ObservedFrame } from '../types.js';

/** How a request of ours ended. */
export type Answer =
  | { kind: 'response'; frame: JsonObject; t: number }
  | { kind: 'timeout' }
  | { kind: 'closed'; details: CloseDetails | undefined };

/**
 * Every frame of a run, both ways, on every connection, in order. Stamps strictly increase (at
 * least {@link STAMP_GAP} ms apart), so that time windows order frames exactly: a response and
 * the update written just before it never share a stamp.
 */
export class FrameLog {
  readonly frames: ObservedFrame[] = [];
  private readonly start = performance.now();
  private last = -1;

  /** Now, in ms since the run started: after every frame logged so far. */
  now(): number {
    return Math.max(performance.now() - this.start, this.last + STAMP_GAP / 2);
  }

  add(entry: Omit<ObservedFrame, 't'>): ObservedFrame {
    this.last = Math.max(performance.now() - this.start, this.last + STAMP_GAP);
    const observed = { t: this.last, ...entry };
    this.frames.push(observed);
    return observed;
  }
}

/** The least gap between two frames' stamps (ms). */
export const STAMP_GAP = 0.001;

/** The instant just after a frame stamped `t` (before the next frame). */
export function justAfter(t: number): number {
  return t + STAMP_GAP / 2;
}

/** Answers a request from the agent, or returns `undefined` to hold it (answer with `respond`). */
export type InboundRequestHandler = (
  frame: JsonObject,
) => { result: unknown } | { error: JsonObject } | undefined;

type Waiter = {
  match: (frame: ObservedFrame) => boolean;
  resolve: (frame: ObservedFrame | undefined) => void;
};

export class WirePeer {
  /** Resolves when the agent's output ended (its process exited or the stream closed). */
  readonly closed: Promise<CloseDetails | undefined>;
  private readonly pending = new Map<string, { method: string; resolve: (answer: Answer) => void }>();
  private waiters: Waiter[] = [];
  private nextId = 1;
  private ended = false;
  private endDetails: CloseDetails | undefined;
  onRequest: InboundRequestHandler = () => ({ error: { code: -32601, message: 'Method not found' } });

  constructor(
    private readonly channel: ByteChannel,
    readonly conn: string,
    private readonly log: FrameLog,
  ) {
    let close: (details: CloseDetails | undefined) => void = () => undefined;
    this.closed = new Promise((resolve) => (close = resolve));
    const decoder = new FrameDecoder({
      frame: (text) => this.onFrame(text),
      fatal: (error) => this.onFrame(JSON.stringify({ unparsed: error.message })),
    });
    channel.start({
      data: (chunk) => decoder.feed(chunk),
      end: (details) => {
        this.ended = true;
        this.endDetails = details;
        for (const { resolve } of this.pending.values()) resolve({ kind: 'closed', details });
        this.pending.clear();
        for (const waiter of this.waiters) waiter.resolve(undefined);
        this.waiters = [];
        close(details);
      },
    });
  }

  /** The run's clock (ms), as frames are stamped. */
  now(): number {
    return this.log.now();
  }

  get isClosed(): boolean {
    return this.ended;
  }

  /** Sends a request and waits for its response (or `timeoutMs`, or the end of the connection). */
  request(method: string, params: unknown, timeoutMs: number, id?: string | number): Promise<Answer> {
    const requestId = id ?? this.nextId++;
    return this.requestFrame({ jsonrpc: '2.0', id: requestId, method, params }, timeoutMs);
  }

  /** Sends a request frame built by the caller (an invalid one, to see how the agent answers). */
  requestFrame(frame: JsonObject, timeoutMs: number): Promise<Answer> {
    if (this.ended) return Promise.resolve({ kind: 'closed', details: this.endDetails });
    const key = JSON.stringify(frame.id);
    const method = typeof frame.method === 'string' ? frame.method : '';
    return new Promise<Answer>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(key);
        resolve({ kind: 'timeout' });
      }, timeoutMs);
      this.pending.set(key, {
        method,
        resolve: (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
      });
      this.send(frame);
    });
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** Answers a request the agent sent (one held by {@link onRequest}). */
  respond(id: unknown, outcome: { result: unknown } | { error: JsonObject }): void {
    this.send({ jsonrpc: '2.0', id, ...outcome });
  }

  /** The first frame from the agent, from now on, that `match` accepts; undefined after `timeoutMs`. */
  waitFor(match: (frame: ObservedFrame) => boolean, timeoutMs: number): Promise<ObservedFrame | undefined> {
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        match,
        resolve: (frame) => {
          clearTimeout(timer);
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(frame);
        },
      };
      const timer = setTimeout(() => waiter.resolve(undefined), timeoutMs);
      this.waiters.push(waiter);
    });
  }

  close(): void {
    this.channel.close();
  }

  private send(frame: JsonObject): void {
    this.log.add({ dir: 'out', conn: this.conn, frame });
    this.channel.write(`${JSON.stringify(frame)}\n`);
  }

  private onFrame(text: string): void {
    let frame: JsonObject;
    try {
      const parsed: unknown = JSON.parse(text);
      frame = isObject(parsed) ? parsed : { unparsed: text };
    } catch {
      frame = { unparsed: text };
    }
    const isResponse = frame.method === undefined && ('result' in frame || 'error' in frame);
    const key = JSON.stringify(frame.id);
    const pending = isResponse ? this.pending.get(key) : undefined;
    const observed = this.log.add({
      dir: 'in',
      conn: this.conn,
      frame,
      ...(pending ? { answers: pending.method } : {}),
    });
    for (const waiter of [...this.waiters]) if (waiter.match(observed)) waiter.resolve(observed);
    if (pending) {
      this.pending.delete(key);
      pending.resolve({ kind: 'response', frame, t: observed.t });
    } else if (typeof frame.method === 'string' && 'id' in frame) {
      const outcome = this.onRequest(frame);
      if (outcome) this.respond(frame.id, outcome);
    }
  }
}
