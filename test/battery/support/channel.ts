/**
 * An in-memory ByteChannel driven byte by byte: the battery decides every chunk boundary the
 * reader sees (inside UTF-8 sequences, between CR and LF, empty chunks) and reads every frame the
 * connection writes back.
 */
import type { ByteChannel, ByteSink, CloseDetails } from '@acp-kit/protocol';

/** A channel whose inbound chunks the test feeds and whose outbound frames it records. */
export class ScriptedChannel implements ByteChannel {
  /** Every line written by the connection, parsed (or the raw text when it is not JSON). */
  readonly out: unknown[] = [];
  /** Raw lines written by the connection. */
  readonly lines: string[] = [];
  closed = false;
  paused = false;
  /** Ids whose replies are not recorded (a reader's own set-up, such as its `initialize`). */
  readonly unrecorded = new Set<string>();
  private sink: ByteSink | undefined;
  private partial = '';

  start(sink: ByteSink): void {
    this.sink = sink;
  }

  write(text: string): boolean {
    this.partial += text;
    let newline: number;
    while ((newline = this.partial.indexOf('\n')) !== -1) {
      const line = this.partial.slice(0, newline);
      this.partial = this.partial.slice(newline + 1);
      let parsed: unknown = line;
      try {
        parsed = JSON.parse(line);
      } catch {
        // Kept as text.
      }
      const id = (parsed as { id?: unknown } | null)?.id;
      if (typeof id === 'string' && this.unrecorded.has(id)) continue;
      this.lines.push(line);
      this.out.push(parsed);
    }
    return true;
  }

  drain(): Promise<void> {
    return Promise.resolve();
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
  }

  close(): void {
    this.closed = true;
  }

  /** Hands one inbound chunk to the connection. */
  feed(chunk: Uint8Array): void {
    this.sink?.data(chunk);
  }

  /** Feeds text as UTF-8 in one chunk. */
  feedText(text: string): void {
    this.feed(new TextEncoder().encode(text));
  }

  /** Ends the inbound side. */
  end(details?: CloseDetails): void {
    this.sink?.end(details);
  }

  /** Resolves once `count` frames were written in total; fails after `timeoutMs`. */
  async waitForOut(count: number, timeoutMs = 10_000): Promise<unknown[]> {
    await eventually(() => this.out.length >= count, `${count} frames from the connection`, timeoutMs);
    return this.out;
  }
}

/** Waits until `predicate` holds, checking after every event-loop turn; fails after `timeoutMs`. */
export async function eventually(predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!predicate()) {
    if (performance.now() > deadline) throw new Error(`${what}: still false after ${timeoutMs} ms`);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
