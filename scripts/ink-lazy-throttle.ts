/**
 * The throttle of Ink's frames and terminal writes in the acp bundle (ink-frame-patch.ts puts it
 * in place of es-toolkit's `throttle` in ink/build/ink.js). Ink 6.8 throttles its renders (30 a
 * second) and its writes (`throttledLog`, a window of 0 ms) with es-toolkit's leading-and-trailing
 * `throttle`, which starts a timer at every leading call to look for a trailing call when the
 * window closes. The UI paces its own frames (a streamed answer is drawn about five times a
 * second), so every frame woke the process twice more, ~1 ms and ~34 ms after it, to find
 * nothing to do: two thirds of a paced stream's timer wakeups. This throttle calls through at
 * once when the window since the last call is over, and starts a timer only for a call that
 * comes inside it (that call runs when the window closes, with the latest arguments): the same
 * calls at the same times, without the idle timers.
 */

/** What the throttle reads the time and starts timers with (tests pass their own). */
export interface ThrottleClock {
  readonly now: () => number;
  readonly setTimeout: (run: () => void, ms: number) => unknown;
  readonly clearTimeout: (timer: unknown) => void;
}

const realClock: ThrottleClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** A throttled function, with es-toolkit's `flush` and `cancel` (Ink calls both on unmount). */
export interface LazyThrottled<A extends unknown[]> {
  (...args: A): void;
  /** Runs the call waiting for the window to close, if any, now. */
  flush(): void;
  /** Drops the call waiting for the window to close, if any. */
  cancel(): void;
}

/**
 * es-toolkit's `throttle(fn, wait, { leading: true, trailing: true })` (from `es-toolkit/compat`:
 * a debounce of `wait` ms with a longest wait of `wait`): a first call runs at once; calls after it
 * run `wait` ms after the latest of them, with its arguments, or at once when the first of them
 * is `wait` ms old. es-toolkit's debounce timer is kept as the time it would fire, and a timer is
 * started only while a call waits for it.
 *
 * @example
 * const draw = lazyThrottle(render, 34); // draw(); draw(); → render now, once more 34 ms later
 */
export function lazyThrottle<A extends unknown[]>(
  fn: (...args: A) => void,
  wait = 0,
  _options?: { readonly leading?: boolean; readonly trailing?: boolean },
  clock: ThrottleClock = realClock,
): LazyThrottled<A> {
  /** When the first call not run yet came (es-toolkit's `pendingAt`). */
  let firstWaiting: number | undefined;
  /** When es-toolkit's debounce timer fires, while it runs. */
  let timerEnd: number | undefined;
  let waiting: A | undefined;
  let timer: unknown;
  const stopTimer = (): void => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
  };
  const runWaiting = (): void => {
    const args = waiting;
    waiting = undefined;
    if (!args) return;
    firstWaiting = undefined;
    fn(...args);
  };
  const fire = (): void => {
    timer = undefined;
    timerEnd = undefined;
    runWaiting();
  };
  const throttled = (...args: A): void => {
    const now = clock.now();
    // The debounce timer ran out with nothing waiting: it would have done nothing.
    if (waiting === undefined && timerEnd !== undefined && now >= timerEnd) timerEnd = undefined;
    firstWaiting ??= now;
    if (now - firstWaiting >= wait) {
      // The longest wait is over: run now and start the debounce again, with nothing waiting.
      stopTimer();
      waiting = undefined;
      firstWaiting = now;
      timerEnd = now + wait;
      fn(...args);
      return;
    }
    const first = timerEnd === undefined;
    timerEnd = now + wait;
    waiting = args;
    if (first) {
      runWaiting();
      return;
    }
    stopTimer();
    timer = clock.setTimeout(fire, wait);
  };
  throttled.flush = (): void => {
    stopTimer();
    runWaiting();
  };
  throttled.cancel = (): void => {
    stopTimer();
    timerEnd = undefined;
    waiting = undefined;
  };
  return throttled;
}
