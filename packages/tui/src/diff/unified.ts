/** Unified diff hunks (as `diff -u` shows them) for displaying a tool call's diff. */
import { structuredPatch, type StructuredPatchHunk } from 'diff';
import type { DiffPlacementView } from '../view-model/tool-call.js';
import type { DiffHunk, DiffLine } from './display.js';
import { hunkHeader, splitRun } from './display.js';

const MAX_EDIT_LENGTH = 5000;

/**
 * The unified-diff hunks from `oldText` to `newText`, with line numbers. A new file (`oldText`
 * null or undefined) is one hunk of added lines. A diff too large to compute is shown as the old
 * text removed and the new text added. With a `placement` that is not the whole file, the texts
 * are a snippet of the file: numbered from its line (or not at all when it was not found).
 */
export function computeUnifiedHunks(
  oldText: string | null | undefined,
  newText: string,
  context = 3,
  placement?: DiffPlacementView | null,
): DiffHunk[] {
  const snippet = placement && !placement.wholeFile && oldText !== null && oldText !== undefined;
  let before = oldText ?? '';
  let after = newText;
  // A snippet ends without a newline because it was cut out of the file, not because the file
  // ends there: the marker is only true of a snippet that reaches the end of the file.
  const atEnd = !snippet || placement.atEnd;
  if (snippet && !atEnd && !before.endsWith('\n') && !after.endsWith('\n')) {
    before += '\n';
    after += '\n';
  }
  const patch = structuredPatch('a', 'b', before, after, undefined, undefined, {
    context,
    maxEditLength: MAX_EDIT_LENGTH,
  });
  const hunks = patch ? patch.hunks.map(toHunk) : [replaceAll(before, after)];
  if (!snippet) return hunks;
  return hunks.map((hunk) => placeHunk(hunk, placement.line, atEnd));
}

function toHunk(hunk: StructuredPatchHunk): DiffHunk {
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
}

/**
 * A snippet's hunk moved to the snippet's line in the file (`line` null: not found, so no line
 * numbers are claimed), without "no newline" markers unless the snippet ends the file.
 */
export function placeHunk(hunk: DiffHunk, line: number | null, atEnd: boolean): DiffHunk {
  const lines = atEnd ? hunk.lines : hunk.lines.filter((l) => l.kind !== 'note');
  if (line === null) {
    return {
      ...hunk,
      unplaced: true,
      lines: lines.map(({ kind, text }) => ({ kind, text })),
    };
  }
  const shift = line - 1;
  const move = (n: number | undefined): number | undefined => (n === undefined ? undefined : n + shift);
  return {
    oldStart: hunk.oldStart + shift,
    oldLines: hunk.oldLines,
    newStart: hunk.newStart + shift,
    newLines: hunk.newLines,
    lines: lines.map((l) => {
      const oldNumber = move(l.oldNumber);
      const newNumber = move(l.newNumber);
      return {
        kind: l.kind,
        text: l.text,
        ...(oldNumber !== undefined ? { oldNumber } : {}),
        ...(newNumber !== undefined ? { newNumber } : {}),
      };
    }),
  };
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

/**
 * The first line a diff changes, in the old file (the new file's for an insertion): what its
 * header names, as the permission question does. Undefined when the hunks are not numbered (a
 * snippet not found in its file) or change nothing.
 */
export function firstChangedLine(hunks: readonly DiffHunk[]): number | undefined {
  for (const hunk of hunks) {
    if (hunk.unplaced) return undefined;
    for (const line of hunk.lines) {
      if (line.kind === 'remove') return line.oldNumber;
      if (line.kind === 'add') return line.newNumber;
    }
  }
  return undefined;
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

/** One line of a diff as plain text: a hunk's header, or a line marked `+ `, `- ` or two spaces. */
export interface DiffTextLine {
  readonly kind: DiffLine['kind'] | 'header';
  readonly text: string;
}

/**
 * A diff as plain-text lines, the way `diff -u` reads (for places without colour: the transcript
 * browser, the line mode), a snippet numbered from its `placement`. The texts are the agent's:
 * sanitize them before they are written.
 *
 * @example
 * diffTextLines('a\n', 'b\n').map((l) => l.text); // ['@@ -1,1 +1,1 @@', '- a', '+ b']
 */
export function diffTextLines(
  oldText: string | null | undefined,
  newText: string,
  placement?: DiffPlacementView | null,
): DiffTextLine[] {
  const lines: DiffTextLine[] = [];
  for (const hunk of computeUnifiedHunks(oldText, newText, 3, placement)) {
    lines.push({ kind: 'header', text: hunkHeader(hunk) });
    for (const line of hunk.lines) {
      const mark = line.kind === 'add' ? '+ ' : line.kind === 'remove' ? '- ' : '  ';
      lines.push({ kind: line.kind, text: `${mark}${line.text}` });
    }
  }
  return lines;
}
