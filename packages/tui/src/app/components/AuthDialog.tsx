import { memo, useState } from 'react';
import { Box, Text, useInput } from 'ink';
import type { AuthOption } from '@acp-kit/client';
import { useTheme } from '../../theme/ThemeContext.js';
import { sanitizeInline, sanitizeText } from '../../sanitize/sanitize-text.js';
import { InlineCode } from '../../components/InlineCode.js';
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

/** Longest key accepted (a paste of something else is refused rather than sent). */
const MAX_KEY_LENGTH = 4096;

/** Props of {@link KeyEntry}. */
interface KeyEntryProps {
  readonly option: AuthOption;
  readonly label: string;
  readonly isActive: boolean;
  readonly onSubmit: (key: string) => void;
  readonly onCancel: () => void;
}

/**
 * Typing (or pasting) an API key: shown masked, never echoed, kept only until it is sent with
 * `authenticate`. Enter signs in, Esc goes back to the methods.
 */
const KeyEntry = memo(function KeyEntry({ option, label, isActive, onSubmit, onCancel }: KeyEntryProps) {
  const theme = useTheme();
  const [key, setKey] = useState('');
  useInput(
    (input, inputKey) => {
      if (inputKey.escape) onCancel();
      else if (inputKey.return) {
        if (key.trim() !== '') onSubmit(key.trim());
      } else if (inputKey.backspace || inputKey.delete) setKey((value) => value.slice(0, -1));
      else if (inputKey.ctrl && input === 'u') setKey('');
      else if (!inputKey.ctrl && !inputKey.meta && input !== '') {
        // Printable characters only: a key never holds control characters or line breaks.
        const printable = sanitizeText(input).replace(/[\n\t]/g, '');
        setKey((value) => (value + printable).slice(0, MAX_KEY_LENGTH));
      }
    },
    { isActive },
  );
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.focus} paddingX={1}>
      <Text bold>{`${sanitizeInline(option.name)}: enter your ${sanitizeInline(label)}`}</Text>
      <Text color={theme.text.muted}>It is passed to the agent when signing in; acp does not store it.</Text>
      <Text>{`› ${key.length > 0 ? `${'•'.repeat(Math.min(key.length, 40))}  (${key.length} characters)` : ''}`}</Text>
      <Text color={theme.text.muted}>Enter sign in · Ctrl+U clear · Esc back</Text>
    </Box>
  );
});

/**
 * The agent's sign-in methods. Agent methods call `authenticate`; methods that take an API key
 * ask for it (masked) and pass it along; terminal methods hand this terminal to the agent's login
 * command and reconnect after it; other shapes (environment variables, gateways) are explained,
 * since only the user can set them up.
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
  const [entering, setEntering] = useState<AuthOption | undefined>();
  const items: SelectItem[] = options.map((option, i) => ({
    key: option.id,
    label: option.name,
    hotkey: i < 9 ? String(i + 1) : undefined,
    tag: option.input ? { text: 'asks for your key', tone: 'ok' } : ACTION_TAGS[option.action],
    detail: option.description,
  }));
  if (entering?.input) {
    return (
      <KeyEntry
        option={entering}
        label={entering.input.label}
        isActive={isActive}
        onCancel={() => setEntering(undefined)}
        onSubmit={(apiKey) => {
          setEntering(undefined);
          void controller.authenticate(tab.id, entering, { apiKey });
        }}
      />
    );
  }
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
        else if (option.input) setEntering(option);
        else void controller.authenticate(tab.id, option);
      }}
      onCancel={() => controller.store.dispatch({ type: 'overlay_closed' })}
    >
      {tab.message && <Text color={theme.text.muted}>{sanitizeInline(tab.message)}</Text>}
      {tab.agent.authHint && (
        <Text color={theme.text.muted}>
          {'Hint: '}
          <InlineCode text={sanitizeInline(tab.agent.authHint)} />
        </Text>
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
