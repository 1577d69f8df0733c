import { describe, expect, it, vi } from 'vitest';
import { Text } from 'ink';
import { renderInk } from '../test-support/ink.js';
import { createCoalescer, ManualScheduler } from './coalesce.js';
import { useCoalescedStore } from './useCoalescedStore.js';
import { expandTabs, foldLines, splitLines } from './fold.js';
import { base64ByteLength, formatBytes, formatCost, formatCount, formatDuration } from './format.js';
import { displayPath } from './paths.js';
import { displayWidth } from './width.js';

describe('createCoalescer', () => {
  it('delivers a burst once, one interval after its first item', () => {
    const scheduler = new ManualScheduler();
    const deliver = vi.fn<(batch: string[]) => void>();
    const c = createCoalescer(deliver, { intervalMs: 24, scheduler });
    c.push('a');
    scheduler.advance(10);
    c.push('b');
    c.push('c');
    expect(deliver).not.toHaveBeenCalled();
    expect(c.pending).toBe(3);
    scheduler.advance(14);
    expect(deliver).toHaveBeenCalledExactlyOnceWith(['a', 'b', 'c']);
    c.push('d');
    expect(scheduler.size).toBe(1);
    scheduler.advance(24);
    expect(deliver).toHaveBeenLastCalledWith(['d']);
  });

  it('flushes on demand, cancels, and delivers immediately once disposed', () => {
    const scheduler = new ManualScheduler();
    const deliver = vi.fn<(batch: number[]) => void>();
    const c = createCoalescer(deliver, { scheduler });
    c.push(1);
    c.flush();
    expect(deliver).toHaveBeenCalledWith([1]);
    expect(scheduler.size).toBe(0);
    c.push(2);
    c.cancel();
    scheduler.advance(100);
    expect(deliver).toHaveBeenCalledTimes(1);
    c.dispose();
    c.push(3);
    expect(deliver).toHaveBeenLastCalledWith([3]);
  });
});

describe('useCoalescedStore', () => {
  it('re-renders at most once per interval with the latest snapshot', () => {
    const scheduler = new ManualScheduler();
    let value = 0;
    const listeners = new Set<() => void>();
    const subscribe = (l: () => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    };
    const getSnapshot = () => value;
    const set = (v: number) => {
      value = v;
      for (const l of listeners) l();
    };
    const renders = vi.fn();
    function View() {
      const v = useCoalescedStore(subscribe, getSnapshot, { intervalMs: 16, scheduler });
      renders(v);
      return <Text>{`value ${v}`}</Text>;
    }
    const r = renderInk(<View />);
    expect(r.frame()).toBe('value 0');
    const before = renders.mock.calls.length;
    for (let i = 1; i <= 100; i++) set(i);
    r.rerender(<View />);
    expect(r.frame()).toBe('value 0');
    scheduler.advance(16);
    r.rerender(<View />);
    expect(r.frame()).toBe('value 100');
    // Two renders: the rerender before the tick and the one it caused, not a hundred.
    expect(renders.mock.calls.length - before).toBeLessThanOrEqual(3);
    r.unmount();
    expect(listeners.size).toBe(0);
  });
});

describe('folding and text helpers', () => {
  it('folds from the head or the tail, never hiding a single line', () => {
    expect(foldLines([1, 2, 3, 4, 5], 3, 'head')).toEqual({ shown: [1, 2, 3], hidden: 2 });
    expect(foldLines([1, 2, 3, 4, 5], 3, 'tail')).toEqual({ shown: [3, 4, 5], hidden: 2 });
    expect(foldLines([1, 2, 3, 4], 3)).toEqual({ shown: [1, 2, 3, 4], hidden: 0 });
    expect(splitLines('a\r\nb\n')).toEqual(['a', 'b']);
    expect(expandTabs('a\tbc\td', 4)).toBe('a   bc  d');
  });

  it('formats counts, sizes, durations and costs', () => {
    expect([950, 12_345, 200_000, 1_500_000].map(formatCount)).toEqual(['950', '12.3k', '200k', '1.5M']);
    expect([512, 2048, 5 * 1024 * 1024].map(formatBytes)).toEqual(['512 B', '2 KB', '5 MB']);
    expect(base64ByteLength('aGVsbG8=')).toBe(5);
    expect([40_500, 150_000, 3_900_000].map(formatDuration)).toEqual(['40 s', '2 min', '1 h 5 min']);
    expect(formatCost(0.4231, 'USD')).toBe('$0.4231');
    expect(formatCost(12, 'EUR')).toBe('€12.00');
    expect(formatCost(3, 'credits')).toBe('3 credits');
  });

  it('shows paths relative to the cwd, sanitized', () => {
    expect(displayPath('/w/src/a.ts', '/w', 3)).toBe('src/a.ts:3');
    expect(displayPath('/other/a.ts', '/w')).toBe('/other/a.ts');
    expect(displayPath('/w/x\x1b]0;t\x07y\n', '/w/')).toBe('xy ');
  });

  it('measures display width', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('日本')).toBe(4);
    expect(displayWidth('e\u0301')).toBe(1);
  });
});
