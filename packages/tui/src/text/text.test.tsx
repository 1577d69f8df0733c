import { describe, expect, it } from 'vitest';
import { expandTabs, foldLines, splitLines } from './fold.js';
import { base64ByteLength, formatBytes, formatCost, formatCount, formatDuration } from './format.js';
import { displayPath } from './paths.js';
import { displayWidth } from './width.js';

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
    // An agent's currency is its text: escapes removed, cut to a status bar's width.
    expect(formatCost(1, 'USD\u001b[31mred\u001b[3J')).toBe('1 USDred');
    expect(formatCost(1, 'x'.repeat(40))).toBe(`1 ${'x'.repeat(15)}…`);
  });

  it('shows paths relative to the cwd, sanitized', () => {
    expect(displayPath('/w/src/a.ts', '/w', 3)).toBe('src/a.ts:3');
    expect(displayPath('/other/a.ts', '/w')).toBe('/other/a.ts');
    // A file name's invisible characters are part of it: shown escaped, never dropped.
    expect(displayPath('/w/x\x1b]0;t\x07y\n', '/w/')).toBe('x\\x1b]0;t\\x07y\\n');
    expect(displayPath('/w/main.ts\u200b', '/w')).toBe('main.ts\\u{200b}');
  });

  it('measures display width', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('日本')).toBe(4);
    expect(displayWidth('e\u0301')).toBe(1);
  });
});
