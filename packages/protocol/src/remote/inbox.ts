/**
 * What a remote client channel received, handed to its sink in order, one message a line: held
 * until `start()` and while the reader has paused, and the end delivered after everything that
 * arrived before it. Shared by the WebSocket and the Streamable HTTP channels.
 */
import type { CloseDetails } from '../jsonrpc/errors.js';
import type { ByteSink } from '../transport/types.js';
import { singleLine } from './wire.js';

export class Inbox {
  private sink: ByteSink | undefined;
  private texts: string[] = [];
  private paused = false;
  private pendingEnd: { details: CloseDetails | undefined } | undefined;
  private ended = false;
  private readonly encoder = new TextEncoder();

  /** The reader paused (flow control). */
  get isPaused(): boolean {
    return this.paused;
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
    this.flush();
  }

  /** Ends the sink once everything before is delivered (at once unless not started or paused). */
  end(details: CloseDetails | undefined): void {
    this.pendingEnd ??= { details };
    this.flush();
  }

  private flush(): void {
    const sink = this.sink;
    if (!sink || this.ended) return;
    while (!this.paused && this.texts.length > 0)
      sink.data(this.encoder.encode(singleLine(this.texts.shift() as string) + '\n'));
    const end = this.pendingEnd;
    if (!end || this.paused) return;
    this.ended = true;
    this.texts = [];
    sink.end(end.details);
  }
}
