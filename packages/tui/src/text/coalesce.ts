/**
 * Coalescing of fast event streams: many streamed deltas per frame become one render.
 * Scheduling is injected so that tests drive time by hand.
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

/** Options of {@link createCoalescer}. */
export interface CoalescerOptions {
  /** Longest time an item waits before it is delivered: 16–33 ms (one or two frames). */
  readonly intervalMs?: number;
  readonly scheduler?: Scheduler;
}

/** Batches items and delivers them at most once per interval. */
export interface Coalescer<T> {
  /** Adds an item; the first item of a batch starts the interval. */
  push(item: T): void;
  /** Delivers the pending batch now (for example before a turn ends). */
  flush(): void;
  /** Delivers what is pending and stops; later pushes are delivered immediately. */
  dispose(): void;
  /** Drops what is pending and stops the timer (for example on unmount). */
  cancel(): void;
  /** Number of items waiting. */
  readonly pending: number;
}

/** Default interval: two frames at 60 Hz. */
export const DEFAULT_COALESCE_MS = 24;

/**
 * Creates a coalescer that calls `deliver` with the items pushed during each interval, in order.
 * The interval is trailing: a burst is delivered `intervalMs` after its first item, so a steady
 * stream renders at a steady rate and a lone item waits at most one interval.
 *
 * @example
 * const chunks = createCoalescer<string>((batch) => store.append(batch.join('')), { intervalMs: 24 });
 * connection.on('agent_message_chunk', (text) => chunks.push(text));
 */
export function createCoalescer<T>(
  deliver: (batch: T[]) => void,
  options: CoalescerOptions = {},
): Coalescer<T> {
  const intervalMs = options.intervalMs ?? DEFAULT_COALESCE_MS;
  const scheduler = options.scheduler ?? realScheduler;
  let batch: T[] = [];
  let timer: unknown;
  let scheduled = false;
  let disposed = false;

  const flush = (): void => {
    if (scheduled) {
      scheduler.clearTimeout(timer);
      scheduled = false;
    }
    if (batch.length === 0) return;
    const items = batch;
    batch = [];
    deliver(items);
  };

  return {
    push(item) {
      batch.push(item);
      if (disposed) {
        flush();
        return;
      }
      if (!scheduled) {
        scheduled = true;
        timer = scheduler.setTimeout(flush, intervalMs);
      }
    },
    flush,
    dispose() {
      flush();
      disposed = true;
    },
    cancel() {
      if (scheduled) scheduler.clearTimeout(timer);
      scheduled = false;
      batch = [];
    },
    get pending() {
      return batch.length;
    },
  };
}

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
