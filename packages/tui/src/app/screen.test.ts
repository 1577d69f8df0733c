import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { reprintOnResize } from './screen.js';

describe('reprintOnResize', () => {
  it('prints the session again once a resize that changed the width has settled', () => {
    vi.useFakeTimers();
    try {
      const stdout = Object.assign(new EventEmitter(), { columns: 100, rows: 30 });
      const reprint = vi.fn();
      const off = reprintOnResize(stdout as unknown as NodeJS.WriteStream, reprint, 100);
      // A drag: many events, one reprint after the last.
      for (const columns of [90, 80, 70]) {
        stdout.columns = columns;
        stdout.emit('resize');
        vi.advanceTimersByTime(50);
      }
      expect(reprint).not.toHaveBeenCalled();
      vi.advanceTimersByTime(100);
      expect(reprint).toHaveBeenCalledTimes(1);
      // Only the height changed: the lines keep their width, nothing to print again.
      stdout.rows = 20;
      stdout.emit('resize');
      vi.advanceTimersByTime(200);
      expect(reprint).toHaveBeenCalledTimes(1);
      off();
      stdout.columns = 120;
      stdout.emit('resize');
      vi.advanceTimersByTime(200);
      expect(reprint).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
