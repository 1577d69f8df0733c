/**
 * Lines queued for one append-only file, handed over in batches: after a quiet interval, or at once
 * when enough bytes are waiting. A stream of small updates (a model's tokens arriving one by one)
 * then costs one `write` per interval instead of one per update.
 */

/** Default pause between a first queued line and the write that takes it. */
export const BATCH_INTERVAL_MS = 100;
/** Default queued size (UTF-16 code units) that is written without waiting. */
export const BATCH_MAX_CHARS = 256 * 1024;

/**
 * The queue. `due` is called (once per batch) when the queued lines should be written; the owner
 * then calls {@link take}.
 *
 * @example
 * const batch = new LineBatch(() => void writer.flush());
 * batch.push('{"a":1}\n');
 */
export class LineBatch {
  private lines: string[] = [];
  private chars = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly due: () => void,
    private readonly intervalMs = BATCH_INTERVAL_MS,
    private readonly maxChars = BATCH_MAX_CHARS,
  ) {}

  /** Queues a line (with its newline). */
  push(line: string): void {
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= this.maxChars) {
      this.cancelTimer();
      this.due();
    } else {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.due();
      }, this.intervalMs);
    }
  }

  /** Everything queued, joined (empty when nothing is), and the queue emptied. */
  take(): string {
    this.cancelTimer();
    const text = this.lines.length === 1 ? (this.lines[0] as string) : this.lines.join('');
    this.lines = [];
    this.chars = 0;
    return text;
  }

  private cancelTimer(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
