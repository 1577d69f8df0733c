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
  private head = 0;
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

  /** Number of items waiting (not counting the one being awaited). */
  get size(): number {
    return this.items.length - this.head;
  }

  /** Items waiting, oldest first. */
  pendingItems(): readonly T[] {
    return this.items.slice(this.head);
  }

  push(item: T): void {
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
    if (!this.paused && this.size > this.options.highWater) {
      this.paused = true;
      this.options.onPause();
    }
  }

  /** Drops every waiting item (the one being awaited, if any, still completes). */
  clear(): void {
    this.items = [];
    this.head = 0;
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
      while (!this.waiting && this.head < this.items.length) {
        const item = this.items[this.head] as T;
        this.items[this.head] = undefined as T;
        this.head++;
        this.run(item);
      }
      if (this.head === this.items.length) {
        this.items = [];
        this.head = 0;
      } else if (this.head > 1024 && this.head * 2 > this.items.length) {
        this.items = this.items.slice(this.head);
        this.head = 0;
      }
      if (this.paused && this.size <= this.options.highWater / 2) {
        this.paused = false;
        this.options.onResume();
      }
    } finally {
      this.pumping = false;
    }
  }
}
