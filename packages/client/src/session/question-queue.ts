/**
 * The permission questions of one session that wait for the host: asked one at a time (the user
 * answers one dialog after another), at most {@link MAX_WAITING_QUESTIONS} waiting. An agent that
 * fires a thousand requests at once cannot flood the host with a thousand dialogs.
 */

/** Most questions of one session waiting behind the one being asked. */
export const MAX_WAITING_QUESTIONS = 32;

/** A FIFO of questions, one asked at a time. */
export class QuestionQueue {
  private busy = false;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit = MAX_WAITING_QUESTIONS) {}

  /** Whether a new question would have to wait and no room is left. */
  get full(): boolean {
    return this.busy && this.waiting.length >= this.limit;
  }

  /**
   * Resolves true when it is this question's turn (then call {@link leave} once), or false when
   * `signal` aborts while it waits.
   */
  enter(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const start = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve(true);
      };
      const onAbort = (): void => {
        const index = this.waiting.indexOf(start);
        if (index >= 0) this.waiting.splice(index, 1);
        resolve(false);
      };
      this.waiting.push(start);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The question that had its turn is done: the next one gets its turn. */
  leave(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.busy = false;
  }
}
