import { describe, expect, it, vi } from 'vitest';
import { KEYS, renderInk, expectSafeFrame, flat } from '../test-support/ink.js';
import { ESCAPE_CORPUS } from '../sanitize/corpus.js';
import { HunkReview } from './HunkReview.js';
import type { HunkReviewResult } from './useHunkReview.js';
import { hunkReviewReducer, initialHunkReview } from './hunk-review-state.js';

const OLD = 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa\n';
const NEW = 'alpha\nBETA\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa\nlambda\n';

function setup(oldText: string | null = OLD, newText = NEW) {
  const onSubmit = vi.fn<(result: HunkReviewResult) => void>();
  const onCancel = vi.fn<() => void>();
  const r = renderInk(
    <HunkReview
      path="/w/greek.txt"
      cwd="/w"
      oldText={oldText}
      newText={newText}
      onSubmit={onSubmit}
      onCancel={onCancel}
    />,
  );
  return { ...r, onSubmit, onCancel };
}

const inner = (frame: string) => frame.split('\n').map((l) => l.replace(/^│ ?| ?│$/g, '').trimEnd());

describe('HunkReview', () => {
  it('lists hunks, expanding the focused one', () => {
    const { frame } = setup();
    const lines = inner(frame());
    expect(lines[1]).toBe('Review write to greek.txt · 2 hunks · 0 accepted · 0 rejected · 2 undecided');
    expect(lines[2]).toBe('❯ ? hunk 1 @@ -1,5 +1,5 @@ +1 -1');
    expect(lines).toContain('    2   - beta');
    expect(lines).toContain('      2 + BETA');
    expect(lines).toContain('  ? hunk 2 @@ -8,3 +8,4 @@ +1 -0');
  });

  it('writes exactly the accepted hunks and tells the agent about the rest', async () => {
    const { press, onSubmit, frame } = setup();
    await press('n');
    expect(inner(frame())).toContain('❯ ? hunk 2 @@ -8,3 +8,4 @@ +1 -0');
    await press('y', KEYS.enter);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    const result = onSubmit.mock.calls[0]![0];
    expect(result.decisions).toEqual(['reject', 'accept']);
    expect(result.content).toBe(`${OLD}lambda\n`);
    expect(result.summary.message).toContain('rejected the changes at line 2');
  });

  it('will not write while hunks are undecided', async () => {
    const { press, onSubmit, frame } = setup();
    await press(KEYS.down, 'y', KEYS.enter);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(flat(frame())).toContain('1 hunk is still undecided.');
    expect(inner(frame())).toContain('❯ ? hunk 1 @@ -1,5 +1,5 @@ +1 -1');
  });

  it('accepts all and rejects all', async () => {
    const a = setup();
    await a.press('A', KEYS.enter);
    expect(a.onSubmit.mock.calls[0]![0].content).toBe(NEW);
    const b = setup();
    await b.press('R', KEYS.enter);
    expect(b.onSubmit.mock.calls[0]![0].content).toBe(OLD);
    expect(b.onSubmit.mock.calls[0]![0].summary.nothingToWrite).toBe(true);
  });

  it('rejects the whole write on Esc', async () => {
    const { press, onCancel, onSubmit } = setup();
    await press(KEYS.escape);
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('reviews a new file', async () => {
    const { press, onSubmit, frame } = setup(null, 'hello\nworld\n');
    expect(inner(frame())[1]).toBe(
      'Review write to greek.txt (new file) · 1 hunk · 0 accepted · 0 rejected · 1 undecided',
    );
    await press('y', KEYS.enter);
    expect(onSubmit.mock.calls[0]![0].content).toBe('hello\nworld\n');
  });

  it('is safe for hostile paths and file content', () => {
    for (const entry of ESCAPE_CORPUS) {
      const { frame, unmount } = setup(`a\n${entry.input}\n`, `b\n${entry.input}\n`);
      expectSafeFrame(frame());
      if (entry.visible) expect(flat(frame())).toContain(flat(entry.visible));
      unmount();
    }
  });
});

describe('hunkReviewReducer', () => {
  it('moves to the next undecided hunk after a decision, wrapping around', () => {
    let s = initialHunkReview(3);
    s = hunkReviewReducer(s, { type: 'next' });
    s = hunkReviewReducer(s, { type: 'next' });
    s = hunkReviewReducer(s, { type: 'decide', decision: 'accept' });
    expect(s.focus).toBe(0);
    s = hunkReviewReducer(s, { type: 'decide', decision: 'reject' });
    expect(s).toEqual({ decisions: ['reject', undefined, 'accept'], focus: 1 });
    s = hunkReviewReducer(s, { type: 'decide', decision: 'reject' });
    expect(s.focus).toBe(1);
    expect(hunkReviewReducer(s, { type: 'next' }).focus).toBe(2);
    expect(hunkReviewReducer(hunkReviewReducer(s, { type: 'next' }), { type: 'next' }).focus).toBe(2);
  });
});
