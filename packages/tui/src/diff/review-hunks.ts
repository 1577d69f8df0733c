/**
 * Per-hunk review of a proposed file write. The old and new text are split into runs that are
 * the same in both and changes (removed text and added text); each change is a hunk the user
 * accepts or rejects. Applying the decisions takes, for every change, either its added text or
 * its removed text — so accepting everything gives the new text and rejecting everything the old
 * text, exactly, including line endings and a missing final newline.
 */
import { diffLines } from 'diff';
import type { DiffPlacementView } from '../view-model/tool-call.js';
import { countLines, splitRun, type DiffHunk, type DiffLine } from './display.js';
import { placeHunk } from './unified.js';

/** The user's decision on one hunk. */
export type HunkDecision = 'accept' | 'reject';

/** A run of the texts: unchanged, or a change (either side may be empty). */
export type DiffSegment =
  | { readonly kind: 'same'; readonly value: string }
  | { readonly kind: 'change'; readonly removed: string; readonly added: string };

/** Diffs larger than this many edited lines are shown as one hunk replacing the whole file. */
const MAX_EDIT_LENGTH = 5000;

/** Splits old and new text into unchanged runs and changes. */
export function diffSegments(oldText: string, newText: string): DiffSegment[] {
  const changes = diffLines(oldText, newText, { maxEditLength: MAX_EDIT_LENGTH });
  if (!changes)
    return oldText === newText
      ? [{ kind: 'same', value: oldText }]
      : [{ kind: 'change', removed: oldText, added: newText }];
  const segments: DiffSegment[] = [];
  for (const change of changes) {
    const last = segments[segments.length - 1];
    if (!change.added && !change.removed) {
      segments.push({ kind: 'same', value: change.value });
    } else if (last && last.kind === 'change') {
      segments[segments.length - 1] = {
        kind: 'change',
        removed: last.removed + (change.removed ? change.value : ''),
        added: last.added + (change.added ? change.value : ''),
      };
    } else {
      segments.push({
        kind: 'change',
        removed: change.removed ? change.value : '',
        added: change.added ? change.value : '',
      });
    }
  }
  return segments;
}

/** A reviewable hunk: one change with up to `context` unchanged lines around it. */
export interface ReviewHunk extends DiffHunk {
  /** Position among the hunks. */
  readonly index: number;
  /** Lines removed and added by this hunk. */
  readonly removedCount: number;
  readonly addedCount: number;
}

function contextLines(value: string, take: number, fromEnd: boolean): string[] {
  const { lines } = splitRun(value);
  return fromEnd ? lines.slice(Math.max(0, lines.length - take)) : lines.slice(0, take);
}

/**
 * The hunks of a proposed write, in file order, each with its line numbers and context. With a
 * `placement` that is not the whole file, the texts are a snippet of the file (an agent's edit):
 * numbered from its line, as the card and the question show it (not at all when it was not found).
 *
 * @example
 * computeReviewHunks('a\nb\nc\n', 'a\nB\nc\n'); // one hunk: -b +B, context a and c
 */
export function computeReviewHunks(
  oldText: string,
  newText: string,
  context = 3,
  placement?: DiffPlacementView | null,
): ReviewHunk[] {
  const hunks = fileHunks(oldText, newText, context);
  if (!placement || placement.wholeFile) return hunks;
  return hunks.map((hunk) => ({ ...hunk, ...placeHunk(hunk, placement.line, placement.atEnd) }));
}

function fileHunks(oldText: string, newText: string, context: number): ReviewHunk[] {
  const segments = diffSegments(oldText, newText);
  const hunks: ReviewHunk[] = [];
  let oldLine = 1;
  let newLine = 1;
  segments.forEach((segment, i) => {
    if (segment.kind === 'same') {
      const n = countLines(segment.value);
      oldLine += n;
      newLine += n;
      return;
    }
    const previous = segments[i - 1];
    const next = segments[i + 1];
    const before = previous?.kind === 'same' ? contextLines(previous.value, context, true) : [];
    const after = next?.kind === 'same' ? contextLines(next.value, context, false) : [];
    const removed = splitRun(segment.removed);
    const added = splitRun(segment.added);
    const lines: DiffLine[] = [];
    let o = oldLine - before.length;
    let n = newLine - before.length;
    for (const text of before) lines.push({ kind: 'context', text, oldNumber: o++, newNumber: n++ });
    for (const text of removed.lines) lines.push({ kind: 'remove', text, oldNumber: o++ });
    if (removed.noNewlineAtEnd) lines.push({ kind: 'note', text: 'No newline at end of file' });
    for (const text of added.lines) lines.push({ kind: 'add', text, newNumber: n++ });
    if (added.noNewlineAtEnd) lines.push({ kind: 'note', text: 'No newline at end of file' });
    for (const text of after) lines.push({ kind: 'context', text, oldNumber: o++, newNumber: n++ });
    hunks.push({
      index: hunks.length,
      oldStart: oldLine - before.length,
      oldLines: before.length + removed.lines.length + after.length,
      newStart: newLine - before.length,
      newLines: before.length + added.lines.length + after.length,
      lines,
      removedCount: removed.lines.length,
      addedCount: added.lines.length,
    });
    oldLine += removed.lines.length;
    newLine += added.lines.length;
  });
  return hunks;
}

/**
 * The file content that results from the decisions: for hunk `i`, its new text when
 * `decisions[i]` is `'accept'`, its old text otherwise (a missing decision keeps the old text).
 *
 * @example
 * applyHunkDecisions(oldText, newText, ['accept', 'reject']);
 */
export function applyHunkDecisions(
  oldText: string,
  newText: string,
  decisions: readonly HunkDecision[],
): string {
  let out = '';
  let hunk = 0;
  for (const segment of diffSegments(oldText, newText)) {
    if (segment.kind === 'same') out += segment.value;
    else out += decisions[hunk++] === 'accept' ? segment.added : segment.removed;
  }
  return out;
}

/** What the agent should be told about a reviewed write. */
export interface HunkReviewSummary {
  readonly accepted: number;
  readonly rejected: number;
  /** Nothing to write: every hunk rejected (and, for a new file, the file is not created). */
  readonly nothingToWrite: boolean;
  /** One sentence for the agent, e.g. in the error of a partly rejected `fs/write_text_file`. */
  readonly message: string;
}

/** Summarises decisions for the agent: which hunks were rejected, by old-file line range. */
export function summarizeHunkDecisions(
  path: string,
  hunks: readonly ReviewHunk[],
  decisions: readonly HunkDecision[],
): HunkReviewSummary {
  const rejectedHunks = hunks.filter((h) => decisions[h.index] !== 'accept');
  const accepted = hunks.length - rejectedHunks.length;
  const rejected = rejectedHunks.length;
  const ranges = rejectedHunks
    .map((h) => {
      const first = h.lines.find((l) => l.kind === 'remove' || l.kind === 'add');
      const line = first?.oldNumber ?? first?.newNumber ?? h.oldStart;
      return h.removedCount > 1 ? `lines ${line}-${line + h.removedCount - 1}` : `line ${line}`;
    })
    .join(', ');
  let message: string;
  if (rejected === 0) message = `The user accepted all changes to ${path}.`;
  else if (accepted === 0) message = `The user rejected all changes to ${path}; the file was not changed.`;
  else
    message =
      `The user accepted ${accepted} of ${hunks.length} changes to ${path} and rejected the changes at ${ranges}; ` +
      'the file now contains only the accepted changes. Read it again before editing it further.';
  return { accepted, rejected, nothingToWrite: accepted === 0, message };
}
