/**
 * Stall detection: a turn with no traffic from the agent for `stallMs` is reported (once, until
 * traffic resumes). One timer per connection, whatever the traffic rate.
 */

/** Watches running turns of one connection. */
export class StallWatch {
  private readonly running = new Set<string>();
  private readonly stalled = new Set<string>();
  private lastTraffic = Date.now();
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `notify(localId, silentMs)` on a stall, `notify(localId, undefined)` when traffic resumes. */
  constructor(
    private readonly stallMs: number,
    private readonly notify: (localId: string, silentMs: number | undefined) => void,
  ) {}

  /** A turn started. */
  start(localId: string): void {
    this.running.add(localId);
    this.lastTraffic = Date.now();
    this.arm();
  }

  /** A turn ended. */
  end(localId: string): void {
    this.running.delete(localId);
    this.stalled.delete(localId);
    if (this.running.size === 0) this.stop();
  }

  /** Inbound traffic (called for every frame: kept cheap). */
  traffic(): void {
    this.lastTraffic = Date.now();
    if (this.stalled.size === 0) return;
    for (const localId of this.stalled) this.notify(localId, undefined);
    this.stalled.clear();
    this.arm();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    if (this.timer || this.running.size === 0) return;
    const delay = Math.max(0, this.lastTraffic + this.stallMs - Date.now());
    this.timer = setTimeout(() => this.check(), delay);
    this.timer.unref();
  }

  private check(): void {
    this.timer = undefined;
    const silent = Date.now() - this.lastTraffic;
    if (silent < this.stallMs) {
      this.arm();
      return;
    }
    for (const localId of this.running) {
      if (this.stalled.has(localId)) continue;
      this.stalled.add(localId);
      this.notify(localId, silent);
    }
  }
}
