import { memo } from 'react';
import { Box, Text, useInput } from 'ink';
import { useTheme } from '../../theme/ThemeContext.js';
import { useNow } from '../../clock/ClockContext.js';
import { formatDuration } from '../../text/format.js';
import { sanitizeInline } from '../../sanitize/sanitize-text.js';
import type { TabInfo } from '../state/app-state.js';
import { useController } from '../hooks/AppContext.js';

/** Props of {@link KillPrompt}. */
export interface KillPromptProps {
  readonly tab: TabInfo;
  readonly isActive?: boolean;
}

/**
 * Offered on a second cancel while the agent has not ended the cancelled turn: kill the agent
 * (its whole process group; the transcript stays and the tab offers a restart) or keep waiting.
 */
export const KillPrompt = memo(function KillPrompt({ tab, isActive = true }: KillPromptProps) {
  const theme = useTheme();
  const controller = useController();
  const now = useNow();
  useInput(
    (input, key) => {
      if (input === 'k' || input === 'y') void controller.kill(tab.id);
      else if (input === 'w' || input === 'n' || key.escape)
        controller.store.dispatch({ type: 'overlay_closed' });
    },
    { isActive },
  );
  const waited = tab.cancelSentAt !== undefined ? ` for ${formatDuration(now - tab.cancelSentAt)}` : '';
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.status.error} paddingX={1}>
      <Text
        bold
        color={theme.status.error}
      >{`${sanitizeInline(tab.agent.name)} has not stopped the cancelled turn${waited}.`}</Text>
      <Text>k kill the agent now (the transcript stays; restart it after) · w keep waiting (Esc)</Text>
    </Box>
  );
});
