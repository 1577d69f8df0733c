import { memo } from 'react';
import { Box, Text } from 'ink';
import type { AvailableCommand } from '@acp-kit/protocol';
import { useTheme } from '../theme/ThemeContext.js';
import { sanitizeInline } from '../sanitize/sanitize-text.js';
import { plural } from '../text/fold.js';
import { AttachmentChips } from './AttachmentChips.js';
import type { ImageAttachment, ImageReader, ImageSupport } from './image-attachment.js';
import { composerPlaceholder, PROMPT_MARK } from './placeholder.js';
import { SuggestionList } from './SuggestionList.js';
import { commandInText } from './suggestions.js';
import { useComposer } from './useComposer.js';

/** Props of {@link Composer}. */
export interface ComposerProps {
  /** Called with the prompt text and the attached images when the user submits them. */
  readonly onSubmit: (text: string, images: readonly ImageAttachment[]) => void;
  /** The agent's commands (`available_commands_update`), for the `/` palette. */
  readonly commands?: readonly AvailableCommand[];
  /** Workspace files (relative paths), for `@` mentions. */
  readonly files?: readonly string[];
  /** Earlier prompts, oldest first. */
  readonly history?: readonly string[];
  /** Prompts submitted during the running turn (or while the session opens) and waiting. */
  readonly queued?: number;
  /** What queued prompts wait for: the running turn to end, or the session to be ready. */
  readonly waitingFor?: 'turn' | 'session';
  /** A turn is running (typing continues; a submitted prompt is queued). */
  readonly busy?: boolean;
  /** Called when the help key is pressed in an empty composer. */
  readonly onHelp?: () => void;
  readonly isActive?: boolean;
  /** Whether the agent accepts images: pasted image paths and Ctrl+V attach images only then. */
  readonly imageSupport?: ImageSupport;
  /** Reads pasted image files and the clipboard's image. */
  readonly images?: ImageReader;
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
 * and input hints, `@` file mentions with fuzzy search, attached images (pasted paths, the
 * clipboard) as chips, and an indicator of queued prompts.
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
  waitingFor = 'turn',
  busy = false,
  onHelp,
  isActive = true,
  imageSupport = 'no',
  images,
}: ComposerProps) {
  const theme = useTheme();
  const { state, suggestions } = useComposer({
    commands,
    files,
    history,
    onSubmit,
    onHelp,
    isActive,
    imageSupport,
    ...(images ? { images } : {}),
  });
  const lines = state.text.split('\n');
  const before = state.text.slice(0, state.cursor).split('\n');
  const cursorLine = before.length - 1;
  const cursorColumn = before[cursorLine]?.length ?? 0;
  const command = commandInText(state.text, commands);
  const showHint = command?.input && state.text.trimEnd() === `/${command.name}`;
  const sentWhen = waitingFor === 'session' ? 'the session is ready' : 'the current turn ends';
  return (
    <Box flexDirection="column">
      {queued > 0 && (
        <Text
          color={theme.status.info}
        >{`⏳ ${plural(queued, 'prompt')} queued · sent when ${sentWhen}`}</Text>
      )}
      <Box
        flexDirection="column"
        borderStyle="round"
        borderColor={isActive ? theme.focus : theme.border}
        paddingX={1}
      >
        {state.attachments.length > 0 && <AttachmentChips attachments={state.attachments} />}
        {state.text === '' ? (
          <Text>
            <Text color={theme.text.accent}>{PROMPT_MARK}</Text>
            <Text inverse> </Text>
            <Text color={theme.text.muted}>
              {composerPlaceholder({ attachments: state.attachments.length, busy })}
            </Text>
          </Text>
        ) : (
          lines.map((line, i) => (
            <Text key={i}>
              <Text color={theme.text.accent}>{i === 0 ? PROMPT_MARK : '  '}</Text>
              <Line text={line} cursor={i === cursorLine ? cursorColumn : undefined} />
              {i === 0 && showHint && (
                <Text color={theme.text.muted}>{sanitizeInline(command.input?.hint ?? '')}</Text>
              )}
            </Text>
          ))
        )}
      </Box>
      {state.notice && (
        <Text color={state.notice.severity === 'warning' ? theme.status.warning : theme.status.info}>
          {sanitizeInline(state.notice.text)}
        </Text>
      )}
      <SuggestionList suggestions={suggestions} selected={state.selected} />
    </Box>
  );
});
