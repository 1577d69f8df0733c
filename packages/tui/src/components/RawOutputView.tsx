import { memo } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../theme/ThemeContext.js';
import type { RawCommandOutput } from '../view-model/command-output.js';
import { OutputLines } from './TerminalView.js';

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
  const code = output.exitCode;
  return (
    <Box flexDirection="column">
      <OutputLines output={output.text} maxLines={maxLines} expandHint={expandHint} />
      {code === 0 && <Text color={theme.status.success}>✓ exited with 0</Text>}
      {typeof code === 'number' && code !== 0 && (
        <Text color={theme.status.error}>{`✗ exited with ${code}`}</Text>
      )}
    </Box>
  );
});
