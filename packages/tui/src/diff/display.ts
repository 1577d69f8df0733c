/** Diff lines ready to render: kind, text, and line numbers in the old and new file. */

/** Kind of a diff line. `note` is the "no newline at end of file" marker. */
export type DiffLineKind = 'context' | 'add' | 'remove' | 'note';

/** One line of a rendered diff. */
export interface DiffLine {
  readonly kind: DiffLineKind;
  readonly text: string;
  readonly oldNumber?: number;
  readonly newNumber?: number;
}

/** A hunk: its `@@ -a,b +c,d @@` range and its lines. */
export interface DiffHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly DiffLine[];
  /** A snippet whose place in the file is unknown: its lines are not numbered. */
  readonly unplaced?: boolean;
}

/** The unified-diff header of a hunk (an empty range names the line before it, as `diff -u` does). */
export function hunkHeader(
  hunk: Pick<DiffHunk, 'oldStart' | 'oldLines' | 'newStart' | 'newLines' | 'unplaced'>,
): string {
  if (hunk.unplaced) return `@@ -${hunk.oldLines} +${hunk.newLines} lines · not found in the file @@`;
  const start = (first: number, count: number): number => (count === 0 ? Math.max(0, first - 1) : first);
  return `@@ -${start(hunk.oldStart, hunk.oldLines)},${hunk.oldLines} +${start(hunk.newStart, hunk.newLines)},${hunk.newLines} @@`;
}

/** Splits a run of text into lines; the flag says the last line has no newline. */
export function splitRun(value: string): { lines: string[]; noNewlineAtEnd: boolean } {
  if (value === '') return { lines: [], noNewlineAtEnd: false };
  const noNewlineAtEnd = !value.endsWith('\n');
  const lines = (noNewlineAtEnd ? value : value.slice(0, -1)).split('\n');
  return { lines, noNewlineAtEnd };
}

/** Number of lines in a run of text. */
export function countLines(value: string): number {
  return splitRun(value).lines.length;
}
