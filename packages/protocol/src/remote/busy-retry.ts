/**
 * A full server answers 503 with `Retry-After` (`acp serve`: 5 s), or closes a WebSocket with 1013
 * "Try Again Later" when no agent place is left at `initialize`. The client asks again after that
 * long, a bounded number of times, and says so (a `busy` event) so that a user sees why nothing
 * happens yet. Runtime-neutral.
 */
import { AcpKitError } from '../jsonrpc/errors.js';
import { delay, redactUrl, refusedError, type RemoteClientOptions } from './client-types.js';
import type { RemoteProfile } from './wire.js';

export const BUSY_DEFAULTS = {
  /** Attempts after the first (`RemoteClientOptions.busyRetries`). */
  retries: 3,
  /** The wait when the server names none. */
  waitMs: 2_000,
  /** A server that asks for a longer wait is not asked again. */
  maxWaitMs: 30_000,
} as const;

/** `Retry-After` in ms: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The retries of one connection attempt.
 *
 * @example
 * const busy = new BusyRetry(url, options, 'http', signal);
 * while (response.status === 503 && (await busy.wait(response.headers.get('retry-after')))) response = await post();
 */
export class BusyRetry {
  private attempts = 0;

  constructor(
    private readonly url: string,
    private readonly options: RemoteClientOptions,
    private readonly profile: RemoteProfile,
    private readonly signal: AbortSignal,
  ) {}

  /**
   * After a refusal for being full: waits as the server asked and resolves true, or false at once
   * when the retries are used up or the wait asked for is too long.
   */
  async wait(retryAfter: string | null | undefined): Promise<boolean> {
    const limit = Math.max(0, this.options.busyRetries ?? BUSY_DEFAULTS.retries);
    const ms = retryAfterMs(retryAfter) ?? BUSY_DEFAULTS.waitMs;
    if (this.attempts >= limit || ms > BUSY_DEFAULTS.maxWaitMs || this.signal.aborted) return false;
    this.attempts++;
    this.options.onEvent?.({
      type: 'busy',
      profile: this.profile,
      retryInMs: ms,
      attempt: this.attempts,
      attempts: limit,
    });
    await delay(ms, this.signal);
    return !this.signal.aborted;
  }

  /**
   * The error once we stop asking: the server's words, and how often it was asked; or that we were
   * stopped while waiting.
   */
  error(text: string): AcpKitError {
    if (this.signal.aborted)
      return new AcpKitError(
        'CONNECTION_CLOSED',
        `stopped while waiting to ask ${redactUrl(this.url)} again (the server is full)`,
      );
    const refused = refusedError(503, this.url, text);
    if (this.attempts === 0) return refused;
    return new AcpKitError(
      'REMOTE_REFUSED',
      `${refused.message} (asked ${this.attempts + 1} times)`,
      refused.details,
    );
  }
}
