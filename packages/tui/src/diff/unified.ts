/** Unified diff hunks (as `diff -u` shows them) for displaying a tool call's diff. */
import { structuredPatch } from 'diff';
import type { DiffHunk, DiffLine } from './display.js';
import { splitRun } from './display.js';

const MAX_EDIT_LENGTH = 5000;

/**
 * The unified-diff hunks from `oldText` to `newText`, with line numbers. A new file (`oldText`
 * null or undefined) is one hunk of added lines. A diff too large to compute is shown as the old
 * text removed and the new text added.
 */
export function computeUnifiedHunks(
  oldText: string | null | undefined,
  newText: string,
  context = 3,
): DiffHunk[] {
  const before = oldText ?? '';
  const patch = structuredPatch('a', 'b', before, newText, undefined, undefined, {
    context,
    maxEditLength: MAX_EDIT_LENGTH,
  });
  if (!patch) return [replaceAll(before, newText)];
  return patch.hunks.map((hunk) => {
    let oldNumber = hunk.oldStart;
    let newNumber = hunk.newStart;
    const lines: DiffLine[] = hunk.lines.map((line): DiffLine => {
      const text = line.slice(1);
      if (line.startsWith('+')) return { kind: 'add', text, newNumber: newNumber++ };
      if (line.startsWith('-')) return { kind: 'remove', text, oldNumber: oldNumber++ };
      if (line.startsWith('\\')) return { kind: 'note', text: text.trim() };
      return { kind: 'context', text, oldNumber: oldNumber++, newNumber: newNumber++ };
    });
    return {
      oldStart: hunk.oldStart,
      oldLines: hunk.oldLines,
      newStart: hunk.newStart,
      newLines: hunk.newLines,
      lines,
    };
  });
}

function replaceAll(oldText: string, newText: string): DiffHunk {
  const removed = splitRun(oldText).lines;
  const added = splitRun(newText).lines;
  return {
    oldStart: 1,
    oldLines: removed.length,
    newStart: 1,
    newLines: added.length,
    lines: [
      ...removed.map((text, i): DiffLine => ({ kind: 'remove', text, oldNumber: i + 1 })),
      ...added.map((text, i): DiffLine => ({ kind: 'add', text, newNumber: i + 1 })),
    ],
  };
}

/** Lines added and removed across hunks. */
export function countChanges(hunks: readonly DiffHunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.kind === 'add') added++;
      else if (line.kind === 'remove') removed++;
    }
  }
  return { added, removed };
}
