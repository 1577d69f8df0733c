/**
 * The single ordered queue every inbound message goes through (see `JsonRpcConnection`).
 * Items are processed one at a time; when processing returns a thenable, the queue waits for it
 * before the next item. Runtime-neutral.
 */

/** Processes one item; returns a thenable only when the queue must wait for it. */
export type ProcessItem<T> = (item: T) => PromiseLike<unknown> | undefined;

export interface InboundQueueOptions {
  /** Above this many queued items, `onPause` is called; `onResume` once back at half of it. */
  highWater: number;
  /** The same for the total weight (bytes) of the queued items (default: no limit). */
  highWaterWeight?: number;
  onPause(): void;
  onResume(): void;
  /** Called when a thenable returned by `process` rejects. */
  onAsyncError(error: unknown): void;
}

/**
 * FIFO with a fast path: when idle and empty, an item is processed synchronously without being
 * stored, and no promise is created unless the processor returns one.
 *
 * @example
 * const queue = new InboundQueue<string>((item) => handle(item), { highWater: 1024, onPause, onResume, onAsyncError });
 * queue.push('first');
 */
export class InboundQueue<T> {
  private readonly process: ProcessItem<T>;
  private readonly options: InboundQueueOptions;
  private items: T[] = [];
  /** Weight of each item in `items` (same indexes). */
  private weights: number[] = [];
  private head = 0;
  private weight = 0;
  /** Waiting for a thenable returned by `process`. */
  private waiting = false;
  /** Inside the processing loop (guards against re-entrant pumping). */
  private pumping = false;
  private paused = false;
  // Bound once: re-used for every asynchronous item instead of allocating closures per message.
  private readonly onSettled = (): void => {
    this.waiting = false;
    this.pump();
  };
  private readonly onRejected = (error: unknown): void => {
    this.options.onAsyncError(error);
    this.onSettled();
  };

  constructor(process: ProcessItem<T>, options: InboundQueueOptions) {
    this.process = process;
    this.options = options;
  }

  /** Above its high water since `onPause`, until `onResume`. */
  get isPaused(): boolean {
    return this.paused;
  }

  /** Number of items waiting (not counting the one being awaited). */
  get size(): number {
    return this.items.length - this.head;
  }

  /** Total weight of the items waiting. */
  get queuedWeight(): number {
    return this.weight;
  }

  /** Items waiting, oldest first. */
  pendingItems(): readonly T[] {
    return this.items.slice(this.head);
  }

  /** Adds an item; `weight` (e.g. its size in bytes) counts towards `highWaterWeight` while it waits. */
  push(item: T, weight = 0): void {
    if (!this.waiting && !this.pumping && this.head === this.items.length) {
      this.pumping = true;
      try {
        this.run(item);
      } finally {
        this.pumping = false;
      }
      // The processor may have pushed re-entrantly.
      if (!this.waiting && this.head < this.items.length) this.pump();
      return;
    }
    this.items.push(item);
    this.weights.push(weight);
    this.weight += weight;
    if (!this.paused && this.overHighWater()) {
      this.paused = true;
      this.options.onPause();
    }
  }

  /** Drops every waiting item (the one being awaited, if any, still completes). */
  clear(): void {
    this.items = [];
    this.weights = [];
    this.head = 0;
    this.weight = 0;
  }

  private overHighWater(): boolean {
    const maxWeight = this.options.highWaterWeight;
    return this.size > this.options.highWater || (maxWeight !== undefined && this.weight > maxWeight);
  }

  private belowLowWater(): boolean {
    const maxWeight = this.options.highWaterWeight;
    return (
      this.size <= this.options.highWater / 2 && (maxWeight === undefined || this.weight <= maxWeight / 2)
    );
  }

  private run(item: T): void {
    const pending = this.process(item);
    if (pending !== undefined) {
      this.waiting = true;
      try {
        pending.then(this.onSettled, this.onRejected);
      } catch (error) {
        // A thenable whose `then` throws: report it and move on.
        this.waiting = false;
        this.options.onAsyncError(error);
      }
    }
  }

  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    try {
      // onResume may deliver input at once (a channel handing over what it read meanwhile): what
      // it pushes is processed here, not left waiting for a pump that would never come.
      do {
        while (!this.waiting && this.head < this.items.length) {
          const item = this.items[this.head] as T;
          this.items[this.head] = undefined as T;
          this.weight -= this.weights[this.head] as number;
          this.head++;
          this.run(item);
        }
        if (this.head === this.items.length) {
          this.items = [];
          this.weights = [];
          this.head = 0;
        } else if (this.head > 1024 && this.head * 2 > this.items.length) {
          this.items = this.items.slice(this.head);
          this.weights = this.weights.slice(this.head);
          this.head = 0;
        }
        if (this.paused && this.belowLowWater()) {
          this.paused = false;
          this.options.onResume();
        }
      } while (!this.waiting && this.head < this.items.length);
    } finally {
      this.pumping = false;
    }
  }
}
