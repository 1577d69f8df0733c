import { memo, useState } from 'react';
import { Box, Text } from 'ink';
import type { AuthOption } from '@acp-kit/client';
import { useTheme } from '../../theme/ThemeContext.js';
import { sanitizeInline } from '../../sanitize/sanitize-text.js';
import type { TabInfo } from '../state/app-state.js';
import { useController } from '../hooks/AppContext.js';
import { SelectList, type SelectItem } from './SelectList.js';

/** Props of {@link AuthDialog}. */
export interface AuthDialogProps {
  /** Rows of the list shown at once (it scrolls). */
  readonly maxVisible?: number;
  readonly tab: TabInfo;
  readonly isActive?: boolean;
}

const ACTION_TAGS: Readonly<Record<AuthOption['action'], SelectItem['tag']>> = {
  authenticate: { text: 'the agent signs you in', tone: 'ok' },
  'run-terminal': { text: 'runs in this terminal', tone: 'info' },
  user: { text: 'set up outside acp', tone: 'warn' },
};

/**
 * The agent's sign-in methods. Agent methods call `authenticate`; terminal methods hand this
 * terminal to the agent's login command and reconnect after it; other shapes (environment
 * variables, API keys, gateways) are explained, since only the user can set them up.
 */
export const AuthDialog = memo(function AuthDialog({
  tab,
  isActive = true,
  maxVisible = 9,
}: AuthDialogProps) {
  const theme = useTheme();
  const controller = useController();
  const options = tab.authOptions ?? [];
  const [explained, setExplained] = useState<AuthOption | undefined>();
  const items: SelectItem[] = options.map((option, i) => ({
    key: option.id,
    label: option.name,
    hotkey: i < 9 ? String(i + 1) : undefined,
    tag: ACTION_TAGS[option.action],
    detail: option.description,
  }));
  return (
    <SelectList
      title={`${sanitizeInline(tab.agent.name)} needs you to sign in`}
      items={items}
      isActive={isActive}
      maxVisible={maxVisible}
      empty="The agent listed no sign-in method. Configure it as its documentation says, then restart it (Ctrl+R)."
      hint="↑↓ move · Enter use this method · Esc later"
      onSelect={(item) => {
        const option = options.find((candidate) => candidate.id === item.key);
        if (!option) return;
        if (option.action === 'user') setExplained(option);
        else void controller.authenticate(tab.id, option);
      }}
      onCancel={() => controller.store.dispatch({ type: 'overlay_closed' })}
    >
      {tab.message && <Text color={theme.text.muted}>{sanitizeInline(tab.message)}</Text>}
      {tab.agent.authHint && (
        <Text color={theme.text.muted}>{`Hint: ${sanitizeInline(tab.agent.authHint)}`}</Text>
      )}
      {explained && (
        <Box flexDirection="column" marginY={1}>
          <Text color={theme.status.warning}>{sanitizeInline(explained.instructions)}</Text>
          {(explained.vars ?? []).map((v) => (
            <Text
              key={v.name}
            >{`  ${sanitizeInline(v.name)}${v.label ? ` — ${sanitizeInline(v.label)}` : ''}${v.optional ? ' (optional)' : ''}`}</Text>
          ))}
          {explained.link && <Text color={theme.text.link}>{sanitizeInline(explained.link)}</Text>}
        </Box>
      )}
    </SelectList>
  );
});
