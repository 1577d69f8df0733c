import { describe, expect, it } from 'vitest';
import { Box } from 'ink';
import { renderInk, expectSafeFrame, flat } from '../test-support/ink.js';
import { ESCAPE_CORPUS } from '../sanitize/corpus.js';
import { DiffView } from './DiffView.js';

describe('DiffView', () => {
  it('shows a unified diff with line numbers and counts, named by the first line it changes', () => {
    const { frame } = renderInk(<DiffView path="/w/a.ts" oldText={'a\nb\nc\n'} newText={'a\nB\nc\nd\n'} />);
    expect(frame().split('\n')).toEqual([
      '/w/a.ts:2 +2 -1',
      '@@ -1,3 +1,4 @@',
      '1 1   a',
      '2   - b',
      '  2 + B',
      '3 3   c',
      '  4 + d',
    ]);
  });

  it('continues a line too long for the width under its text, not under the line numbers', () => {
    const long = `- Read \`${'deep/'.repeat(4)}file.json\` (16 lines shown)`;
    const { frame } = renderInk(
      <Box width={40}>
        <DiffView path="notes.md" oldText={null} newText={`# Notes\n${long}\n`} />
      </Box>,
    );
    const rows = frame().split('\n');
    expect(rows.slice(0, 3)).toEqual(['notes.md (new file) +2 -0', '@@ -0,0 +1,2 @@', '  1 + # Notes']);
    expect(rows[3]).toBe('  2 + - Read');
    // The rest of line 2 is indented to its text column (6: the numbers and the mark).
    expect(rows.slice(4).every((row) => row.startsWith('      ') && row.trim() !== '')).toBe(true);
    expect(flat(rows.slice(3).join(' ')).trim()).toBe(`2 + ${long}`);
  });

  it('shows null old text as a new file', () => {
    const { frame } = renderInk(<DiffView path="new.txt" oldText={null} newText={'hello\n'} />);
    expect(frame().split('\n')).toEqual(['new.txt (new file) +1 -0', '@@ -0,0 +1,1 @@', '  1 + hello']);
  });

  it('folds long diffs and says how many lines are hidden', () => {
    // 30 added lines, the no-newline note and the header: 32 rows, 5 shown.
    const newText = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    const { frame } = renderInk(
      <DiffView path="f" oldText="" newText={newText} maxLines={5} expandHint=" · Ctrl+O" />,
    );
    const lines = frame().split('\n');
    expect(lines).toHaveLength(7);
    expect(lines[6]).toBe('… 27 more lines · Ctrl+O');
  });

  it('draws a snippet diff at its line in the file, without a false "no newline" marker', () => {
    // Claude's Edit: old_string "line two" → new_string "line 2 (edited)", in a 3-line file.
    const snippet = { oldText: 'line two', newText: 'line 2 (edited)' };
    const before = renderInk(<DiffView path="/w/notes.txt" cwd="/w" {...snippet} />).frame();
    expect(before).toContain('No newline at end of file');
    const { frame } = renderInk(
      <DiffView
        path="/w/notes.txt"
        cwd="/w"
        {...snippet}
        placement={{ line: 2, wholeFile: false, atEnd: false }}
      />,
    );
    expect(frame().split('\n')).toEqual([
      'notes.txt:2 +1 -1',
      '@@ -2,1 +2,1 @@',
      '2   - line two',
      '  2 + line 2 (edited)',
    ]);
  });

  it('keeps the marker for a snippet that ends the file, and numbers no lines when it was not found', () => {
    const atEnd = renderInk(
      <DiffView path="f" oldText="b" newText="c" placement={{ line: 2, wholeFile: false, atEnd: true }} />,
    ).frame();
    expect(atEnd).toContain('@@ -2,1 +2,1 @@');
    expect(atEnd.match(/No newline at end of file/g)).toHaveLength(2);
    const lost = renderInk(
      <DiffView
        path="f"
        oldText="b"
        newText="c"
        placement={{ line: null, wholeFile: false, atEnd: false }}
      />,
    ).frame();
    expect(lost.split('\n')).toEqual(['f +1 -1', '@@ -1 +1 lines · not found in the file @@', '- b', '+ c']);
  });

  it('says so when nothing changed', () => {
    const { frame } = renderInk(<DiffView path="f" oldText="same" newText="same" />);
    expect(frame()).toContain('No changes.');
  });

  it('never lets file content or the path reach the terminal as control sequences', () => {
    for (const entry of ESCAPE_CORPUS) {
      const { frame, unmount } = renderInk(
        <DiffView
          path={`/w/${entry.input}`}
          oldText={`old ${entry.input}\n`}
          newText={`new ${entry.input}\n`}
        />,
      );
      expectSafeFrame(frame());
      if (entry.visible) expect(flat(frame())).toContain(flat(entry.visible));
      unmount();
    }
  });
});
