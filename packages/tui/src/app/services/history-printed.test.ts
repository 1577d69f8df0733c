import { afterEach, describe, expect, it, vi } from 'vitest';
import { HistoryPrinted } from './history-printed.js';

afterEach(() => {
  vi.useRealTimers();
});

/** Whether `promise` has settled once pending callbacks ran. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

describe('HistoryPrinted', () => {
  it('lets whoever waits for a view go on once its history is printed, and not before', async () => {
    vi.useFakeTimers();
    const printed = new HistoryPrinted();
    const view = {};
    const other = {};
    const first = printed.wait(view, 1000);
    const second = printed.wait(view, 1000);
    const elsewhere = printed.wait(other, 1000);
    expect(await settled(first)).toBe(false);
    printed.printed(view);
    expect(await settled(first)).toBe(true);
    expect(await settled(second)).toBe(true);
    expect(await settled(elsewhere)).toBe(false);
    // Printed before anyone waited: no wait at all.
    expect(await settled(printed.wait(view, 1000))).toBe(true);
  });

  it('waits no longer than its limit for a view that is not printed', async () => {
    vi.useFakeTimers();
    const printed = new HistoryPrinted();
    const waiting = printed.wait({}, 1000);
    vi.advanceTimersByTime(999);
    expect(await settled(waiting)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await settled(waiting)).toBe(true);
  });
});
