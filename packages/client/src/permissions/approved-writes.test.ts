import { describe, expect, it } from 'vitest';
import { approvedContent, approveDiffs, diffsOfContent, type ApprovedDiff } from './approved-writes.js';

const approved = (oldText: string | null, newText: string, acceptedText = newText): ApprovedDiff => ({
  path: '/w/f.txt',
  oldText,
  newText,
  acceptedText,
});

describe('approvedContent', () => {
  it('matches a write of the whole new text, and writes what the user accepted of it', () => {
    expect(approvedContent('a\nb\n', 'a\nB\n', [approved('a\nb\n', 'a\nB\n')])).toBe('a\nB\n');
    expect(approvedContent(null, 'new\n', [approved(null, 'new\n')])).toBe('new\n');
    // The user kept the first line's change only.
    expect(approvedContent('a\nb\n', 'A\nB\n', [approved('a\nb\n', 'A\nB\n', 'A\nb\n')])).toBe('A\nb\n');
  });

  it('matches a write that applies the diffs of part of the file, one after the other', () => {
    const current = 'one\ntwo\nthree\nfour\n';
    const edits = [approved('two', 'TWO'), approved('four', 'FOUR', 'four')];
    expect(approvedContent(current, 'one\nTWO\nthree\nFOUR\n', edits)).toBe('one\nTWO\nthree\nfour\n');
    // `$&` in the new text is text, not a replacement pattern.
    expect(approvedContent('x = 1\n', 'x = $&\n', [approved('1', '$&')])).toBe('x = $&\n');
  });

  it('does not match another write, an ambiguous or missing fragment, or no diff', () => {
    expect(approvedContent('a\nb\n', 'a\nC\n', [approved('a\nb\n', 'a\nB\n')])).toBeUndefined();
    expect(approvedContent('b\nb\n', 'B\nb\n', [approved('b', 'B')])).toBeUndefined();
    expect(approvedContent('a\n', 'a\nB\n', [approved('b', 'B')])).toBeUndefined();
    expect(approvedContent('a\n', 'a\nb\n', [approved('', 'b\n')])).toBeUndefined();
    expect(approvedContent(null, 'x', [approved('a', 'x\n')])).toBeUndefined();
    expect(approvedContent('a', 'b', [])).toBeUndefined();
  });
});

describe('diffsOfContent and approveDiffs', () => {
  it('reads the diffs of tool call content with absolute paths, and what the user accepted', () => {
    const diffs = diffsOfContent(
      [
        { type: 'content', content: { type: 'text', text: 'hi' } },
        { type: 'diff', path: 'src/a.ts', oldText: 'a', newText: 'b' },
        { type: 'diff', path: '/abs/new.ts', newText: 'n' },
        { type: 'diff', path: '/bad', newText: 3 } as never,
      ],
      '/w',
    );
    expect(diffs).toEqual([
      { path: '/w/src/a.ts', oldText: 'a', newText: 'b' },
      { path: '/abs/new.ts', oldText: null, newText: 'n' },
    ]);
    expect(approveDiffs(diffs, ['a', 7]).map((d) => d.acceptedText)).toEqual(['a', 'n']);
    expect(approveDiffs(diffs, undefined).map((d) => d.acceptedText)).toEqual(['b', 'n']);
  });
});
