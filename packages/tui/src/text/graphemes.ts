/**
 * The grapheme clusters of a text, with one segmenter for the whole UI made on first use: the
 * first `Intl.Segmenter` of a process loads ICU's break data (10-16 ms on the machine of
 * docs/performance.md), which a start that draws only plain text never needs.
 *
 * @example
 * [...graphemes('e\u0301!')].map((g) => g.segment); // ['é', '!']
 */
let segmenter: Intl.Segmenter | undefined;

export function graphemes(text: string): Intl.Segments {
  return (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(text);
}
