/**
 * How often a crashing agent may be restarted: at most `max` restarts within `windowMs`.
 */

/**
 * A sliding-window restart budget.
 *
 * @example
 * const budget = new RestartBudget({ max: 3, windowMs: 600_000 });
 * if (!budget.take()) throw new Error('agent keeps crashing');
 */
export class RestartBudget {
  private readonly max: number;
  private readonly windowMs: number;
  private readonly times: number[] = [];

  constructor(options: { max?: number; windowMs?: number } = {}) {
    this.max = options.max ?? 3;
    this.windowMs = options.windowMs ?? 10 * 60 * 1000;
  }

  /** Restarts left in the current window. */
  remaining(now = Date.now()): number {
    this.prune(now);
    return Math.max(0, this.max - this.times.length);
  }

  /** Uses one restart; false when the budget is exhausted. */
  take(now = Date.now()): boolean {
    this.prune(now);
    if (this.times.length >= this.max) return false;
    this.times.push(now);
    return true;
  }

  private prune(now: number): void {
    while (this.times.length > 0 && (this.times[0] as number) <= now - this.windowMs) this.times.shift();
  }
}
