import { describe, expect, it } from 'vitest';
import { findMatches, firstMatchFrom, isCaseSensitive, matchCounter, stepMatch } from './search.js';

describe('transcript search', () => {
  it('matches across lines, case-insensitively unless the query has a capital (smart case)', () => {
    const lines = ['Read README.md', 'no match here', 'read: readme twice'];
    expect(findMatches(lines, 'readme')).toEqual([
      { line: 0, start: 5, end: 11 },
      { line: 2, start: 6, end: 12 },
    ]);
    expect(findMatches(lines, 'read').map((m) => m.line)).toEqual([0, 0, 2, 2]);
    expect(findMatches(lines, 'Read')).toEqual([{ line: 0, start: 0, end: 4 }]);
    expect(isCaseSensitive('todo')).toBe(false);
    expect(isCaseSensitive('TODO')).toBe(true);
  });

  it('takes the query literally, skips label lines, and keeps offsets of the original text', () => {
    expect(findMatches(['a.b axb (x)'], '.')).toEqual([{ line: 0, start: 1, end: 2 }]);
    expect(findMatches(['a (x)'], '(x)')).toEqual([{ line: 0, start: 2, end: 5 }]);
    expect(findMatches([undefined, 'you'], 'you')).toEqual([{ line: 1, start: 0, end: 3 }]);
    // 'İ' lower-cases to two code units: offsets still point into the line as written.
    expect(findMatches(['İİ done'], 'done')).toEqual([{ line: 0, start: 3, end: 7 }]);
    expect(findMatches(['aaaa'], 'aa')).toHaveLength(2);
    expect(findMatches(['anything'], '')).toEqual([]);
  });

  it('stops counting at the limit', () => {
    const matches = findMatches(
      Array.from({ length: 50 }, () => 'x x x'),
      'x',
      100,
    );
    expect(matches).toHaveLength(100);
    expect(matchCounter(matches, 4, 100)).toBe('5/100+');
    expect(matchCounter([], -1)).toBe('0/0');
  });

  it('starts at the first match from a line, wrapping to the first of all', () => {
    const matches = findMatches(['x', '', 'x x', '', 'x'], 'x');
    expect(firstMatchFrom(matches, 1)).toBe(1);
    expect(firstMatchFrom(matches, 4)).toBe(3);
    expect(firstMatchFrom(matches, 5)).toBe(0);
    expect(firstMatchFrom([], 0)).toBe(-1);
  });

  it('steps to the next and previous match, wrapping around the ends', () => {
    expect(stepMatch(3, 0, 1)).toEqual({ index: 1, wrapped: false });
    expect(stepMatch(3, 2, 1)).toEqual({ index: 0, wrapped: true });
    expect(stepMatch(3, 0, -1)).toEqual({ index: 2, wrapped: true });
    expect(stepMatch(3, -1, 1)).toEqual({ index: 0, wrapped: false });
    expect(stepMatch(3, -1, -1)).toEqual({ index: 2, wrapped: false });
    expect(stepMatch(0, -1, 1)).toEqual({ index: -1, wrapped: false });
  });
});
