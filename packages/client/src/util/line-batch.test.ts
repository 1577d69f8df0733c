import { afterEach, describe, expect, it, vi } from 'vitest';
import { LineBatch } from './line-batch.js';

describe('LineBatch', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands many lines over in one batch after the interval', () => {
    vi.useFakeTimers();
    const taken: string[] = [];
    const batch: LineBatch = new LineBatch(() => taken.push(batch.take()), 100, 1024);
    for (let i = 0; i < 50; i++) batch.push(`${i}\n`);
    expect(taken).toEqual([]);
    vi.advanceTimersByTime(99);
    expect(taken).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(taken).toHaveLength(1);
    expect(taken[0]?.split('\n')).toHaveLength(51);
    vi.advanceTimersByTime(1000);
    expect(taken).toHaveLength(1);
  });

  it('hands over at once past the size limit, and take() empties the queue', () => {
    vi.useFakeTimers();
    const taken: string[] = [];
    const batch: LineBatch = new LineBatch(() => taken.push(batch.take()), 100, 10);
    batch.push('12345\n');
    batch.push('67890\n');
    expect(taken).toEqual(['12345\n67890\n']);
    batch.push('x\n');
    expect(batch.take()).toBe('x\n');
    expect(batch.take()).toBe('');
    vi.advanceTimersByTime(1000);
    expect(taken).toHaveLength(1);
  });
});
