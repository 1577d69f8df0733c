/** Small helpers for AbortSignal-driven cancellation. */

/** The error thrown by {@link throwIfAborted} and {@link abortableDelay} when a signal fires. */
export class AbortedError extends Error {
  override readonly name = 'AbortedError';
  constructor() {
    super('cancelled');
  }
}

/** True for errors that mean "the operation was cancelled" (ours, DOM AbortError, AI SDK aborts). */
export function isAbortError(error: unknown): boolean {
  if (error instanceof AbortedError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const name = (error as { name?: unknown }).name;
  return name === 'AbortError' || name === 'ResponseAborted';
}

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new AbortedError();
}

/**
 * Resolves after `ms`, or rejects with {@link AbortedError} as soon as `signal` aborts. Used for
 * pacing (the demo's streaming speed, retry backoff), never to wait for another component.
 */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new AbortedError());
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortedError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Races `promise` against `signal`: rejects with {@link AbortedError} when the signal aborts first.
 * The promise keeps running; use it for work that cannot itself be interrupted.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new AbortedError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new AbortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
