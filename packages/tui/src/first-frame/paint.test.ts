/** The first frame's measure of text must be Ink's wherever it draws. */
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { cellWidth, oneCell, truncateLine } from './paint.js';

describe('the width of what the first frame draws', () => {
  it('is one cell for every character it accepts, as Ink measures it (string-width)', () => {
    const disagree: string[] = [];
    for (let code = 0; code <= 0x2fff; code++) {
      if (!oneCell(code)) continue;
      const char = String.fromCodePoint(code);
      if (stringWidth(char) !== 1) disagree.push(`U+${code.toString(16)}`);
    }
    expect(disagree).toEqual([]);
  });

  it('refuses wide, combining and emoji characters', () => {
    for (const text of ['智', 'e\u0301', '🚀', '⏳', '✅', '◽', 'a\u200bb'])
      expect(cellWidth(text), text).toBeUndefined();
    expect(cellWidth('› Message · ⠋ ◌ ●')).toBe(17);
  });
});

describe('a line cut as Ink cuts it (truncate-end)', () => {
  it('keeps width - 1 cells and an ellipsis in the style of the last one kept', () => {
    const line = [
      { text: 'abc', bold: true },
      { text: 'def', color: 'red' },
    ];
    expect(truncateLine(line, 6)).toBe(line);
    expect(truncateLine(line, 5)).toEqual([
      { text: 'abc', bold: true },
      { text: 'd…', color: 'red' },
    ]);
    expect(truncateLine(line, 4)).toEqual([{ text: 'abc…', bold: true }]);
  });
});
