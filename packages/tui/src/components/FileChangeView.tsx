import { memo } from 'react';
import { Box, Text } from 'ink';
import type { FileChange } from '@acp-kit/client';
import { useTheme } from '../theme/ThemeContext.js';
import { sanitizeInline } from '../sanitize/sanitize-text.js';
import { foldLines, plural, splitLines } from '../text/fold.js';
import { displayPath } from '../text/paths.js';

/** Props of {@link FileChangeView}. */
export interface FileChangeViewProps {
  readonly change: FileChange;
  readonly cwd?: string;
  /** Most lines of the patch shown (all when undefined). */
  readonly maxLines?: number;
  readonly expandHint?: string;
}

/**
 * A file change reported as a patch (a v2 diff): the operation on the file and its section of the
 * git patch, added and removed lines coloured. The file's texts are not sent with such a change,
 * so it is shown as the agent wrote it, never placed in the file.
 *
 * @example
 * <FileChangeView change={{ type: 'file_change', path: '/w/a.md', operation: 'add', patch }} />
 */
export const FileChangeView = memo(function FileChangeView({
  change,
  cwd,
  maxLines,
  expandHint = '',
}: FileChangeViewProps) {
  const theme = useTheme();
  const moved = change.oldPath !== undefined ? `${displayPath(change.oldPath, cwd)} → ` : '';
  const { shown, hidden } = foldLines(splitLines(change.patch ?? ''), maxLines, 'head');
  const colour = (line: string): string | undefined =>
    line.startsWith('@@')
      ? theme.diff.hunkHeader
      : line.startsWith('+') && !line.startsWith('+++')
        ? theme.diff.added
        : line.startsWith('-') && !line.startsWith('---')
          ? theme.diff.removed
          : undefined;
  return (
    <Box flexDirection="column">
      <Text color={theme.text.muted}>
        {`${sanitizeInline(change.operation)} ${moved}${displayPath(change.path, cwd)}`}
      </Text>
      {shown.map((line, i) => {
        const color = colour(line);
        return (
          <Text key={i} {...(color ? { color } : {})}>
            {sanitizeInline(line)}
          </Text>
        );
      })}
      {hidden > 0 ? (
        <Text color={theme.text.muted}>{`… ${plural(hidden, 'more line')}${expandHint}`}</Text>
      ) : null}
    </Box>
  );
});
