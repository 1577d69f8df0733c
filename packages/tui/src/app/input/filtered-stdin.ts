/**
 * The stdin Ink reads: the terminal's input passed through {@link KeyInputFilter}. It also lets
 * the app hand the real terminal to another program (terminal auth) and take it back.
 */
import { PassThrough } from 'node:stream';
import { KeyInputFilter, splitKeys, type FilteredKey } from './key-input-filter.js';

/** Options of {@link FilteredStdin}. */
export interface FilteredStdinOptions {
  /** Called for keys Ink cannot report (F1). */
  readonly onKey?: (key: FilteredKey) => void;
  /** Called with the time each chunk of real input arrived (for latency metrics). */
  readonly onInput?: (at: number) => void;
}

/** Ink's view of a TTY stdin, backed by the real one. */
export class FilteredStdin extends PassThrough {
  readonly isTTY: boolean;
  private readonly keyFilter = new KeyInputFilter();
  private listening = false;
  private flushTimer: NodeJS.Immediate | undefined;
  private rawMode = false;
  private readonly queue: string[] = [];

  constructor(
    private readonly real: NodeJS.ReadStream,
    private readonly options: FilteredStdinOptions = {},
  ) {
    // Object mode: each key press written is read back on its own (Ink parses each read as one input).
    super({ objectMode: true });
    this.isTTY = real.isTTY === true;
  }

  /** Ink enables raw mode when it starts reading and disables it when it stops. */
  setRawMode(mode: boolean): this {
    this.rawMode = mode;
    if (this.real.isTTY) this.real.setRawMode(mode);
    if (mode) this.attach();
    else this.detach();
    return this;
  }

  ref(): this {
    this.real.ref();
    return this;
  }

  unref(): this {
    this.real.unref();
    return this;
  }

  /** Stops reading the terminal (before another program uses it). */
  suspend(): void {
    this.detach();
    if (this.real.isTTY) this.real.setRawMode(false);
  }

  /** Reads the terminal again after {@link suspend}. */
  resumeInput(): void {
    if (!this.rawMode) return;
    if (this.real.isTTY) this.real.setRawMode(true);
    this.attach();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    this.options.onInput?.(performance.now());
    const result = this.keyFilter.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    for (const key of result.keys) this.options.onKey?.(key);
    if (result.output !== '') this.enqueue(splitKeys(result.output));
    if (this.flushTimer) clearImmediate(this.flushTimer);
    this.flushTimer = undefined;
    if (this.keyFilter.hasPending) {
      this.flushTimer = setImmediate(() => {
        this.flushTimer = undefined;
        const held = this.keyFilter.flush();
        if (held !== '') this.enqueue([held]);
      });
    }
  };

  /**
   * Hands keys to Ink one per turn of the event loop: Ink re-registers input handlers in effects
   * after each render, so a key delivered in the same turn as the one before it would reach the
   * handlers of the previous render (and see stale state).
   */
  private enqueue(keys: readonly string[]): void {
    const idle = this.queue.length === 0;
    this.queue.push(...keys);
    if (idle) this.drain();
  }

  private drain(): void {
    const key = this.queue.shift();
    if (key === undefined) return;
    this.write(key);
    // A timer, not setImmediate: React flushes the effects of the render this key caused first.
    if (this.queue.length > 0) setTimeout(() => this.drain(), 0);
  }

  private attach(): void {
    if (this.listening) return;
    this.listening = true;
    this.real.on('data', this.onData);
    this.real.resume();
  }

  private detach(): void {
    if (!this.listening) return;
    this.listening = false;
    this.real.off('data', this.onData);
    this.real.pause();
  }
}
