import { memo } from 'react';
import { Box, Text } from 'ink';
import type { AvailableCommand } from '@acp-kit/protocol';
import { useTheme } from '../theme/ThemeContext.js';
import { sanitizeInline } from '../sanitize/sanitize-text.js';
import { plural } from '../text/fold.js';
import { SuggestionList } from './SuggestionList.js';
import { commandInText } from './suggestions.js';
import { useComposer } from './useComposer.js';

/** Props of {@link Composer}. */
export interface ComposerProps {
  /** Called with the prompt text when the user submits it. */
  readonly onSubmit: (text: string) => void;
  /** The agent's commands (`available_commands_update`), for the `/` palette. */
  readonly commands?: readonly AvailableCommand[];
  /** Workspace files (relative paths), for `@` mentions. */
  readonly files?: readonly string[];
  /** Earlier prompts, oldest first. */
  readonly history?: readonly string[];
  /** Prompts submitted during the running turn and waiting for it to end. */
  readonly queued?: number;
  /** A turn is running (typing continues; a submitted prompt is queued). */
  readonly busy?: boolean;
  /** Called when the help key is pressed in an empty composer. */
  readonly onHelp?: () => void;
  readonly isActive?: boolean;
}

const NO_COMMANDS: readonly AvailableCommand[] = [];
const NO_STRINGS: readonly string[] = [];

/** Splits a line at the cursor column for drawing the cursor. */
function Line({ text, cursor }: { text: string; cursor: number | undefined }) {
  if (cursor === undefined) return <Text>{text === '' ? ' ' : text}</Text>;
  const chars = [...text.slice(cursor)];
  return (
    <Text>
      {text.slice(0, cursor)}
      <Text inverse>{chars[0] ?? ' '}</Text>
      {chars.slice(1).join('')}
    </Text>
  );
}

/**
 * The prompt input: multi-line editing with history, a slash-command palette with descriptions
 * and input hints, `@` file mentions with fuzzy search, and an indicator of queued prompts.
 *
 * @example
 * <Composer onSubmit={send} commands={session.commands} files={workspaceFiles} history={sent} busy={turnRunning} />
 */
export const Composer = memo(function Composer({
  onSubmit,
  commands = NO_COMMANDS,
  files = NO_STRINGS,
  history = NO_STRINGS,
  queued = 0,
  busy = false,
  onHelp,
  isActive = true,
}: ComposerProps) {
  const theme = useTheme();
  const { state, suggestions } = useComposer({ commands, files, history, onSubmit, onHelp, isActive });
  const lines = state.text.split('\n');
  const before = state.text.slice(0, state.cursor).split('\n');
  const cursorLine = before.length - 1;
  const cursorColumn = before[cursorLine]?.length ?? 0;
  const command = commandInText(state.text, commands);
  const showHint = command?.input && state.text.trimEnd() === `/${command.name}`;
  return (
    <Box flexDirection="column">
      {queued > 0 && (
        <Text
          color={theme.status.info}
        >{`⏳ ${plural(queued, 'prompt')} queued · sent when the current turn ends`}</Text>
      )}
      <Box
        flexDirection="column"
        borderStyle="round"
        borderColor={isActive ? theme.focus : theme.border}
        paddingX={1}
      >
        {state.text === '' ? (
          <Text>
            <Text color={theme.text.accent}>{'› '}</Text>
            <Text inverse> </Text>
            <Text color={theme.text.muted}>
              {busy
                ? 'The agent is working · type to queue a prompt'
                : 'Message · / for commands · @ to mention a file'}
            </Text>
          </Text>
        ) : (
          lines.map((line, i) => (
            <Text key={i}>
              <Text color={theme.text.accent}>{i === 0 ? '› ' : '  '}</Text>
              <Line text={line} cursor={i === cursorLine ? cursorColumn : undefined} />
              {i === 0 && showHint && (
                <Text color={theme.text.muted}>{sanitizeInline(command.input?.hint ?? '')}</Text>
              )}
            </Text>
          ))
        )}
      </Box>
      <SuggestionList suggestions={suggestions} selected={state.selected} />
    </Box>
  );
});
