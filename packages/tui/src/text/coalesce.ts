/**
 * Timers for coalescing fast event streams (many streamed deltas per frame become one render, see
 * `SessionViewStore`), injected so that tests drive time by hand.
 */

/** Timer functions; the global `setTimeout`/`clearTimeout` by default. */
export interface Scheduler {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** A callback for "as soon as the current I/O is handled" (`setTimeout(callback, 0)`). */
interface Soon {
  readonly immediate: ReturnType<typeof setImmediate>;
}

const isSoon = (handle: unknown): handle is Soon =>
  typeof handle === 'object' && handle !== null && 'immediate' in handle;

/**
 * The global timers; a wait of 0 runs the callback with `setImmediate`, after the I/O being
 * handled: Node's `setTimeout(callback, 0)` waits 1 ms, a sleep and a wakeup of the process each
 * time (a frame of streamed text printed what settled in it a wakeup later).
 */
export const realScheduler: Scheduler = {
  setTimeout: (callback, ms) =>
    ms <= 0 ? ({ immediate: setImmediate(callback) } satisfies Soon) : setTimeout(callback, ms),
  clearTimeout: (handle) => {
    if (isSoon(handle)) clearImmediate(handle.immediate);
    else clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
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

  /** The time of this scheduler's clock (ms since it was made). */
  get time(): number {
    return this.now;
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
