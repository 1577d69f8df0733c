/**
 * When the history shown with a session has been printed. A reopened session's agent starts after
 * it: on two cores, an agent's Node start beside the UI's printing made the newest items of a long
 * session reach the scrollback later (docs/performance.md, "Sixth round"), while the agent is
 * needed only for the next prompt. A view that is not printed (another tab is shown, no screen)
 * holds nobody back for more than the wait's limit.
 */

/**
 * @example
 * const printed = new HistoryPrinted();
 * await printed.wait(view, 1000); // in the tab: resolves when the printer calls printed(view)
 * printed.printed(view); // in the printer, once the history shown with `view` is written
 */
export class HistoryPrinted {
  private readonly waiters = new Map<object, Set<() => void>>();
  private readonly done = new WeakSet<object>();

  /** Resolves once `printed(view)` is called (at once if it was), or after `limitMs` at the latest. */
  wait(view: object, limitMs: number): Promise<void> {
    if (this.done.has(view)) return Promise.resolve();
    return new Promise((resolve) => {
      const waiters = this.waiters.get(view) ?? new Set<() => void>();
      this.waiters.set(view, waiters);
      const done = (): void => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0 && this.waiters.get(view) === waiters) this.waiters.delete(view);
        resolve();
      };
      const timer = setTimeout(done, limitMs);
      timer.unref?.();
      waiters.add(done);
    });
  }

  /** The history shown with `view` has been written: whoever waits for it goes on. */
  printed(view: object): void {
    this.done.add(view);
    for (const done of [...(this.waiters.get(view) ?? [])]) done();
  }
}
