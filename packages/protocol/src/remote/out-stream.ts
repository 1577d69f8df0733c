/**
 * One server→client stream of a remote connection (the connection-scoped SSE stream, a
 * session-scoped one, or the WebSocket): numbered events, a queue of events not yet sent, and a
 * bounded replay buffer of events sent but maybe not received, so a client that lost the
 * connection resumes from the last event it saw. Runtime-neutral.
 */

/** Where a stream's events go: an SSE response or a WebSocket. */
export interface StreamReceiver {
  /** Sends one event; false when backed up (the stream then waits for `OutStream.drained`). */
  send(id: number, data: string): boolean;
  /** The stream stopped using this receiver: another took over, the stream ended, or it closed. */
  detach(reason: 'replaced' | 'finished' | 'closed'): void;
}

/** Bounds of the replay buffer of one stream. */
export interface ReplayLimits {
  /** Most events kept after they were sent (default 65,536). */
  maxEvents: number;
  /**
   * Most bytes (UTF-16 units) of JSON kept after they were sent (default 8 MiB). It must cover what
   * can be in flight when a connection drops: the socket buffers of both machines and of proxies.
   */
  maxBytes: number;
}

export const DEFAULT_REPLAY_LIMITS: ReplayLimits = { maxEvents: 65_536, maxBytes: 8 * 1024 * 1024 };

/** The outcome of attaching a receiver. */
export type AttachResult =
  | { ok: true; replayed: number }
  | { ok: false; reason: 'busy' | 'invalid' }
  | { ok: false; reason: 'gap'; oldest: number };

interface StreamEvent {
  id: number;
  data: string;
}

/** A FIFO of events that does not copy on shift. */
class EventQueue {
  private items: (StreamEvent | undefined)[] = [];
  private head = 0;
  bytes = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  first(): StreamEvent | undefined {
    return this.items[this.head];
  }

  push(event: StreamEvent): void {
    this.items.push(event);
    this.bytes += event.data.length;
  }

  shift(): StreamEvent | undefined {
    const event = this.items[this.head];
    if (!event) return undefined;
    this.items[this.head++] = undefined;
    this.bytes -= event.data.length;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return event;
  }

  /** Removes and returns everything, oldest first. */
  drain(): StreamEvent[] {
    const out = this.items.slice(this.head) as StreamEvent[];
    this.items = [];
    this.head = 0;
    this.bytes = 0;
    return out;
  }

  /** Puts events back in front (they must be older than everything queued). */
  unshiftAll(events: StreamEvent[]): void {
    if (events.length === 0) return;
    this.items = [...events, ...(this.items.slice(this.head) as StreamEvent[])];
    this.head = 0;
    for (const event of events) this.bytes += event.data.length;
  }
}

/**
 * Events of one stream.
 *
 * @example
 * const stream = new OutStream(DEFAULT_REPLAY_LIMITS, (delta) => (queued += delta));
 * stream.push('{"jsonrpc":"2.0","method":"session/update",…}');
 * stream.attach(receiver, lastEventIdFromTheClient);
 */
export class OutStream {
  private nextId = 1;
  private readonly unsent = new EventQueue();
  private readonly sent = new EventQueue();
  private receiver: StreamReceiver | undefined;
  private blocked = false;
  private finished = false;
  private closed = false;

  constructor(
    private readonly limits: ReplayLimits,
    /** Told how the bytes waiting to be sent change (for the connection's backpressure). */
    private readonly onQueued: (delta: number) => void,
  ) {}

  /** Whether a receiver is attached. */
  get attached(): boolean {
    return this.receiver !== undefined;
  }

  /** Bytes of JSON waiting to be sent. */
  get queuedBytes(): number {
    return this.unsent.bytes;
  }

  /** The id the next event will get. */
  get nextEventId(): number {
    return this.nextId;
  }

  /** Adds one event (one message's JSON text, a single line). */
  push(data: string): void {
    if (this.closed || this.finished) return;
    const event = { id: this.nextId++, data };
    if (this.receiver && !this.blocked && this.unsent.size === 0) {
      this.deliver(this.receiver, event);
      return;
    }
    this.unsent.push(event);
    this.onQueued(data.length);
  }

  /**
   * Attaches a receiver. Without `lastEventId`, it gets what was not sent yet, and is refused
   * (`busy`) while another receiver is attached. With it (a client resuming), it replaces any
   * other receiver and first gets every event after `lastEventId`: `gap` when some of those are
   * no longer kept, `invalid` when that id was never sent.
   */
  attach(receiver: StreamReceiver, lastEventId?: number): AttachResult {
    if (this.closed) return { ok: false, reason: 'invalid' };
    let replayed = 0;
    if (lastEventId === undefined) {
      if (this.receiver) return { ok: false, reason: 'busy' };
    } else {
      if (!Number.isSafeInteger(lastEventId) || lastEventId < 0 || lastEventId >= this.nextId)
        return { ok: false, reason: 'invalid' };
      const oldest = this.sent.first()?.id ?? this.unsent.first()?.id ?? this.nextId;
      if (lastEventId + 1 < oldest) return { ok: false, reason: 'gap', oldest };
      const previous = this.receiver;
      this.receiver = undefined;
      previous?.detach('replaced');
      // What the client saw is confirmed; what it missed is sent again, before anything newer.
      const resend = this.sent.drain().filter((event) => event.id > lastEventId);
      replayed = resend.length;
      this.unsent.unshiftAll(resend);
      this.onQueued(resend.reduce((sum, event) => sum + event.data.length, 0));
    }
    this.receiver = receiver;
    this.blocked = false;
    this.flush();
    return { ok: true, replayed };
  }

  /** The receiver is gone (its socket closed); events stay queued for the next one. */
  detach(receiver: StreamReceiver): void {
    if (this.receiver !== receiver) return;
    this.receiver = undefined;
    this.blocked = false;
  }

  /** The receiver can take more. */
  drained(receiver: StreamReceiver): void {
    if (this.receiver !== receiver) return;
    this.blocked = false;
    this.flush();
  }

  /** No more events: the receiver is detached (`finished`) once it got everything. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.flush();
  }

  /** Drops everything and detaches the receiver (`closed`). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const dropped = this.unsent.bytes;
    this.unsent.drain();
    this.sent.drain();
    if (dropped > 0) this.onQueued(-dropped);
    const receiver = this.receiver;
    this.receiver = undefined;
    receiver?.detach('closed');
  }

  private flush(): void {
    while (this.receiver && !this.blocked) {
      const event = this.unsent.shift();
      if (!event) break;
      this.onQueued(-event.data.length);
      this.deliver(this.receiver, event);
    }
    if (this.finished && this.unsent.size === 0 && this.receiver && !this.blocked) {
      const receiver = this.receiver;
      this.receiver = undefined;
      receiver.detach('finished');
    }
  }

  private deliver(receiver: StreamReceiver, event: StreamEvent): void {
    this.sent.push(event);
    while (this.sent.size > this.limits.maxEvents || this.sent.bytes > this.limits.maxBytes)
      this.sent.shift();
    if (!receiver.send(event.id, event.data)) this.blocked = true;
  }
}
