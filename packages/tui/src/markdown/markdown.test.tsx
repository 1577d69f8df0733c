import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { Lexer } from 'marked';
import { renderInk, expectSafeFrame, flat } from '../test-support/ink.js';
import { ESCAPE_CORPUS } from '../sanitize/corpus.js';
import { IncrementalMarkdown } from './markdown-stream.js';
import { MarkdownView } from './MarkdownView.js';
import { layoutColumns } from './markdown-lines.js';

const md = (text: string) => renderInk(<MarkdownView text={text} />);

describe('MarkdownView', () => {
  it('renders headings, paragraphs and inline styles without Markdown syntax', () => {
    const { frame } = md('# Title\n\nSome *em*, **strong**, ~~gone~~ and `code`.\n\n## Sub');
    expect(frame()).toBe('Title\n\nSome em, strong, gone and code.\n\nSub');
  });

  it('renders nested and ordered lists with their numbers and task boxes', () => {
    const { frame } = md('3. three\n4. four\n   - nested\n     - deeper\n- [x] done\n- [ ] todo');
    expect(frame()).toBe(
      ['3. three', '4. four', '   ◦ nested', '     ▪ deeper', '', '• ☑ done', '• ☐ todo'].join('\n'),
    );
  });

  it('renders a blockquote with a bar and a rule', () => {
    const { frame } = md('> quoted\n> text\n\n---\n\nafter');
    const lines = frame().split('\n');
    expect(lines[0]).toBe('┃ quoted');
    expect(lines[1]).toBe('┃ text');
    expect(lines[3]).toMatch(/^─{20,}$/);
    expect(lines[5]).toBe('after');
  });

  it('shows link labels with their URL and never an OSC 8 hyperlink', () => {
    const { frame } = md('See [the docs](https://example.com/docs) or <https://x.io>.');
    expect(frame()).toBe('See the docs (https://example.com/docs) or https://x.io.');
    expect(frame()).not.toContain('\x1b]8');
  });

  it('lays out tables with aligned columns', () => {
    const { frame } = md('| name | n |\n|:-----|--:|\n| alpha | 1 |\n| b | 200 |\n');
    expect(frame().split('\n')).toEqual(['name  │   n', '──────┼────', 'alpha │   1', 'b     │ 200']);
  });

  it('renders code fences without the fences, language as a label', () => {
    const { frame } = md('```python\nprint("hi")\n\tindented\n```');
    expect(frame()).toBe('  python\n  print("hi")\n      indented');
  });

  it('renders an unclosed fence (mid-stream) as code, not as text with backticks', () => {
    const { frame } = md('Intro\n\n```ts\nconst a = 1;\nconst b');
    expect(frame()).toBe('Intro\n\n  ts\n  const a = 1;\n  const b');
    expect(frame()).not.toContain('```');
  });

  it('keeps rendering sensibly while a message streams in', () => {
    const text = '# Plan\n\n1. first\n2. second\n\n```js\nlet x = 1;\n```\n\nDone.';
    const r = md('');
    for (let i = 1; i <= text.length; i += 7) {
      r.rerender(<MarkdownView text={text.slice(0, i)} />);
      expectSafeFrame(r.frame());
    }
    r.rerender(<MarkdownView text={text} />);
    expect(r.frame()).toBe('Plan\n\n1. first\n2. second\n\n  js\n  let x = 1;\n\nDone.');
  });

  it('decodes named references, and never turns numeric ones into control characters', () => {
    // The decoded ESC / CSI would start sequences; they are removed whole.
    const { frame } = md('a &amp; b &lt;tag&gt; &#27;[31mred &#x9b;2J end');
    expect(frame()).toBe('a & b <tag> red  end');
    expectSafeFrame(frame());
  });

  for (const entry of ESCAPE_CORPUS) {
    it(`is safe for corpus entry: ${entry.name}`, () => {
      const { frame } = md(
        `para ${entry.input} end\n\n- item ${entry.input}\n\n\`\`\`\n${entry.input}\n\`\`\``,
      );
      expectSafeFrame(frame());
      if (entry.visible) expect(flat(frame())).toContain(flat(entry.visible));
      if (entry.hidden) expect(frame()).not.toContain(entry.hidden);
    });
  }
});

describe('IncrementalMarkdown', () => {
  it('only lexes the last two blocks again and keeps every unchanged block identical', () => {
    const inc = new IncrementalMarkdown();
    const first = inc.update('# Title\n\nparagraph one\n\n- item\n\npara');
    const lexed = vi.spyOn(Lexer.prototype, 'blockTokens');
    const inline = vi.spyOn(Lexer.prototype, 'inlineTokens');
    const second = inc.update('# Title\n\nparagraph one\n\n- item\n\nparagraph two');
    // The first call lexes the text (the list lexes its item's text within it).
    expect(lexed.mock.calls[0]?.[0]).toBe('- item\n\nparagraph two');
    // The inline pass only for the block that changed: the list came out as it was.
    expect(inline.mock.calls.map(([text]) => text)).toEqual(['paragraph two']);
    lexed.mockRestore();
    inline.mockRestore();
    expect(second[0]).toBe(first[0]);
    expect(second[2]).toBe(first[2]);
    // Lexed again, to the same block: the same object, so its memoised view is not drawn again.
    expect(second[4]).toBe(first[4]);
    expect(second[6]).not.toBe(first[6]);
  });

  it('lets a growing block merge into the one before it', () => {
    const inc = new IncrementalMarkdown();
    expect(inc.update('  - b\n*').map((t) => t.type)).toEqual(['list', 'list']);
    expect(inc.update('  - b\n**b**').map((t) => t.raw)).toEqual(['  - b\n**b**']);
  });

  it('sanitizes a control sequence split across updates', () => {
    const inc = new IncrementalMarkdown();
    inc.update('hello \x1b]0;ti');
    inc.update('hello \x1b]0;title\x07world');
    expect(inc.text).toBe('hello world');
  });

  it('starts over when the text is replaced rather than extended', () => {
    const inc = new IncrementalMarkdown();
    inc.update('first version');
    const tokens = inc.update('second');
    expect(tokens.map((t) => t.raw)).toEqual(['second']);
  });

  const pieces = fc.constantFrom(
    '# h\n',
    'text ',
    'more text\n',
    '\n',
    '\n\n',
    '- a\n',
    '  - b\n',
    '1. x\n',
    '```ts\n',
    '```\n',
    'code();\n',
    '> q\n',
    '| a | b |\n',
    '|---|---|\n',
    '---\n',
    '**b**',
    '[l](u)',
    '===\n',
    '    indented\n',
  );

  it('gives the same blocks as lexing the whole text at once, for any chunking', () => {
    fc.assert(
      fc.property(
        fc.array(pieces, { minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (parts, cuts) => {
          const text = parts.join('');
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const inc = new IncrementalMarkdown();
          for (const p of points) inc.update(text.slice(0, p));
          const incremental = inc.update(text);
          const whole = new Lexer({ gfm: true }).lex(text);
          expect(JSON.parse(JSON.stringify(incremental))).toEqual(JSON.parse(JSON.stringify([...whole])));
        },
      ),
      { seed: 4242, numRuns: 1500 },
    );
  });
});

describe('layoutColumns', () => {
  it('keeps natural widths when they fit and shrinks the widest columns otherwise', () => {
    expect(layoutColumns([5, 3], 40)).toEqual([5, 3]);
    expect(layoutColumns([30, 10, 4], 30)).toEqual([10, 10, 4]);
    expect(layoutColumns([1, 2], 40)).toEqual([3, 3]);
  });
});
