import { describe, expect, it } from 'vitest';
import { StderrTail, sanitizeTerminalText } from './stderr-tail.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('StderrTail', () => {
  it('keeps only the last maxBytes bytes', () => {
    const tail = new StderrTail(16);
    for (let i = 0; i < 100; i++) tail.push(bytes(`line ${i}\n`));
    const text = tail.text();
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(16);
    expect(text.endsWith('line 99\n')).toBe(true);
  });

  it('drops a character cut in half at the start', () => {
    const tail = new StderrTail(5);
    tail.push(bytes('€€')); // 6 bytes: the first euro sign is cut
    expect(tail.text()).toBe('€');
  });

  it('returns an empty string when nothing was written, or when disabled', () => {
    expect(new StderrTail().text()).toBe('');
    const off = new StderrTail(0);
    off.push(bytes('x'));
    expect(off.text()).toBe('');
  });
});

describe('sanitizeTerminalText', () => {
  it('removes colours, cursor moves, titles, hyperlinks and control characters', () => {
    const raw =
      '\x1b[1;31mError\x1b[0m: bad\r\n' +
      '\x1b]0;window title\x07\x1b]8;;https://x.example\x1b\\link\x1b]8;;\x1b\\\n' +
      'progress 10%\rprogress 100%\n' +
      'bell\x07 nul\x00 del\x7f c1\x9b31m tab\tok\x1b7\x1b(B';
    expect(sanitizeTerminalText(raw)).toBe(
      'Error: bad\nlink\nprogress 10%\nprogress 100%\nbell nul del c1 tab\tok',
    );
  });
});
