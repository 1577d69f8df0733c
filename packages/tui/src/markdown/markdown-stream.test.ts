import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Lexer, type Token } from 'marked';
import { IncrementalMarkdown, isBlankToken, lexMarkdown, MarkdownStream } from './markdown-stream.js';

const raw = (tokens: readonly Token[]): string => tokens.map((token) => token.raw).join('');

/** Feeds `parts` one by one, taking the final blocks after each; then ends the stream. */
function stream(parts: readonly string[]): {
  groups: Token[][];
  beforeEnd: number;
  markdown: MarkdownStream;
} {
  const markdown = new MarkdownStream();
  const groups: Token[][] = [];
  for (const part of parts) {
    markdown.append(part);
    groups.push(...markdown.takeFinal());
  }
  const beforeEnd = groups.length;
  groups.push(...markdown.takeFinal(true));
  return { groups, beforeEnd, markdown };
}

describe('MarkdownStream', () => {
  it('hands out a block once the block after it decides it, with the blank lines before it', () => {
    const markdown = new MarkdownStream();
    markdown.append('## Part 1\n\nword1 wo');
    expect(markdown.takeFinal().map(raw)).toEqual(['## Part 1']);
    expect(raw(markdown.live)).toBe('\n\nword1 wo');
    markdown.append('rd2\n\n- item');
    expect(markdown.takeFinal().map(raw)).toEqual(['\n\nword1 word2']);
    expect(raw(markdown.live)).toBe('\n\n- item');
    expect(markdown.takeFinal(true).map(raw)).toEqual(['\n\n- item']);
    expect(markdown.pendingChars).toBe(0);
  });

  it('sanitizes a control sequence split across chunks', () => {
    const { groups } = stream(['hello \x1b]0;ti', 'tle\x07world']);
    expect(groups.map(raw).join('')).toBe('hello world');
  });

  it('keeps only the unsettled end of a long answer, so an update never lexes the whole text', () => {
    const markdown = new MarkdownStream();
    let most = 0;
    for (let i = 0; i < 5000; i++) {
      markdown.append(
        i % 50 === 0 ? `\n\n## Part ${i / 50 + 1}\n\n` : i % 10 === 0 ? `\n- item **${i}** ` : `word${i} `,
      );
      markdown.takeFinal();
      most = Math.max(most, markdown.pendingChars);
    }
    expect(most).toBeLessThan(1000);
  });

  const pieces = fc.constantFrom(
    ...['# h\n', 'x', ' ', '2', '3.', '*', '-', '>', '|', '`', 'text ', 'more text\n', '\n', '\n\n'],
    ...['- a\n', '  - b\n', '1. x\n', '```ts\n', '```\n', 'code();\n', '> q\n', '| a | b |\n'],
    ...['|---|---|\n', '---\n', '**b**', '[l](u)', '===\n', '    indented\n', '<div>\n', '[l]: /u\n'],
  );

  it('hands out every character once, in order, however the text arrives (blank lines and link definitions at the end draw nothing)', () => {
    let verbatim = 0;
    fc.assert(
      fc.property(
        fc.array(pieces, { minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (parts, cuts) => {
          const text = parts.join('');
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const chunks = [...points, text.length].map((end, i, all) =>
            text.slice(i === 0 ? 0 : all[i - 1], end),
          );
          const { groups, markdown } = stream(chunks);
          // Verbatim: the blocks handed out span the text's own characters, all of them by the end.
          if (markdown.verbatim) expect(markdown.taken).toBe(text.length);
          verbatim += markdown.verbatim ? 1 : 0;
          // The lexer drops spaces at the end of some lines (lazy list lines) from the blocks' text.
          const norm = (s: string): string => s.replace(/[ \t]+(\n|$)/g, '$1');
          const handed = norm(groups.map(raw).join(''));
          expect(norm(text).startsWith(handed) || `${norm(text)}\n` === handed).toBe(true);
          expect(lexMarkdown(norm(text).slice(handed.length)).every(isBlankToken)).toBe(true);
          // Each group but the last is one block and the blank lines before it.
          for (const group of groups.slice(0, -1))
            expect(group.filter((t) => !isBlankToken(t))).toHaveLength(1);
        },
      ),
      { seed: 777, numRuns: 800 },
    );
    expect(verbatim).toBeGreaterThan(0);
  });

  it('gives the tokens of lexing the whole text, inline tokens included, however it grows (no link definitions)', () => {
    const plain = pieces.filter((piece) => !piece.startsWith('[l]:'));
    fc.assert(
      fc.property(
        fc.array(fc.array(plain, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 }),
        (steps) => {
          const markdown = new IncrementalMarkdown();
          let text = '';
          for (const step of steps) {
            text += step.join('');
            const tokens = markdown.update(text);
            expect([...tokens]).toEqual([...new Lexer({ gfm: true }).lex(markdown.text)]);
          }
        },
      ),
      { seed: 4242, numRuns: 400 },
    );
  });

  it('prints the blocks that lexing the whole answer gives, for an answer shaped like a model’s', () => {
    const text = Array.from({ length: 600 }, (_, i) =>
      i % 50 === 0
        ? `\n\n## Part ${i / 50 + 1}\n\n`
        : i % 10 === 0
          ? `\n- item **${i}** with \`code\` `
          : `word${i} `,
    ).join('');
    const { groups, beforeEnd } = stream(text.match(/[\s\S]{1,9}/g) ?? []);
    expect(beforeEnd).toBeGreaterThan(20);
    const blocks = (tokens: readonly Token[]): string[] =>
      tokens.filter((t) => !isBlankToken(t)).map((t) => `${t.type}:${t.raw}`);
    expect(groups.flatMap(blocks)).toEqual(blocks(lexMarkdown(text)));
  });
});
