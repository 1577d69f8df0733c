/**
 * Read pacing: while a peer streams notifications in many small writes (an agent's answer, a
 * few words per `session/update`), reading every one as it arrives wakes the process hundreds of
 * times a second, and each wakeup costs far more than the frame it reads (~0.1 ms of CPU per
 * wakeup here, against ~20 µs to handle a frame in a batch). Resting between reads lets the frames
 * that arrive meanwhile wait in the pipe and be read and handled together.
 *
 * Only a stream of notifications in small reads is paced: a chunk holding a request or a response
 * ends the streak, so a peer that asks and waits for answers (file reads, permissions) is never
 * slowed; the first frame after a quiet spell is read at once; a flood (big reads, and the small
 * ones right after them) is read as fast as it comes. Runtime-neutral (timers only).
 */

/** Notification-only reads in a row, each soon after the previous, before reading rests. */
const STREAK = 2;
/**
 * A read this big means the peer writes faster than we read: there are no idle wakeups to save,
 * and resting would only cap the throughput (a pipe holds 64 KiB).
 */
export const MAX_PACED_READ_BYTES = 16 * 1024;

/**
 * Decides after each inbound chunk whether reading should rest, and for how long.
 *
 * @example
 * const pacer = new ReadPacer(50);
 * // after handling a chunk that held only notifications:
 * if (pacer.afterRead(true, chunk.length, Date.now())) pauseFor(pacer.restMs);
 */
export class ReadPacer {
  readonly restMs: number;
  private lastReadAt = Number.NEGATIVE_INFINITY;
  private lastBigReadAt = Number.NEGATIVE_INFINITY;
  private streak = 0;

  constructor(restMs: number) {
    this.restMs = restMs;
  }

  /**
   * Records a read of `bytes` at `now` (ms) and whether it held only notifications; true when
   * reading should rest for {@link restMs} before the next read.
   */
  afterRead(onlyNotifications: boolean, bytes: number, now: number): boolean {
    const soon = now - this.lastReadAt <= this.restMs;
    this.lastReadAt = now;
    if (bytes >= MAX_PACED_READ_BYTES) this.lastBigReadAt = now;
    // After a big read the small ones that follow are the same flood read faster than it is
    // written: resting would leave the writer blocked on a full pipe.
    const flooding = now - this.lastBigReadAt <= this.restMs;
    const paced = onlyNotifications && !flooding;
    this.streak = paced && soon ? this.streak + 1 : paced ? 1 : 0;
    return this.streak >= STREAK;
  }

  /** Reading resumed at `now` after a rest: what is read at once continues the streak. */
  resumed(now: number): void {
    this.lastReadAt = now;
  }
}
