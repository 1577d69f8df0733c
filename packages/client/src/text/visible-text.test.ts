import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPlainText } from './escape-scanner.js';
import { visibleText } from './visible-text.js';

describe('visibleText', () => {
  it.each([
    ['src/main.ts\u200b', 'src/main.ts\\u{200b}'],
    ['a\nb\tc\rd', 'a\\nb\\tc\\rd'],
    ['\x1b]0;title\x07', '\\x1b]0;title\\x07'],
    ['\u202eevil.sh', '\\u{202e}evil.sh'],
    ['no\u00a0break', 'no\\u{a0}break'],
    ['tag\u{e0041}', 'tag\\u{e0041}'],
    ['lone \ud800', 'lone \\u{d800}'],
    ['selector\ufe0f joiner\u034f', 'selector\\u{fe0f} joiner\\u{34f}'],
    ['soft\u00adhyphen\ufeff', 'soft\\u{ad}hyphen\\u{feff}'],
    ['é€😀 ordinary text', 'é€😀 ordinary text'],
  ])('%j → %j', (text, shown) => {
    expect(visibleText(text)).toBe(shown);
  });

  it('keeps line breaks when asked (a script shown whole), nothing else', () => {
    expect(visibleText('echo a\necho\u200b b\r', { keepNewlines: true })).toBe('echo a\necho\\u{200b} b\\r');
  });

  it('leaves nothing a terminal acts on, and nothing out (property, fixed seed)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        const shown = visibleText(text);
        expect(isPlainText(shown) && !/[\n\t\u200b-\u200f\u2028\u2029]/.test(shown)).toBe(true);
        // Every character is still there, visible or escaped: the escapes only add.
        expect(shown.length).toBeGreaterThanOrEqual(text.length);
      }),
      { seed: 20261130, numRuns: 2000 },
    );
  });
});
