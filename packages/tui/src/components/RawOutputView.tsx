import { memo, useMemo } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../theme/ThemeContext.js';
import { parseTerminalOutput } from '../sanitize/terminal-output.js';
import { foldLines, plural } from '../text/fold.js';
import type { RawCommandOutput } from '../view-model/command-output.js';
import { StyledLineText } from './StyledLineText.js';

/** Props of {@link RawOutputView}. */
export interface RawOutputViewProps {
  readonly output: RawCommandOutput;
  /** Show only the last N lines. Undefined shows everything. */
  readonly maxLines?: number;
  readonly expandHint?: string;
}

/**
 * A command's output that the agent sent only in the tool call's `rawOutput` (no terminal, no
 * text content): drawn like a terminal's, folded to its last lines, with the exit code.
 *
 * @example
 * <RawOutputView output={{ text: 'a.ts\n', exitCode: 0 }} maxLines={12} />
 */
export const RawOutputView = memo(function RawOutputView({
  output,
  maxLines,
  expandHint = '',
}: RawOutputViewProps) {
  const theme = useTheme();
  const lines = useMemo(() => parseTerminalOutput(output.text), [output.text]);
  const { shown, hidden } = foldLines(output.text === '' ? [] : lines, maxLines, 'tail');
  const code = output.exitCode;
  return (
    <Box flexDirection="column">
      {hidden > 0 && (
        <Text color={theme.text.muted}>{`… ${plural(hidden, 'earlier line')}${expandHint}`}</Text>
      )}
      <Box flexDirection="column" paddingLeft={2}>
        {shown.map((line, i) => (
          <StyledLineText key={hidden + i} line={line} />
        ))}
      </Box>
      {code === 0 && <Text color={theme.status.success}>✓ exited with 0</Text>}
      {typeof code === 'number' && code !== 0 && (
        <Text color={theme.status.error}>{`✗ exited with ${code}`}</Text>
      )}
    </Box>
  );
});
