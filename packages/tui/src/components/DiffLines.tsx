import { memo, type ReactElement } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../theme/ThemeContext.js';
import { hunkHeader, type DiffHunk, type DiffLine } from '../diff/display.js';
import { sanitizeText } from '../sanitize/sanitize-text.js';
import { expandTabs } from '../text/fold.js';

/** Props of {@link DiffLines}. */
export interface DiffLinesProps {
  readonly hunks: readonly DiffHunk[];
  /** At most this many lines in total (hunk headers included); the rest is counted. */
  readonly maxLines?: number;
  /** Show the `@@ -a,b +c,d @@` line above each hunk. */
  readonly headers?: boolean;
  /** Shown after the count of hidden lines, e.g. the key that expands. */
  readonly expandHint?: string;
}

const MARKS: Readonly<Record<DiffLine['kind'], string>> = { add: '+', remove: '-', context: ' ', note: '\\' };

/** Width of the line-number columns for these hunks. */
export function lineNumberWidth(hunks: readonly DiffHunk[]): number {
  let max = 1;
  for (const hunk of hunks) max = Math.max(max, hunk.oldStart + hunk.oldLines, hunk.newStart + hunk.newLines);
  return String(max).length;
}

/**
 * Diff hunks as coloured lines with old and new line numbers. Line text is file content the
 * agent proposed, so it is sanitized (a `\r` from CRLF files included).
 */
export const DiffLines = memo(function DiffLines({
  hunks,
  maxLines,
  headers = true,
  expandHint = '',
}: DiffLinesProps) {
  const theme = useTheme();
  const width = lineNumberWidth(hunks);
  const pad = (n: number | undefined): string => (n === undefined ? '' : String(n)).padStart(width);
  const rows: { key: string; node: ReactElement }[] = [];
  let total = 0;
  hunks.forEach((hunk, h) => {
    total += (headers ? 1 : 0) + hunk.lines.length;
    if (headers) {
      rows.push({ key: `h${h}`, node: <Text color={theme.diff.hunkHeader}>{hunkHeader(hunk)}</Text> });
    }
    hunk.lines.forEach((line, i) => {
      const color =
        line.kind === 'add' ? theme.diff.added : line.kind === 'remove' ? theme.diff.removed : undefined;
      rows.push({
        key: `${h}:${i}`,
        // The numbers and the mark in columns of their own: a line too long for the width
        // continues under its text, not under the numbers.
        node: (
          <>
            {!hunk.unplaced && (
              <Box flexShrink={0}>
                <Text color={theme.diff.lineNumber}>{`${pad(line.oldNumber)} ${pad(line.newNumber)} `}</Text>
              </Box>
            )}
            <Box flexShrink={0}>
              <Text color={color} dimColor={line.kind === 'note'}>{`${MARKS[line.kind]} `}</Text>
            </Box>
            <Text color={color} dimColor={line.kind === 'note'}>
              {expandTabs(sanitizeText(line.text).replace(/\n/g, ' '), 4)}
            </Text>
          </>
        ),
      });
    });
  });
  const limit = maxLines !== undefined && total > maxLines + 1 ? maxLines : total;
  const shown = rows.slice(0, limit);
  const hidden = rows.length - shown.length;
  return (
    <Box flexDirection="column">
      {shown.map((row) => (
        <Box key={row.key}>{row.node}</Box>
      ))}
      {hidden > 0 && (
        <Text
          color={theme.text.muted}
        >{`… ${hidden} more ${hidden === 1 ? 'line' : 'lines'}${expandHint}`}</Text>
      )}
    </Box>
  );
});
