/**
 * Timers for coalescing fast event streams (many streamed deltas per frame become one render, see
 * `SessionViewStore`), injected so that tests drive time by hand.
 */

/** Timer functions; the global `setTimeout`/`clearTimeout` by default. */
export interface Scheduler {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The global timers. */
export const realScheduler: Scheduler = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Default interval: one frame at the 30 frames a second Ink draws at most. */
export const DEFAULT_COALESCE_MS = 33;

/** A scheduler driven by hand, for tests: `advance(ms)` runs the timers that are due. */
export class ManualScheduler implements Scheduler {
  private now = 0;
  private nextId = 1;
  private readonly timers = new Map<number, { at: number; callback: () => void }>();

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.now + ms, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    if (typeof handle === 'number') this.timers.delete(handle);
  }

  /** Number of timers waiting. */
  get size(): number {
    return this.timers.size;
  }

  /** Moves time forward and runs every timer due by then, in time order. */
  advance(ms: number): void {
    const target = this.now + ms;
    for (;;) {
      let due: [number, { at: number; callback: () => void }] | undefined;
      for (const entry of this.timers)
        if (entry[1].at <= target && (!due || entry[1].at < due[1].at)) due = entry;
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = due[1].at;
      due[1].callback();
    }
    this.now = target;
  }
}
