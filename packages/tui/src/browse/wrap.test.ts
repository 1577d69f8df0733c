import { describe, expect, it } from 'vitest';
import { wrapLine } from './wrap.js';

const pieces = (text: string, width: number): string[] =>
  wrapLine(text, width).map((row) => text.slice(row.start, row.end));

describe('wrapping', () => {
  it('breaks after the last space that fits, covering the text exactly', () => {
    expect(pieces('hello wide world', 11)).toEqual(['hello wide ', 'world']);
    expect(pieces('short', 20)).toEqual(['short']);
    expect(pieces('', 5)).toEqual(['']);
    const text = 'the quick brown fox jumps over the lazy dog';
    expect(pieces(text, 10).join('')).toBe(text);
    expect(pieces(text, 10).every((piece) => piece.trimEnd().length <= 10)).toBe(true);
  });

  it('cuts a word longer than the row', () => {
    expect(pieces('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(pieces('ab abcdefghij', 4)).toEqual(['ab ', 'abcd', 'efgh', 'ij']);
  });

  it('counts wide characters as two cells and never splits a grapheme', () => {
    expect(pieces('日本語の文', 4)).toEqual(['日本', '語の', '文']);
    expect(pieces('ok 👍🏽 go', 5)).toEqual(['ok 👍🏽 ', 'go']);
    expect(pieces('ok 👍🏽 go', 4)).toEqual(['ok ', '👍🏽 ', 'go']);
  });
});
