import { describe, expect, it } from 'vitest';
import { MAX_STORED_DEPTH, TOO_DEEP_MARKER, capDepth, nestsDeeperThan } from './depth-cap.js';

/** `[[[…]]]` `depth` arrays deep, parsed (JSON.parse builds it without recursion limits). */
const deepArrays = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

describe('capDepth', () => {
  it('returns values within the limit as they are', () => {
    const value = { a: [1, { b: 'c' }], d: null };
    expect(capDepth(value, 3)).toBe(value);
    expect(capDepth('text')).toBe('text');
  });

  it('replaces what is deeper than the limit with the marker, keeping the rest', () => {
    expect(capDepth({ keep: 1, a: { b: { c: {} } } }, 2)).toEqual({ keep: 1, a: { b: TOO_DEEP_MARKER } });
    expect(capDepth([[[[]]]], 3)).toEqual([[[TOO_DEEP_MARKER]]]);
  });

  it('handles a million levels without overflowing the stack, and the result serialises', () => {
    const capped = capDepth(deepArrays(1_000_000));
    expect(nestsDeeperThan(capped, MAX_STORED_DEPTH)).toBe(false);
    expect(JSON.stringify(capped)).toContain(TOO_DEEP_MARKER);
  });

  it('copies a __proto__ key as a plain key, polluting nothing', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"a":{"b":{}}}') as Record<string, unknown>;
    const capped = capDepth(value, 2) as Record<string, unknown>;
    expect(Object.getPrototypeOf(capped)).toBe(Object.prototype);
    expect(Object.keys(capped)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.parse(JSON.stringify(capped))).toEqual(
      JSON.parse('{"__proto__":{"polluted":true},"a":{"b":"' + TOO_DEEP_MARKER + '"}}'),
    );
  });
});
