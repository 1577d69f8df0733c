/**
 * Folding of long content: a view shows at most N lines and says how many it left out.
 * Nothing is dropped from the data; only the view is shorter.
 */

/** Lines to show and how many were left out. */
export interface FoldedLines<T> {
  readonly shown: readonly T[];
  readonly hidden: number;
}

/**
 * Keeps the first (`keep: 'head'`) or last (`keep: 'tail'`) `max` lines. When only one line would
 * be hidden it is shown instead, since the "1 more line" notice would take the same room.
 *
 * @example
 * foldLines(outputLines, 12, 'tail'); // the last 12 lines of a terminal
 */
export function foldLines<T>(
  lines: readonly T[],
  max: number | undefined,
  keep: 'head' | 'tail' = 'head',
): FoldedLines<T> {
  if (max === undefined || lines.length <= max + 1) return { shown: lines, hidden: 0 };
  const limit = Math.max(0, max);
  const shown = keep === 'head' ? lines.slice(0, limit) : lines.slice(lines.length - limit);
  return { shown, hidden: lines.length - limit };
}

/** Splits text into lines, treating a final newline as a terminator rather than an empty line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Replaces tabs with spaces up to the next multiple of `width` columns. */
export function expandTabs(line: string, width = 4): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const ch of line) {
    if (ch === '\t') out += ' '.repeat(width - (out.length % width));
    else out += ch;
  }
  return out;
}

/** "1 line" / "3 lines". */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}
