import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdTable } from './id-table.js';
import type { RequestId } from './types.js';

type Op = { kind: 'set' | 'delete' | 'get'; id: RequestId };

describe('IdTable', () => {
  it('keeps the oldest entry in its fields and the order of insertion when it is deleted', () => {
    const table = new IdTable<{ n: number }>();
    table.set(1, { n: 1 });
    table.set('2', { n: 2 });
    table.set(3, { n: 3 });
    expect(table.delete(1)).toBe(true);
    table.set(4, { n: 4 });
    expect(table.values().map((v) => v.n)).toEqual([2, 3, 4]);
    expect(table.get('2')?.n).toBe(2);
    expect(table.get(2)).toBeUndefined();
    expect(table.size).toBe(3);
    table.clear();
    expect(table.size).toBe(0);
    expect(table.values()).toEqual([]);
  });

  it('behaves like a Map for any sequence of set, get and delete (fixed seed)', () => {
    const id = fc.oneof(fc.integer({ min: -3, max: 6 }), fc.constantFrom('1', '2', 'a'));
    const op = fc.record({ kind: fc.constantFrom<Op['kind']>('set', 'delete', 'get'), id });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const table = new IdTable<{ v: number }>();
        const model = new Map<RequestId, { v: number }>();
        ops.forEach(({ kind, id: key }, i) => {
          if (kind === 'set') {
            const value = { v: i };
            table.set(key, value);
            model.set(key, value);
          } else if (kind === 'delete') {
            expect(table.delete(key)).toBe(model.delete(key));
          } else {
            expect(table.get(key)).toBe(model.get(key));
            expect(table.has(key)).toBe(model.has(key));
          }
          expect(table.size).toBe(model.size);
          expect(table.values()).toEqual([...model.values()]);
        });
      }),
      { seed: 20261128, numRuns: 300 },
    );
  });
});
