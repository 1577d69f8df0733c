import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import fastStringWidth, { isLoneCluster, loneClusterWidth } from './string-width-fast.ts';

describe('fastStringWidth (string-width for the bundle)', () => {
  it('measures what string-width measures', () => {
    const part = fc.constantFrom(
      'a',
      ' ',
      '~',
      'é',
      '•',
      '─',
      '│',
      '●',
      '…',
      '→',
      '©',
      '\u00ad',
      '\u00a0',
      '◽',
      '⚑',
      '⚠',
      '⠋',
      '⏳',
      '✓',
      '\u2329',
      '界',
      '👍',
      'e\u0301',
      '\u0301',
      '\ufe0f',
      '\u200d',
      '\t',
      '\n',
      '\x7f',
      '\x9b',
      '\x1b[1m',
      '\x1b[38;2;12;34;255m',
      '\x1b[12345m',
      '\x1b[m',
      '\x1b[',
      '\x1b]8;;https://x\x07',
      '\x1b[?25h',
      '\x1b7',
      '\x1b',
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        expect(fastStringWidth(text)).toBe(stringWidth(text));
        for (const options of [{ countAnsiEscapeCodes: true }, { ambiguousIsNarrow: true }, {}])
          expect(fastStringWidth(text, options)).toBe(stringWidth(text, options));
      }),
      { seed: 11, numRuns: 20_000 },
    );
  });

  it('knows the width of every lone cluster without string-width', () => {
    for (let code = 0; code <= 0x2fff; code++) {
      if (!isLoneCluster(code)) continue;
      const character = String.fromCodePoint(code);
      expect([code.toString(16), loneClusterWidth(code)]).toEqual([
        code.toString(16),
        stringWidth(character),
      ]);
    }
  });

  it('passes options through', () => {
    expect(fastStringWidth('\x1b[1mab\x1b[22m', { countAnsiEscapeCodes: true })).toBe(
      stringWidth('\x1b[1mab\x1b[22m', { countAnsiEscapeCodes: true }),
    );
    expect(fastStringWidth('±', { ambiguousIsNarrow: false })).toBe(
      stringWidth('±', { ambiguousIsNarrow: false }),
    );
  });
});
