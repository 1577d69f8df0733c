/**
 * Lines queued for one append-only file, handed over in batches: after a quiet interval, or at once
 * when enough bytes are waiting. A stream of small updates (a model's tokens arriving one by one)
 * then costs one `write` per interval instead of one per update. A long text (a message of tens
 * of MiB) is never joined with its neighbours nor encoded whole: it is written slice by slice, so
 * that writing it costs no copy of its size.
 */
import { LONG_TEXT_CHARS, type Text } from './append-texts.js';

/**
 * Default pause between a first queued line and the write that takes it. Each write is a round
 * trip through libuv's thread pool (a worker's wakeup, then the main thread's); at 100 ms, the
 * trace and the transcript of a streamed answer made ~20 of them a second, which, alongside the
 * answer's ~10 reads, cost the terminal UI ~5-10% of its CPU for the stream.
 */
export const BATCH_INTERVAL_MS = 500;
/** Default queued size (UTF-16 code units) that is written without waiting. */
export const BATCH_MAX_CHARS = 48 * 1024;
/**
 * Queued plus taken-but-unwritten text (UTF-16 code units) past which a writer asks its producer to
 * wait: a file that cannot keep up with a flood slows the flood down instead of filling memory.
 */
export const BATCH_BACKLOG_CHARS = 1024 * 1024;

/**
 * The queue. `due` is called (once per batch) when the queued lines should be written; the owner
 * then calls {@link take}.
 *
 * @example
 * const batch = new LineBatch(() => void writer.flush());
 * batch.push('{"a":1}\n');
 */
export class LineBatch {
  private lines: Text[] = [];
  private chars = 0;
  /** Taken by the owner and not yet reported written through {@link settled}. */
  private taken = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly due: () => void,
    private readonly intervalMs = BATCH_INTERVAL_MS,
    private readonly maxChars = BATCH_MAX_CHARS,
  ) {}

  /**
   * Queues a line (with its newline), or a piece of one (a long text without its newline, or the
   * body of a long JSON string, escaped when written).
   */
  push(line: Text): void {
    if (line.length === 0) return;
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= this.maxChars) {
      this.cancelTimer();
      this.due();
    } else {
      this.schedule();
    }
  }

  /** Starts the quiet interval without queuing (the owner holds something it will queue by then). */
  schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.due();
    }, this.intervalMs);
  }

  /**
   * Everything queued (none when nothing is), and the queue emptied: runs of short texts joined,
   * each long one ({@link LONG_TEXT_CHARS}) and each JSON string body by itself. Write them with
   * `appendTexts`.
   */
  take(): Text[] {
    this.cancelTimer();
    const lines = this.lines;
    const taken = this.chars;
    this.lines = [];
    this.chars = 0;
    this.taken += taken;
    if (lines.length <= 1) return lines;
    const texts: Text[] = [];
    let run: string[] = [];
    for (const line of lines) {
      if (typeof line === 'string' && line.length < LONG_TEXT_CHARS) {
        run.push(line);
        continue;
      }
      if (run.length > 0) texts.push(run.join(''));
      run = [];
      texts.push(line);
    }
    if (run.length > 0) texts.push(run.join(''));
    return texts;
  }

  /** The owner wrote (or gave up on) `chars` it had taken. */
  settled(chars: number): void {
    this.taken -= chars;
  }

  /** Text queued or taken and not yet written. */
  get backlog(): number {
    return this.chars + this.taken;
  }

  private cancelTimer(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
