/**
 * What `acp run` prints, on its way to stdout and stderr. Text is collected and handed over in
 * batches — one write per stream per turn of the event loop, or at once past 64 KiB — in exactly
 * the order it was produced, and a stream that does not take it (a slow reader) is waited for:
 * {@link RunOutput.pressure} is what the engine waits on before it reads more from the agent.
 */
import type { Output } from '../io.js';

/** Batch size (UTF-16 code units) written without waiting for the end of the turn. */
const MAX_BATCH_CHARS = 48 * 1024;

interface Segment {
  stream: Output;
  text: string;
}

/**
 * @example
 * const output = new RunOutput(io.stdout, io.stderr);
 * output.out('answer');
 * output.err('▸ tool: Read README.md\n');
 * connection.addBackpressure(() => output.pressure());
 * await output.settle();
 */
export class RunOutput {
  /** Consecutive text for the same stream is merged into one segment. */
  private segments: Segment[] = [];
  private pendingChars = 0;
  private scheduled = false;
  private readonly backedUp = new Set<Output>();
  private drained: Promise<void> | undefined;
  private releaseDrained: (() => void) | undefined;

  constructor(
    readonly stdout: Output,
    readonly stderr: Output,
  ) {}

  /** Queues text for stdout. */
  out(text: string): void {
    this.push(this.stdout, text);
  }

  /** Queues text for stderr. */
  err(text: string): void {
    this.push(this.stderr, text);
  }

  /** A promise while a stream has not taken what it was given (resolves once it has), else undefined. */
  pressure(): Promise<void> | undefined {
    if (this.backedUp.size === 0) return undefined;
    this.drained ??= new Promise<void>((resolve) => {
      this.releaseDrained = resolve;
    });
    return this.drained;
  }

  /** Writes what is queued now. */
  flush(): void {
    this.scheduled = false;
    const segments = this.segments;
    if (segments.length === 0) return;
    this.segments = [];
    this.pendingChars = 0;
    for (const { stream, text } of segments) {
      if (stream.write(text) === false) this.waitForDrain(stream);
    }
  }

  /**
   * Writes what is queued and waits until both streams have taken everything, at most `maxWaitMs`:
   * past it (a reader that stopped reading), what they still hold is dropped so the process can end.
   */
  async settle(maxWaitMs = Infinity): Promise<void> {
    this.flush();
    const pending = this.pressure();
    if (!pending) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const gaveUp = await Promise.race([
      pending.then(() => false),
      new Promise<boolean>((resolve) => {
        if (Number.isFinite(maxWaitMs)) timer = setTimeout(() => resolve(true), maxWaitMs);
      }),
    ]);
    clearTimeout(timer);
    if (gaveUp) for (const stream of this.backedUp) stream.destroy?.();
  }

  private push(stream: Output, text: string): void {
    if (text === '') return;
    const last = this.segments[this.segments.length - 1];
    if (last?.stream === stream) last.text += text;
    else this.segments.push({ stream, text });
    this.pendingChars += text.length;
    if (this.pendingChars >= MAX_BATCH_CHARS) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private waitForDrain(stream: Output): void {
    // Streams that cannot tell when they drain (test doubles), or never will, are not waited for.
    if (!stream.once || !stream.off || stream.destroyed === true || this.backedUp.has(stream)) return;
    this.backedUp.add(stream);
    const release = (): void => {
      stream.off?.('drain', release);
      stream.off?.('close', release);
      this.backedUp.delete(stream);
      if (this.backedUp.size > 0) return;
      const resolve = this.releaseDrained;
      this.drained = undefined;
      this.releaseDrained = undefined;
      resolve?.();
    };
    // A stream that closes (the reader went away) will never drain: stop waiting for it.
    stream.once('drain', release);
    stream.once('close', release);
  }
}
