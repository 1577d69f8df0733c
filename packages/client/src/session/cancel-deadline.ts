/**
 * The grace period after `session/cancel`. A turn races the agent's answer against it; once it
 * passes, the turn ends here (the agent ignored the cancellation, or does not even read its stdin).
 */
export class CancelDeadline {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private expire: (() => void) | undefined;

  /** Resolves with the agent's answer, or undefined when the grace period passed first. */
  race<T extends object>(answer: Promise<T>): Promise<T | undefined> {
    // After the deadline the answer still settles (failing: the agent is stopped); nobody waits.
    answer.catch(() => undefined);
    const expired = new Promise<undefined>((resolve) => (this.expire = () => resolve(undefined)));
    return Promise.race([answer, expired]);
  }

  /** Starts the grace period of the running turn (once; `Infinity`: never). */
  arm(ms: number): void {
    if (!this.expire || this.timer !== undefined || !Number.isFinite(ms)) return;
    this.timer = setTimeout(this.expire, ms);
  }

  /** The turn ended. */
  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.expire = undefined;
  }
}
