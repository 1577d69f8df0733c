import { throttle } from 'es-toolkit/compat';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lazyThrottle, type ThrottleClock } from './ink-lazy-throttle.ts';

/** The fake timers' clock, so that both throttles see the same time. */
const clock: ThrottleClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

describe('lazyThrottle (the throttle of Ink’s frames and writes in the bundle)', () => {
  let calls: [number, string][];
  const record = (value: string): void => void calls.push([Date.now(), value]);

  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000 });
    calls = [];
  });
  afterEach(() => vi.useRealTimers());

  it('leaves no timer after a call that ran at once (es-toolkit’s throttle starts one every time)', () => {
    const lazy = lazyThrottle(record, 34, { leading: true, trailing: true }, clock);
    lazy('frame 1');
    expect(calls).toEqual([[1_000, 'frame 1']]);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(200);
    lazy('frame 2');
    expect(calls).toEqual([
      [1_000, 'frame 1'],
      [1_200, 'frame 2'],
    ]);
    expect(vi.getTimerCount()).toBe(0);

    // What Ink used: a timer to look for a trailing call after every frame, even with none.
    const inks = throttle(record, 34, { leading: true, trailing: true });
    inks('frame 3');
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(34);
    expect(calls.at(-1)).toEqual([1_200, 'frame 3']);
  });

  it('runs the calls that follow a first one later, the latest of them, as es-toolkit’s does', () => {
    const lazy = lazyThrottle(record, 34, undefined, clock);
    const inks: [number, string][] = [];
    const reference = throttle((value: string) => void inks.push([Date.now(), value]), 34, {
      leading: true,
      trailing: true,
    });
    const both = (value: string): void => {
      lazy(value);
      reference(value);
    };
    both('a'); // at once
    vi.advanceTimersByTime(10);
    both('b');
    vi.advanceTimersByTime(10);
    both('c'); // b and c: c 34 ms after it came
    vi.advanceTimersByTime(34);
    both('d'); // at once: nothing waits
    vi.advanceTimersByTime(20);
    both('e');
    vi.advanceTimersByTime(20);
    both('f'); // e and f: f 34 ms after it came (e came only 20 ms before it)
    vi.advanceTimersByTime(100);
    both('g'); // long after: at once
    vi.advanceTimersByTime(100);
    expect(calls).toEqual([
      [1_000, 'a'],
      [1_054, 'c'],
      [1_054, 'd'],
      [1_128, 'f'],
      [1_194, 'g'],
    ]);
    expect(calls).toEqual(inks);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('runs what es-toolkit’s runs, when it runs it, for any calls (property, fixed seed)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 80 }), fc.constant(0)), { maxLength: 40 }),
        fc.constantFrom(0, 1, 34),
        (gaps, wait) => {
          vi.setSystemTime(1_000);
          const mine: [number, number][] = [];
          const theirs: [number, number][] = [];
          const lazy = lazyThrottle((n: number) => void mine.push([Date.now(), n]), wait, undefined, clock);
          const reference = throttle((n: number) => void theirs.push([Date.now(), n]), wait, {
            leading: true,
            trailing: true,
          });
          gaps.forEach((gap, n) => {
            vi.advanceTimersByTime(gap);
            lazy(n);
            reference(n);
          });
          vi.advanceTimersByTime(200);
          expect(mine).toEqual(theirs);
        },
      ),
      { seed: 18_4, numRuns: 300 },
    );
  });

  it('calls through every time with a window of 0 ms (Ink’s throttled writes), without timers', () => {
    const lazy = lazyThrottle(record, undefined, { leading: true, trailing: true }, clock);
    lazy('one');
    lazy('two');
    expect(calls).toEqual([
      [1_000, 'one'],
      [1_000, 'two'],
    ]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('flushes a waiting call at once and cancels one (what Ink does when it unmounts)', () => {
    const lazy = lazyThrottle(record, 34, undefined, clock);
    lazy('first');
    lazy('waiting');
    lazy.flush();
    expect(calls.map(([, value]) => value)).toEqual(['first', 'waiting']);
    expect(vi.getTimerCount()).toBe(0);
    lazy.flush(); // nothing waits: nothing runs
    lazy('dropped');
    lazy.cancel();
    vi.advanceTimersByTime(100);
    expect(calls.map(([, value]) => value)).toEqual(['first', 'waiting']);
    expect(vi.getTimerCount()).toBe(0);
  });
});
