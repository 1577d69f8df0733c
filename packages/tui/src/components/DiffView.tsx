import { memo, useMemo } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../theme/ThemeContext.js';
import { computeUnifiedHunks, countChanges, firstChangedLine } from '../diff/unified.js';
import { displayPath } from '../text/paths.js';
import type { DiffPlacementView } from '../view-model/tool-call.js';
import { DiffLines } from './DiffLines.js';

/** Props of {@link DiffView}. */
export interface DiffViewProps {
  /** The file the diff is about (agent-controlled). */
  readonly path: string;
  /** Working directory, to show the path relative to it. */
  readonly cwd?: string;
  /** The previous content; `null` or absent means the file is new. */
  readonly oldText?: string | null;
  readonly newText: string;
  /** Fold after this many lines. Undefined shows everything. */
  readonly maxLines?: number;
  readonly contextLines?: number;
  /** Text after the "N more lines" notice (e.g. " · Ctrl+O to expand"). */
  readonly expandHint?: string;
  /** Where a snippet diff is in its file (absent: `oldText` is the whole file). */
  readonly placement?: DiffPlacementView | null;
}

/**
 * A unified diff of one file: a header with the path, the first line it changes and the counts of
 * added and removed lines ("new file" when there was no old text), then coloured hunks with line
 * numbers. A snippet diff with its `placement` is numbered from the snippet's line in the file.
 *
 * @example
 * <DiffView path="/work/src/a.ts" oldText={before} newText={after} maxLines={40} />
 */
export const DiffView = memo(function DiffView({
  path,
  cwd,
  oldText,
  newText,
  maxLines,
  contextLines = 3,
  expandHint,
  placement,
}: DiffViewProps) {
  const theme = useTheme();
  const hunks = useMemo(
    () => computeUnifiedHunks(oldText, newText, contextLines, placement),
    [oldText, newText, contextLines, placement],
  );
  const { added, removed } = countChanges(hunks);
  const isNew = oldText === null || oldText === undefined;
  // Where the change is, not where the snippet or its context starts.
  const line = isNew ? undefined : firstChangedLine(hunks);
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{displayPath(path, cwd, line)}</Text>
        {isNew && <Text color={theme.status.info}> (new file)</Text>}
        <Text color={theme.diff.added}>{` +${added}`}</Text>
        <Text color={theme.diff.removed}>{` -${removed}`}</Text>
      </Text>
      {hunks.length === 0 ? (
        <Text color={theme.text.muted}>No changes.</Text>
      ) : (
        <DiffLines hunks={hunks} maxLines={maxLines} expandHint={expandHint} />
      )}
    </Box>
  );
});
