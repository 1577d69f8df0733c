import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { MarkdownView } from '../markdown/MarkdownView.js';
import { renderInk } from '../test-support/ink.js';
import { displayWidth } from './width.js';

describe('displayWidth', () => {
  it('counts emoji as two cells, including ZWJ sequences, VS16 forms, keycaps, skin tones and flags', () => {
    for (const emoji of ['✅', '❌', '🚀', '⚡', '🎉']) expect(displayWidth(emoji), emoji).toBe(2);
    expect(displayWidth('✅ done')).toBe(7);
    expect(displayWidth('👩‍💻')).toBe(2); // woman, ZWJ, laptop
    expect(displayWidth('👨‍👩‍👧‍👦')).toBe(2);
    expect(displayWidth('🏳️‍🌈')).toBe(2);
    expect(displayWidth('❤️')).toBe(2); // VS16: emoji presentation
    expect(displayWidth('❤')).toBe(1); // text presentation
    expect(displayWidth('1️⃣')).toBe(2);
    expect(displayWidth('👍🏽')).toBe(2);
    expect(displayWidth('🇫🇷')).toBe(2);
  });

  it('counts CJK, fullwidth forms and Hangul as two cells, halfwidth katakana as one', () => {
    expect(displayWidth('日本語')).toBe(6);
    expect(displayWidth('ＡＢ')).toBe(4);
    expect(displayWidth('한국어')).toBe(6);
    expect(displayWidth('ｱｲ')).toBe(2);
    expect(displayWidth('表 table')).toBe(8);
  });

  it('gives combining marks no cell of their own', () => {
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('A\u030a\u0323')).toBe(1);
    expect(displayWidth('Z\u0351\u036b\u0343\u036a\u0302\u036b')).toBe(1); // stacked marks
    expect(displayWidth('café')).toBe(4);
  });

  it('gives control and zero-width characters no cell', () => {
    expect(displayWidth('a\u0007b\u0000c')).toBe(3);
    expect(displayWidth('\u007f\u0085\u0090')).toBe(0);
    expect(displayWidth('a\u200bb')).toBe(2); // zero-width space
    expect(displayWidth('co\u00adop')).toBe(4); // soft hyphen
    expect(displayWidth('\ufeffx')).toBe(1); // BOM
    expect(displayWidth('')).toBe(0);
  });

  it('agrees with string-width on every code point it measures without it, alone and with VS16', () => {
    const ranges = [
      [0x00, 0x24f],
      [0x2000, 0x2fff],
      [0x3000, 0x30ff],
      [0x3400, 0x4dbf],
      [0x4e00, 0x9fff],
      [0xac00, 0xd7a3],
      [0xf900, 0xfaff],
      [0xff01, 0xffe6],
      [0x1f000, 0x1faff],
      [0x20000, 0x20fff],
    ];
    for (const [from, to] of ranges) {
      for (let code = from as number; code <= (to as number); code++) {
        for (const text of [String.fromCodePoint(code), `${String.fromCodePoint(code)}\ufe0f`]) {
          if (displayWidth(text) !== stringWidth(text))
            expect(displayWidth(text), code.toString(16)).toBe(stringWidth(text));
        }
      }
    }
  });

  it('agrees with string-width on text mixing those with marks, joiners, jamo, flags and escapes', () => {
    const pieces = fc.constantFrom(
      'a',
      ' ',
      'é',
      '—',
      '日',
      '가',
      'ア',
      '\t',
      '\r\n',
      '\x1b[31m',
      '\x9b1m',
      '\x1b',
      '©',
      '®',
      '\u00ad',
      '\u0301',
      '\u0308',
      '\u200d',
      '\u200b',
      '\ufe0f',
      '\ufe0e',
      '\u20e3',
      '\u3099',
      '\u302a',
      '\u1100',
      '\u1161',
      '\u11a8',
      '\u0600',
      '\u0915\u094d\u0937',
      '🇫',
      '🇷',
      '👩',
      '💻',
      '✅',
      '❤',
      '🏽',
      '〰',
      '〽',
      'ﾞ',
      'ｱ',
    );
    const text = fc.array(fc.oneof(pieces, fc.string({ unit: 'binary', maxLength: 3 })), { maxLength: 24 });
    fc.assert(
      fc.property(text, (parts) => {
        const joined = parts.join('');
        expect(displayWidth(joined)).toBe(stringWidth(joined));
      }),
      { seed: 20_260_710, numRuns: 3000 },
    );
  });
});

describe('a Markdown table with emoji and CJK', () => {
  it('aligns the columns and wraps no cell', () => {
    const text =
      '| ok | step | note |\n|---|---|---|\n| ✅✅✅ | build | ok |\n| ❌ | tests | 2 failed |\n| 🚀🚀 | 部署 | done |\n';
    const { frame } = renderInk(<MarkdownView text={text} />);
    const lines = frame().split('\n');
    expect(lines).toHaveLength(5);
    // The cell where each column separator starts, in every row but the rule.
    const separators = (line: string): number[] =>
      [...line.matchAll(/│/g)].map((m) => stringWidth(line.slice(0, m.index)));
    const rows = lines.filter((_, i) => i !== 1).map(separators);
    for (const row of rows) expect(row, lines.join('\n')).toEqual(rows[0]);
    expect(lines[3]).toBe('❌     │ tests │ 2 failed');
  });
});
