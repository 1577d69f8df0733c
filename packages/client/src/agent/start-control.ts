/**
 * The stop-and-start state of an {@link AgentConnection}: whether it is being stopped (and with
 * what grace), whether it was closed for good, the start in progress (which a close waits for)
 * and the signal that abandons that start's `initialize`.
 */
export class StartControl {
  /** Set while the agent is being stopped: an exit now is expected, a start now is abandoned. */
  closing = false;
  /** Set by close(): nothing is started again. */
  stopped = false;
  /** The grace of the stop asked for while starting (the smallest one wins). */
  stopGraceMs = 2000;
  /** Aborts the `initialize` of a start in progress when the connection is closed or killed. */
  private abort = new AbortController();
  /** The start (or restart) in progress, which close() waits for. */
  private starting: Promise<void> | undefined;

  /** The signal of the start in progress. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Runs a start, remembered until it settles. */
  run(start: () => Promise<void>): Promise<void> {
    const starting = start();
    this.starting = starting;
    const done = (): void => {
      if (this.starting === starting) this.starting = undefined;
    };
    void starting.then(done, done);
    return starting;
  }

  /** A new start begins: its own abort signal. */
  begin(): void {
    this.abort = new AbortController();
  }

  /** The agent is being stopped: a start in progress is abandoned with at most this grace. */
  stopWhileStarting(graceMs: number): void {
    this.closing = true;
    this.stopGraceMs = Math.min(this.stopGraceMs, graceMs);
    this.abort.abort();
  }

  /** A restart's old process is gone: the next stop starts with the full grace again. */
  reopen(): void {
    this.closing = false;
    this.stopGraceMs = 2000;
  }

  /** Resolves when the start in progress (if any) has settled, whichever way. */
  async settled(): Promise<void> {
    await this.starting?.catch(() => undefined);
  }
}
