import { describe, expect, it } from 'vitest';
import type { PlanEntry } from '@acp-kit/protocol';
import { renderInk, expectSafeFrame, flat } from '../test-support/ink.js';
import { ESCAPE_CORPUS } from '../sanitize/corpus.js';
import { PlanPanel } from './PlanPanel.js';

const entries: PlanEntry[] = [
  { content: 'Read the code', priority: 'medium', status: 'completed' },
  { content: 'Write the tests', priority: 'high', status: 'in_progress' },
  { content: 'Update the docs', priority: 'low', status: 'pending' },
];

describe('PlanPanel', () => {
  it('lists entries with status and priority', () => {
    const { frame } = renderInk(<PlanPanel entries={entries} />);
    expect(frame().split('\n')).toEqual([
      'Plan · 1/3 done',
      '  ✓ Read the code · medium',
      '  ▸ Write the tests · high',
      '  ○ Update the docs · low',
    ]);
  });

  it('collapses to one line with progress and the current entry', () => {
    const { frame } = renderInk(<PlanPanel entries={entries} collapsed />);
    expect(frame()).toBe('Plan · 1/3 done · ▸ Write the tests · Ctrl+P to show');
  });

  it('is replaced by each update', () => {
    const r = renderInk(<PlanPanel entries={entries} />);
    r.rerender(<PlanPanel entries={[{ content: 'Only step', priority: 'low', status: 'completed' }]} />);
    expect(r.frame().split('\n')).toEqual(['Plan · 1/1 done', '  ✓ Only step · low']);
    r.rerender(<PlanPanel entries={[]} />);
    expect(r.frame()).toBe('Plan (empty)');
  });

  it('keeps the icon, its gap and the indent of a long entry that wraps', () => {
    // Laid out by Ink as an icon beside a text in a row, a long text shrank the icon's cell: the
    // gap went and the rows under it started a column early.
    const words = 'Read 日本語の文 and then the rest of the code base, file by file, twice over';
    const content = `${words} ${words} ${words}`;
    const { frame } = renderInk(<PlanPanel entries={[{ content, priority: 'low', status: 'pending' }]} />);
    const rows = frame().split('\n');
    expect(rows.length).toBe(4);
    expect(rows[1]).toMatch(/^ {2}○ Read /);
    // (Ink keeps the space a row was broken at, at the start of the next.)
    for (const row of rows.slice(2)) expect(row).toMatch(/^ {4} ?\S/);
    expect(rows.slice(1).join(' ').replace(/ +/g, ' ')).toBe(` ○ ${content} · low`);
  });

  it('is safe for hostile entry text', () => {
    for (const entry of ESCAPE_CORPUS) {
      const { frame, unmount } = renderInk(
        <PlanPanel entries={[{ content: entry.input, priority: 'high', status: 'in_progress' }]} />,
      );
      expectSafeFrame(frame());
      if (entry.visible) expect(flat(frame())).toContain(flat(entry.visible));
      unmount();
    }
  });
});
