import { describe, expect, it } from 'vitest';
import { notesChange } from './notes.js';

describe('notesChange', () => {
  it('says "1 line" for a one-line file and "N lines" otherwise', () => {
    const one = notesChange(null, { prompt: 'hi', file: { path: 'notes.txt', lines: 1 } });
    expect(JSON.stringify(one.input)).toContain('(1 line shown)');
    const three = notesChange(null, { prompt: 'hi', file: { path: 'README.md', lines: 3 } });
    expect(JSON.stringify(three.input)).toContain('(3 lines shown)');
  });
});
