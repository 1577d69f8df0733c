import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import stringWidth from 'string-width';
import { displayWidth } from '../text/width.js';
import { ESCAPE_CORPUS } from './corpus.js';
import { findUnsafeSequences } from './find-unsafe.js';
import { sanitizeInline, sanitizeText, TextSanitizer } from './sanitize-text.js';
import { parseTerminalOutput, sanitizeTerminalOutput, styledLinesToPlainText } from './terminal-output.js';
import { applySgr, inkColor, PLAIN_STYLE, styleToSgr } from './sgr.js';

describe('sanitizeText on the corpus', () => {
  for (const entry of ESCAPE_CORPUS) {
    it(entry.name, () => {
      const out = sanitizeText(entry.input);
      expect(out).toBe(entry.text);
      expect(findUnsafeSequences(out, { allowSgr: false })).toEqual([]);
      if (entry.hidden) expect(out).not.toContain(entry.hidden);
    });
  }
});

describe('sanitizeTerminalOutput on the corpus', () => {
  for (const entry of ESCAPE_CORPUS) {
    it(entry.name, () => {
      const out = sanitizeTerminalOutput(entry.input);
      // Only SGR survives, and only as re-emitted sequences.
      expect(findUnsafeSequences(out, { allowSgr: true })).toEqual([]);
      const plain = styledLinesToPlainText(parseTerminalOutput(entry.input));
      expect(plain).toBe(entry.terminalText ?? entry.text);
      if (entry.hidden) expect(out).not.toContain(entry.hidden);
    });
  }
});

describe('sanitizeInline', () => {
  it('turns newlines and tabs into single spaces', () => {
    expect(sanitizeInline('title\n\n\x1b[2Jfake line\tend')).toBe('title fake line end');
  });
});

describe('TextSanitizer (streaming)', () => {
  it('holds a sequence split across chunks', () => {
    const s = new TextSanitizer();
    expect(s.write('a\x1b')).toBe('a');
    expect(s.write(']0;ti')).toBe('');
    expect(s.write('tle\x07b')).toBe('b');
  });

  it('reset forgets an unfinished sequence', () => {
    const s = new TextSanitizer();
    s.write('\x1b]0;never');
    s.reset();
    expect(s.write('visible')).toBe('visible');
  });

  const piece = fc.constantFrom(
    'a',
    'text ',
    '\n',
    '\t',
    '\r',
    '\x1b',
    '[',
    ']',
    '\\',
    '\x07',
    '31m',
    '0;',
    '8;;http://x',
    'P',
    '_',
    '\u009b',
    '\u009c',
    '\u009d',
    '\u202e',
    '\x18',
    '?25l',
    'é',
  );

  it('chunked input sanitizes exactly like the whole input', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (pieces, cuts) => {
          const input = pieces.join('');
          const points = [...new Set(cuts.map((c) => c % (input.length + 1)))].sort((x, y) => x - y);
          const s = new TextSanitizer();
          let out = '';
          let last = 0;
          for (const p of points) {
            out += s.write(input.slice(last, p));
            last = p;
          }
          out += s.write(input.slice(last));
          expect(out).toBe(sanitizeText(input));
          expect(findUnsafeSequences(out, { allowSgr: false })).toEqual([]);
        },
      ),
      { seed: 20260117, numRuns: 500 },
    );
  });

  it('terminal output never keeps anything but SGR', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        expect(findUnsafeSequences(sanitizeTerminalOutput(pieces.join('')))).toEqual([]);
      }),
      { seed: 7, numRuns: 500 },
    );
  });
});

describe('SGR subset', () => {
  it('parses colours and styles and re-emits them from the parsed state', () => {
    const out = sanitizeTerminalOutput('\x1b[1;31mbold red\x1b[22;39m plain \x1b[38;5;208mindexed\x1b[m');
    expect(out).toBe('\x1b[0;1;31mbold red\x1b[0m plain \x1b[0;38;5;208mindexed\x1b[0m');
  });

  it('supports colon sub-parameters and truecolor', () => {
    expect(applySgr(PLAIN_STYLE, '38:2::255:128:0')).toEqual({ fg: { type: 'rgb', r: 255, g: 128, b: 0 } });
    expect(applySgr(PLAIN_STYLE, '48;2;1;2;3;4')).toEqual({
      bg: { type: 'rgb', r: 1, g: 2, b: 3 },
      underline: true,
    });
    expect(applySgr(PLAIN_STYLE, '38;5;300')).toEqual({}); // out of range: ignored
  });

  it('drops conceal and blink but keeps the text', () => {
    const lines = parseTerminalOutput('\x1b[8;5mhidden');
    expect(lines).toEqual([[{ text: 'hidden', style: {} }]]);
  });

  it('resets at the end of every styled line so styles never leak', () => {
    expect(sanitizeTerminalOutput('\x1b[32mone\ntwo')).toBe('\x1b[0;32mone\x1b[0m\n\x1b[0;32mtwo\x1b[0m');
  });

  it('maps colours to Ink colour strings', () => {
    expect(inkColor({ type: 'palette', index: 9 })).toBe('redBright');
    expect(inkColor({ type: 'indexed', index: 208 })).toBe('ansi256(208)');
    expect(inkColor({ type: 'rgb', r: 255, g: 8, b: 0 })).toBe('#ff0800');
    expect(styleToSgr({ bg: { type: 'palette', index: 12 } })).toBe('\x1b[0;104m');
  });
});

describe('parseTerminalOutput lines', () => {
  it('handles CR progress updates, CRLF, trailing newline and blank lines', () => {
    const lines = parseTerminalOutput('10%\r50%\r100%\r\ndone\n\nend\n');
    expect(styledLinesToPlainText(lines)).toBe('100%\ndone\n\nend');
    expect(lines).toHaveLength(4);
  });

  it('expands tabs to 8-column stops', () => {
    expect(styledLinesToPlainText(parseTerminalOutput('ab\tc\t|'))).toBe('ab      c       |');
  });
});

describe('findUnsafeSequences', () => {
  it('reports what a terminal would interpret', () => {
    const findings = findUnsafeSequences('ok\x1b[31mred\x1b]0;t\x07\u009b\u202e');
    expect(findings.map((f) => f.kind)).toEqual([
      'escape-sequence',
      'c0-control',
      'c1-control',
      'bidi-control',
    ]);
    expect(findings[0]?.excerpt).toBe('\\x1b]0;t\\x07\\x9b\\u202e');
  });

  it('rejects SGR when not allowed', () => {
    expect(findUnsafeSequences('\x1b[31m', { allowSgr: false })).toHaveLength(1);
  });
});

describe('emoji skin-tone modifiers', () => {
  it('are set apart, so Ink and every terminal give the sequence the same 4 cells', () => {
    const thumbs = '👍🏽';
    const shown = sanitizeInline(`ok ${thumbs}`);
    expect(shown).toBe('ok 👍\u200b🏽');
    // string-width (Ink's measure) and ours now agree with tmux, xterm and VTE: 2 + 0 + 2.
    expect(stringWidth(shown)).toBe(7);
    expect(displayWidth(shown)).toBe(7);
    // Once: text is sanitized again on its way (a Markdown token's text).
    expect(sanitizeText(sanitizeText(thumbs))).toBe('👍\u200b🏽');
    // A modifier arriving in the next chunk of a stream, and in a command's output.
    const stream = new TextSanitizer();
    expect(stream.write('👍') + stream.write('🏽!')).toBe('👍\u200b🏽!');
    expect(styledLinesToPlainText(parseTerminalOutput(`\x1b[32m${thumbs}\x1b[0m\n`))).toBe('👍\u200b🏽');
  });
});
