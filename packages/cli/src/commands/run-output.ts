/**
 * What `acp run` prints, on its way to stdout and stderr. Text is collected and handed over in
 * batches — one write per stream per turn of the event loop, or at once past 64 KiB — in exactly
 * the order it was produced, and a stream that does not take it (a slow reader) is waited for:
 * {@link RunOutput.pressure} is what the engine waits on before it reads more from the agent.
 * A long text (a message of tens of MiB) is written slice by slice, each once the stream has taken
 * the previous one: a stream encodes what it is given at once, so one write would copy it whole.
 */
import type { Output } from '../io.js';

/** Batch size (UTF-16 code units) written without waiting for the end of the turn. */
const MAX_BATCH_CHARS = 48 * 1024;
/** Texts longer than this are written in slices of this size. */
const SLICE_CHARS = 1024 * 1024;

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
  /** The long text being written slice by slice; what is queued after it waits. */
  private long: { stream: Output; text: string; from: number } | undefined;

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
    if (this.backedUp.size === 0 && !this.long) return undefined;
    this.drained ??= new Promise<void>((resolve) => {
      this.releaseDrained = resolve;
    });
    return this.drained;
  }

  /** Writes what is queued now. */
  flush(): void {
    this.scheduled = false;
    if (this.long) return;
    const segments = this.segments;
    if (segments.length === 0) return;
    this.segments = [];
    this.pendingChars = 0;
    for (let i = 0; i < segments.length; i++) {
      const { stream, text } = segments[i] as Segment;
      if (text.length > SLICE_CHARS) {
        this.segments = segments.slice(i + 1);
        for (const rest of this.segments) this.pendingChars += rest.text.length;
        this.long = { stream, text, from: 0 };
        return this.writeLong();
      }
      if (stream.write(text) === false) this.waitForDrain(stream);
    }
  }

  /** Writes the long text's next slices, until the stream asks to wait; then what follows it. */
  private writeLong(): void {
    const long = this.long;
    if (!long) return;
    const { stream, text } = long;
    while (long.from < text.length) {
      let to = Math.min(text.length, long.from + SLICE_CHARS);
      // Never between the two halves of a surrogate pair: each slice is encoded on its own.
      const last = text.charCodeAt(to - 1);
      if (to < text.length && last >= 0xd800 && last <= 0xdbff) to--;
      const taken = stream.write(text.slice(long.from, to));
      long.from = to;
      if (!taken && stream.once && stream.off && stream.destroyed !== true) {
        const next = (): void => {
          stream.off?.('drain', next);
          stream.off?.('close', gone);
          this.writeLong();
        };
        // A stream that closes takes nothing more: the rest of the text is dropped.
        const gone = (): void => {
          stream.off?.('drain', next);
          long.from = text.length;
          this.writeLong();
        };
        this.waitForDrain(stream);
        stream.once('drain', next);
        stream.once('close', gone);
        return;
      }
    }
    this.long = undefined;
    this.flush();
    if (this.backedUp.size === 0) this.releasePressure();
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
    // A long text stays a segment of its own: joined, it would be copied before being sliced.
    if (last?.stream === stream && last.text.length <= SLICE_CHARS && text.length <= SLICE_CHARS)
      last.text += text;
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
      if (this.backedUp.size === 0 && !this.long) this.releasePressure();
    };
    // A stream that closes (the reader went away) will never drain: stop waiting for it.
    stream.once('drain', release);
    stream.once('close', release);
  }

  private releasePressure(): void {
    const resolve = this.releaseDrained;
    this.drained = undefined;
    this.releaseDrained = undefined;
    resolve?.();
  }
}
