import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Lexer, type Token } from 'marked';
import { finalBlockCount } from './final-blocks.js';

const lex = (text: string): Token[] => [...new Lexer({ gfm: true }).lex(text)];

/** Non-space blocks with where they start in the text. */
function blocks(tokens: readonly Token[]): string[] {
  const out: string[] = [];
  let offset = 0;
  for (const token of tokens) {
    if (token.type !== 'space') out.push(`${offset}:${token.type}:${token.raw}`);
    offset += token.raw.length;
  }
  return out;
}

/** All blocks but the last two: what was printed before (and what the incremental lexer keeps). */
function allButTwo(tokens: readonly Token[]): number {
  for (let seen = 0, i = tokens.length - 1; i >= 0; i--)
    if (tokens[i]?.type !== 'space' && ++seen === 2) return i;
  return 0;
}

/**
 * For every prefix of `text`: the blocks counted final are lexed the same in the whole text.
 * Where marked itself joins three blocks into one later on (`a\n2. y\n-`, then `-->`: the
 * blocks before the last two change too), there is nothing to hold the count to.
 */
function checkPrefixes(text: string): void {
  const whole = blocks(lex(text));
  for (let end = 0; end <= text.length; end++) {
    const tokens = lex(text.slice(0, end));
    const kept = blocks(tokens.slice(0, allButTwo(tokens)));
    if (JSON.stringify(whole.slice(0, kept.length)) !== JSON.stringify(kept)) continue;
    const final = blocks(tokens.slice(0, finalBlockCount(tokens)));
    expect(whole.slice(0, final.length)).toEqual(final);
  }
}

describe('finalBlockCount', () => {
  it('counts the block before the growing one when it can no longer change', () => {
    expect(finalBlockCount(lex('## Part 1\n\nword1 wo'))).toBe(2);
    expect(finalBlockCount(lex('para\n\nnext para'))).toBe(2);
    expect(finalBlockCount(lex('para\n- item **10** with\n- it'))).toBe(1);
    // Still undecided: `#` may turn out to be `#x`, lazy text of the paragraph.
    expect(finalBlockCount(lex('para\n#'))).toBe(0);
    expect(finalBlockCount(lex('para\n- item'))).toBe(0);
    // `2` becomes a second item of the list at `2.`.
    expect(finalBlockCount(lex('1. a\n\n2'))).toBe(0);
    // The delimiter row decides a table.
    expect(finalBlockCount(lex('para\n| a |\n|-'))).toBe(0);
  });

  const pieces = fc.constantFrom(
    ...['# h\n', '#', '##', 'x', ' ', '    ', '\t', '2', '3.', '1)', '.', '*', '-', '+', '>', '|', '`'],
    ...['~~~', 'text ', 'more text\n', '\n', '\n\n', '- a\n', '* a\n', '  - b\n', '1. x\n', '2. y\n'],
    ...['```ts\n', '```\n', 'code();\n', '> q\n', '| a | b |\n', '|---|---|\n', '---\n', '***\n', '**b**'],
    ...[
      '===\n',
      '=',
      '    indented\n',
      '<div>\n',
      '</div>\n',
      '<!-- c',
      '-->\n',
      '[l]: /u\n',
      '[l]',
      '| c |',
      '|-',
    ],
  );
  const characters = fc.constantFrom(
    ...[
      'a',
      ' ',
      '\n',
      '\n',
      '-',
      '*',
      '#',
      '1',
      '2',
      '.',
      '>',
      '`',
      '|',
      '=',
      '\t',
      '_',
      '[',
      ']',
      '<',
      '~',
      '+',
    ],
  );

  it('counts only blocks that no later text changes, however Markdown constructs arrive', () => {
    fc.assert(
      fc.property(fc.array(pieces, { minLength: 1, maxLength: 24 }), (parts) =>
        checkPrefixes(parts.join('')),
      ),
      { seed: 2211, numRuns: 500 },
    );
  });

  it('counts only blocks that no later text changes, however characters arrive', () => {
    fc.assert(
      fc.property(fc.array(characters, { minLength: 1, maxLength: 40 }), (chars) =>
        checkPrefixes(chars.join('')),
      ),
      { seed: 2211, numRuns: 1500 },
    );
  });
});
