import { Chalk, type ChalkInstance } from 'chalk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import wrapAnsi from 'wrap-ansi';
import stringWidth from 'string-width';
import { widerThan, wrapStyledRows } from './wrap-styled.js';

const reference = (text: string, columns: number) =>
  wrapAnsi(text, columns, { trim: false, hard: true }).split('\n');

const chalks = [new Chalk({ level: 3 }), new Chalk({ level: 2 }), new Chalk({ level: 1 })];

type Styler = (chalk: ChalkInstance, text: string) => string;
const stylers: Styler[] = [
  (c, t) => c.bold(t),
  (c, t) => c.italic(t),
  (c, t) => c.underline(t),
  (c, t) => c.dim(t),
  (c, t) => c.inverse(t),
  (c, t) => c.strikethrough(t),
  (c, t) => c.red(t),
  (c, t) => c.cyanBright(t),
  (c, t) => c.bgBlue(t),
  (c, t) => c.hex('#8ab4f8')(t),
  (c, t) => c.bgHex('#202124')(t),
  (c, t) => c.ansi256(208)(t),
];

/** Pieces of text: words, runs of spaces, CJK, emoji and ZWJ sequences, combining marks, long words. */
const piece = fc.oneof(
  fc.constantFrom(
    ' ',
    '  ',
    '   ',
    '\n',
    'a',
    'word',
    'wrap',
    'x.y',
    '日本語',
    '한국',
    '✅',
    '⚠️',
    '👩‍💻',
    '🇫🇷',
    'e\u0301',
    '\u0301',
    '\u200b',
    'ß',
  ),
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.stringMatching(/^[a-z]{10,60}$/),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }),
);

/** Nodes in a span of one chalk style, at one colour level. */
const span = (node: fc.Arbitrary<string>) =>
  fc
    .tuple(
      fc.nat(chalks.length - 1),
      fc.nat(stylers.length - 1),
      fc.array(node, { minLength: 1, maxLength: 4 }),
    )
    .map(([c, s, inner]) => (stylers[s] as Styler)(chalks[c] as ChalkInstance, inner.join('')));

/** A styled text: pieces, some in nested spans of chalk styles. */
const styled: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    piece,
    span(tie('node')),
    fc.array(tie('node'), { minLength: 1, maxLength: 5 }).map((nodes) => nodes.join('')),
  ),
})).node;

/** Printable ASCII pieces: words, runs of spaces, words longer than most rows. */
const asciiPiece = fc.oneof(
  fc.constantFrom(' ', '  ', 'a', 'word', 'x.y', '**', '[1m'),
  fc.stringMatching(/^[ -~]{1,12}$/),
  fc.stringMatching(/^[a-z]{10,60}$/),
);

/** The SGR forms chalk writes (the ones wrapped without wrap-ansi) and resets. */
const handled = [
  '\x1b[1m',
  '\x1b[22m',
  '\x1b[0m',
  '\x1b[31m',
  '\x1b[39m',
  '\x1b[38;5;208m',
  '\x1b[48;2;32;33;36m',
];
/** Sequences wrap-ansi parses otherwise, or not at all. */
const others = ['\x1b[m', '\x1b[1;31m', '\x1b[2K', '\x1b[', '\x1b', '\x1b]8;;x'];

/** A line of printable ASCII with chalk spans and the sequences `escapes` in it. */
const asciiStyled = (escapes: readonly string[]): fc.Arbitrary<string> =>
  fc.letrec<{ node: string }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      asciiPiece,
      fc.constantFrom(...escapes),
      span(tie('node')),
    ),
  })).node;

describe('wrapStyledRows', () => {
  /** Random styled texts of up to `pieces` nodes at widths `min`–`max`, compared with wrap-ansi (fast-check prints the seed and the case on failure). */
  const sameAsWrapAnsi = (pieces: number, min: number, max: number, seed: number, numRuns: number) =>
    fc.assert(
      fc.property(
        fc.array(styled, { minLength: 1, maxLength: pieces }),
        fc.integer({ min, max }),
        (nodes, columns) => {
          const text = nodes.join('');
          expect(wrapStyledRows(text, columns)).toEqual(reference(text, columns));
        },
      ),
      { seed, numRuns },
    );

  it('is wrap-ansi (hard, untrimmed) byte for byte on random styled text', () => {
    sameAsWrapAnsi(12, 1, 140, 20261128, 1500);
  });

  it('is wrap-ansi on narrow widths, where most words are longer than a row', () => {
    sameAsWrapAnsi(8, 1, 6, 4242, 1000);
  });

  it('keeps a bold span across rows closed and reopened on each', () => {
    const chalk = chalks[0] as ChalkInstance;
    const text = `one ${chalk.bold('two three four')} five`;
    expect(wrapStyledRows(text, 9)).toEqual([
      'one \x1b[1mtwo \x1b[22m',
      '\x1b[1mthree \x1b[22m',
      '\x1b[1mfour\x1b[22m five',
    ]);
    expect(wrapStyledRows(text, 9)).toEqual(reference(text, 9));
  });

  /** Random lines of printable ASCII with `escapes` in them, compared with wrap-ansi. */
  const asciiSameAsWrapAnsi = (escapes: readonly string[], seed: number) =>
    fc.assert(
      fc.property(
        fc.array(asciiStyled(escapes), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 80 }),
        (nodes, columns) => {
          const text = nodes.join('');
          expect(wrapStyledRows(text, columns)).toEqual(reference(text, columns));
        },
      ),
      { seed, numRuns: 2000 },
    );

  it('is wrap-ansi on printable ASCII lines, styled or not, long words among them', () => {
    asciiSameAsWrapAnsi(handled, 20261129);
    asciiSameAsWrapAnsi([...handled, ...others], 11292026);
  });

  it('leaves a printable ASCII line no longer than the row, escapes counted, as it is (and so does wrap-ansi)', () => {
    fc.assert(
      fc.property(
        fc.array(asciiStyled([...handled, ...others]), { minLength: 1, maxLength: 12 }),
        fc.nat(20),
        (nodes, slack) => {
          const line = nodes.join('');
          const columns = Math.max(1, line.length + slack);
          expect(reference(line, columns)).toEqual([line]);
          expect(wrapStyledRows(line, columns)).toEqual([line]);
        },
      ),
      { seed: 1129, numRuns: 2000 },
    );
  });

  it('leaves tabs, links and other sequences to wrap-ansi', () => {
    const link = '\x1b]8;;https://example.com\x07example link text\x1b]8;;\x07 and more';
    for (const text of ['a\tb c d e f g', link, 'cr\r\nlf words here', '\x1b[2Kclear then text'])
      for (const columns of [1, 3, 7, 20])
        expect(wrapStyledRows(text, columns)).toEqual(reference(text, columns));
  });
});

describe('widerThan', () => {
  it('is stringWidth(line) > columns on random lines, ASCII with sequences or any styled text', () => {
    const lines = fc.oneof(
      fc.array(asciiStyled(handled), { minLength: 1, maxLength: 30 }),
      fc.array(asciiStyled([...handled, ...others]), { minLength: 1, maxLength: 30 }),
      fc.array(styled, { minLength: 1, maxLength: 8 }),
    );
    fc.assert(
      fc.property(lines, fc.integer({ min: 1, max: 120 }), (nodes, columns) => {
        const line = nodes.join('').replaceAll('\n', ' ');
        expect(widerThan(line, columns)).toBe(stringWidth(line) > columns);
      }),
      { seed: 291129, numRuns: 3000 },
    );
  });
});
