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
  /** Who waits for each view (a view's entry goes with it). */
  private readonly waiters = new WeakMap<object, Set<() => void>>();
  private readonly printedViews = new WeakSet<object>();

  /** Resolves once `printed(view)` is called (at once if it was), or after `limitMs` at the latest. */
  wait(view: object, limitMs: number): Promise<void> {
    if (this.printedViews.has(view)) return Promise.resolve();
    const waiters = this.waiters.get(view) ?? new Set<() => void>();
    this.waiters.set(view, waiters);
    return new Promise((resolve) => {
      const go = (): void => {
        clearTimeout(timer);
        waiters.delete(go);
        resolve();
      };
      const timer = setTimeout(go, limitMs);
      timer.unref?.();
      waiters.add(go);
    });
  }

  /** The history shown with `view` has been written: whoever waits for it goes on. */
  printed(view: object): void {
    this.printedViews.add(view);
    for (const go of [...(this.waiters.get(view) ?? [])]) go();
  }
}
