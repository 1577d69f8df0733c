/**
 * The stdin Ink reads: the terminal's input passed through {@link KeyInputFilter}, with the
 * terminal's bracketed paste mode on while Ink reads keys. It also lets the app hand the real
 * terminal to another program (terminal auth) and take it back.
 */
import { PassThrough } from 'node:stream';
import { KeyInputFilter, type FilteredKey } from './key-input-filter.js';

/** Options of {@link FilteredStdin}. */
export interface FilteredStdinOptions {
  /** Called for keys Ink cannot report (F1). */
  readonly onKey?: (key: FilteredKey) => void;
  /** Called with the time each chunk of real input arrived (for latency metrics). */
  readonly onInput?: (at: number) => void;
  /**
   * The terminal's output, to turn bracketed paste mode on while keys are read (and off when they
   * are not): pastes then arrive marked, whole, and their line breaks never send the prompt.
   */
  readonly terminal?: { write(data: string): unknown };
}

/**
 * Typed text at most this long is handed on as separate key presses (a burst of keys typed faster
 * than they are read); longer text is inserted whole. Either way a line break typed with it is
 * Enter: only a bracketed paste inserts one.
 */
export const MAX_TYPED_KEYS = 16;

/** Bracketed paste mode on and off (DECSET / DECRST 2004). */
export const BRACKETED_PASTE_ON = '\x1b[?2004h';
export const BRACKETED_PASTE_OFF = '\x1b[?2004l';

/** Ink's view of a TTY stdin, backed by the real one. */
export class FilteredStdin extends PassThrough {
  readonly isTTY: boolean;
  private readonly keyFilter = new KeyInputFilter();
  private listening = false;
  private flushTimer: NodeJS.Immediate | undefined;
  private rawMode = false;
  private pasteMode = false;
  /** A key was handed to Ink in this turn of the event loop: the next one waits for a timer. */
  private spacing = false;
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
    for (const { kind, text } of result.segments) {
      // A lone pasted tab would complete a suggestion: pasted text never acts as a key.
      if (kind === 'paste') {
        if (text !== '\t') this.enqueue([text]);
      } else if (kind === 'key' || text.length > MAX_TYPED_KEYS) this.enqueue([text]);
      else this.enqueue([...text]);
    }
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
   * handlers of the previous render (and see stale state). That holds across chunks too: a key
   * read in the turn that handed over the last key of the previous chunk waits as well.
   */
  private enqueue(keys: readonly string[]): void {
    this.queue.push(...keys);
    if (!this.spacing) this.drain();
  }

  private drain(): void {
    const key = this.queue.shift();
    if (key === undefined) return;
    this.write(key);
    this.spacing = true;
    // A timer, not setImmediate: React renders for this key and flushes its effects first.
    setTimeout(() => {
      this.spacing = false;
      this.drain();
    }, 0);
  }

  private setPasteMode(on: boolean): void {
    if (!this.options.terminal || !this.real.isTTY || this.pasteMode === on) return;
    this.pasteMode = on;
    this.options.terminal.write(on ? BRACKETED_PASTE_ON : BRACKETED_PASTE_OFF);
  }

  private attach(): void {
    this.setPasteMode(true);
    if (this.listening) return;
    this.listening = true;
    this.real.on('data', this.onData);
    this.real.resume();
  }

  private detach(): void {
    this.setPasteMode(false);
    if (!this.listening) return;
    this.listening = false;
    this.real.off('data', this.onData);
    this.real.pause();
  }
}
