import { memo, useMemo } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../theme/ThemeContext.js';
import type { Theme } from '../theme/theme.js';
import { parseTerminalOutput } from '../sanitize/terminal-output.js';
import { sanitizeInline } from '../sanitize/sanitize-text.js';
import { foldLines, plural } from '../text/fold.js';
import { commandLineFrom } from '../view-model/permission.js';
import {
  isFinishedStatus,
  terminalRuns,
  type TerminalSnapshot,
  type ToolCallDisplayStatus,
} from '../view-model/tool-call.js';
import { Spinner } from './Spinner.js';
import { StyledLineText } from './StyledLineText.js';

/** Props of {@link TerminalView}. */
export interface TerminalViewProps {
  readonly terminal: TerminalSnapshot;
  /** Show only the last N lines. Undefined shows everything. */
  readonly maxLines?: number;
  /** Text after the "N earlier lines" notice (e.g. " · Ctrl+O to expand"). */
  readonly expandHint?: string;
  /** The status of the tool call it runs for (an agent's terminal ends with its call). */
  readonly callStatus?: ToolCallDisplayStatus;
}

/**
 * Command output as a terminal shows it (SGR colours kept, every other control sequence dropped),
 * folded to its last `maxLines` lines with a note of how many earlier ones are hidden.
 */
export function OutputLines({
  output,
  maxLines,
  expandHint,
}: {
  readonly output: string;
  readonly maxLines: number | undefined;
  readonly expandHint: string;
}) {
  const theme = useTheme();
  const lines = useMemo(() => parseTerminalOutput(output), [output]);
  const { shown, hidden } = foldLines(lines, maxLines, 'tail');
  return (
    <>
      {hidden > 0 && (
        <Text color={theme.text.muted}>{`… ${plural(hidden, 'earlier line')}${expandHint}`}</Text>
      )}
      <Box flexDirection="column" paddingLeft={2}>
        {shown.map((line, i) => (
          <StyledLineText key={hidden + i} line={line} />
        ))}
      </Box>
    </>
  );
}

function ExitLine({
  terminal,
  callStatus,
  theme,
}: {
  terminal: TerminalSnapshot;
  callStatus: ToolCallDisplayStatus;
  theme: Theme;
}) {
  const exit = terminal.exit;
  if (!exit) {
    if (terminal.released)
      return <Text color={theme.text.muted}>released by the agent before it exited</Text>;
    if (!terminalRuns(terminal, callStatus))
      return <Text color={theme.status.warning}>ended without an exit status</Text>;
    // Its call is over and the command goes on (v2 background work): its end is said when it comes.
    if (isFinishedStatus(callStatus))
      return <Text color={theme.text.muted}>◌ goes on in the background</Text>;
    return (
      <Text color={theme.text.muted}>
        <Spinner color={theme.status.info} /> running
      </Text>
    );
  }
  if (exit.signal)
    return <Text color={theme.status.error}>{`✗ killed by ${sanitizeInline(exit.signal)}`}</Text>;
  if (exit.exitCode === 0) return <Text color={theme.status.success}>✓ exited with 0</Text>;
  if (exit.exitCode === undefined || exit.exitCode === null) {
    return <Text color={theme.status.warning}>exited (no exit code)</Text>;
  }
  return <Text color={theme.status.error}>{`✗ exited with ${exit.exitCode}`}</Text>;
}

/**
 * A terminal's command line, its output (SGR colours kept, every other control sequence
 * dropped), a marker when the byte limit dropped earlier output, and how it exited. Long output
 * is folded to its last lines.
 *
 * @example
 * <TerminalView terminal={{ terminalId: 't1', command: 'npm test', output, truncated: false }} maxLines={12} />
 */
export const TerminalView = memo(function TerminalView({
  terminal,
  maxLines,
  expandHint = '',
  callStatus = 'in_progress',
}: TerminalViewProps) {
  const theme = useTheme();
  const command = commandLineFrom(terminal.command, terminal.args);
  return (
    <Box flexDirection="column">
      {command !== undefined && (
        <Text>
          <Text color={theme.text.accent}>$ </Text>
          <Text bold>{sanitizeInline(command)}</Text>
          {terminal.cwd && <Text color={theme.text.muted}>{`  in ${sanitizeInline(terminal.cwd)}`}</Text>}
        </Text>
      )}
      {terminal.truncated && (
        <Text color={theme.status.warning}>⚠ earlier output was dropped (output byte limit reached)</Text>
      )}
      <OutputLines output={terminal.output} maxLines={maxLines} expandHint={expandHint} />
      <ExitLine terminal={terminal} callStatus={callStatus} theme={theme} />
    </Box>
  );
});
