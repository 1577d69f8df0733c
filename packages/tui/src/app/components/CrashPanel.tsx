import { memo } from 'react';
import { Box, Text, useInput } from 'ink';
import { useTheme } from '../../theme/ThemeContext.js';
import { useKeyLabel } from '../../keys/KeyBindingsContext.js';
import { sanitizeInline, sanitizeText } from '../../sanitize/sanitize-text.js';
import { splitLines } from '../../text/fold.js';
import type { TabInfo } from '../state/app-state.js';
import { describeErrorInfo } from '../../view-model/notice.js';
import { useController } from '../hooks/AppContext.js';
import { InlineCode } from '../../components/InlineCode.js';

/** Props of {@link CrashPanel}. */
export interface CrashPanelProps {
  readonly tab: TabInfo;
  readonly isActive?: boolean;
}

/**
 * The agent itself answered with a JSON-RPC error (rather than failing to start): agents that
 * are not signed in often fail this way (Claude Agent: "Internal error"), so the sign-in hint helps.
 */
function answeredWithError(tab: TabInfo): boolean {
  return tab.error !== undefined && /^-?\d+$/.test(tab.error.code);
}

/** Last stderr lines shown. */
const STDERR_LINES = 8;

/**
 * Shown in place of the composer when the tab's agent exited or could not start: the exit reason
 * (code or signal, last stderr lines), and what can be done — restart the agent and reopen the
 * session (resume, load or continue from the kept transcript), another agent, or close the tab.
 */
export const CrashPanel = memo(function CrashPanel({ tab, isActive = true }: CrashPanelProps) {
  const theme = useTheme();
  const controller = useController();
  const sessionsKey = useKeyLabel('app.sessions');
  const crashed = tab.phase === 'crashed';
  useInput(
    (input) => {
      if (input === 'r') void controller.restart(tab.id);
      else if (input === 'n')
        controller.store.dispatch({ type: 'overlay_opened', overlay: { kind: 'agents', purpose: 'newTab' } });
      else if (input === 'c') void controller.closeTab(tab.id);
    },
    { isActive },
  );
  const described = tab.error ? describeErrorInfo(tab.error) : undefined;
  // The session's transcript ends with the exit, its stderr lines included, right above.
  const shownAbove = crashed && tab.status === 'disconnected';
  const stderr =
    described?.detail && !shownAbove ? splitLines(sanitizeText(described.detail)).slice(-STDERR_LINES) : [];
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.status.error} paddingX={1}>
      <Text bold color={theme.status.error}>
        {crashed
          ? `✗ ${sanitizeInline(tab.message ?? `${tab.agent.name} exited`)}`
          : `✗ Could not open the session with ${sanitizeInline(tab.agent.name)}`}
      </Text>
      {described && <Text>{sanitizeInline(described.text)}</Text>}
      {stderr.length > 0 && (
        <Box flexDirection="column" paddingLeft={2}>
          <Text color={theme.text.muted}>Last lines the agent wrote to stderr:</Text>
          {stderr.map((line, i) => (
            <Text key={i} color={theme.text.muted} wrap="truncate-end">
              {line}
            </Text>
          ))}
        </Box>
      )}
      {crashed && (
        <Text color={theme.text.muted}>
          {`The transcript above is kept${shownAbove && described?.detail ? ', with the last lines the agent wrote to stderr' : ''}.`}
        </Text>
      )}
      {!crashed && tab.agent.authHint && answeredWithError(tab) && (
        <Text color={theme.text.muted}>
          {`If ${sanitizeInline(tab.agent.name)} needs you to sign in: `}
          <InlineCode text={sanitizeInline(tab.agent.authHint)} />
        </Text>
      )}
      <Text color={theme.text.accent}>
        {`r ${crashed ? 'restart the agent and reopen the session' : 'try again'} · n another agent (new tab) · c close the tab · ${sessionsKey} sessions`}
      </Text>
    </Box>
  );
});
