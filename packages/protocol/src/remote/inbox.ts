/**
 * What a remote client channel received, handed to its sink in order, one message a line: held
 * until `start()` and while the reader has paused, and the end delivered after everything that
 * arrived before it. Shared by the WebSocket and the Streamable HTTP channels.
 *
 * It behaves like the pipe between a local agent and its client: while the reader rests, messages
 * keep arriving and wait here (the network is read on until {@link INBOX_HOLD_CHARS} are held,
 * then the channel's source is stopped), and when it reads again it gets all of them in one read.
 * Handing them over one per read would defeat read pacing (`coalesceReadsMs`): each read after a
 * rest would start another rest, and a streamed turn would pass one message per rest.
 */
import type { CloseDetails } from '../jsonrpc/errors.js';
import type { ByteSink } from '../transport/types.js';
import { singleLine } from './wire.js';

/** Held text (UTF-16 units) past which the channel stops reading the network: a pipe's buffer. */
export const INBOX_HOLD_CHARS = 64 * 1024;
/** The most one read hands over (a pipe's read), unless one message alone is bigger. */
const READ_CHARS = 64 * 1024;

/** The network side of a channel, stopped while the inbox holds enough. */
export interface InboxSource {
  /** Stop reading the network (pause the socket, stop reading the stream's body). */
  stop(): void;
  /** Read it again. */
  go(): void;
}

export class Inbox {
  private sink: ByteSink | undefined;
  private texts: string[] = [];
  private heldChars = 0;
  private paused = false;
  private sourceStopped = false;
  private flushing = false;
  private pendingEnd: { details: CloseDetails | undefined } | undefined;
  private ended = false;
  private readonly encoder = new TextEncoder();

  constructor(private readonly source: InboxSource = { stop: () => undefined, go: () => undefined }) {}

  /** The reader paused (flow control or a rest). */
  get isPaused(): boolean {
    return this.paused;
  }

  /** Whether the channel should read the network now (false once enough waits for a paused reader). */
  get wantsMore(): boolean {
    return !this.sourceStopped;
  }

  /** Starts delivering to `sink` (what arrived before, on the next microtask). */
  start(sink: ByteSink): void {
    this.sink = sink;
    queueMicrotask(() => this.flush());
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.flush();
  }

  /** A message from the server. */
  push(text: string): void {
    if (this.ended) return;
    this.texts.push(text);
    this.heldChars += text.length;
    this.flush();
    if (!this.sourceStopped && this.heldChars >= INBOX_HOLD_CHARS) {
      this.sourceStopped = true;
      this.source.stop();
    }
  }

  /** Ends the sink once everything before is delivered (at once unless not started or paused). */
  end(details: CloseDetails | undefined): void {
    this.pendingEnd ??= { details };
    this.flush();
  }

  private flush(): void {
    const sink = this.sink;
    // A sink that resumes us from inside `data` is served by the loop already running.
    if (!sink || this.ended || this.flushing) return;
    this.flushing = true;
    try {
      while (!this.paused && this.texts.length > 0) sink.data(this.encoder.encode(this.nextRead()));
    } finally {
      this.flushing = false;
    }
    if (this.sourceStopped && this.heldChars < INBOX_HOLD_CHARS / 2) {
      this.sourceStopped = false;
      this.source.go();
    }
    const end = this.pendingEnd;
    if (!end || this.paused || this.texts.length > 0) return;
    this.ended = true;
    this.texts = [];
    sink.end(end.details);
  }

  /** Everything held, one message a line, up to one read's worth. */
  private nextRead(): string {
    let count = 0;
    let chars = 0;
    for (const text of this.texts) {
      if (count > 0 && chars + text.length > READ_CHARS) break;
      count++;
      chars += text.length;
    }
    const taken = this.texts.splice(0, count);
    this.heldChars -= chars;
    return taken.map((text) => singleLine(text) + '\n').join('');
  }
}
