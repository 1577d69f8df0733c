import { memo, useMemo } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../theme/ThemeContext.js';
import { useKeyBindings, useKeyLabel } from '../keys/KeyBindingsContext.js';
import { MarkdownView } from '../markdown/MarkdownView.js';
import { MarkdownToneContext } from '../markdown/tone.js';
import { sanitizeInline, sanitizeText } from '../sanitize/sanitize-text.js';
import { plural, splitLines } from '../text/fold.js';
import type { MessageItem } from '@acp-kit/client';
import { AvailableWidth, useAvailableWidth } from './AvailableWidth.js';
import { ContentBlockView } from './ContentBlockView.js';
import { messageSegments, messageText } from './message-segments.js';
import { messageLines } from './lines/message-lines.js';
import { Spinner } from './Spinner.js';
import { StyledLines } from './StyledLines.js';

/** Props of {@link MessageView}. */
export interface MessageViewProps {
  /** The engine's message item (or anything with its role and content). */
  readonly message: Pick<MessageItem, 'role' | 'content'>;
  /** Chunks are still arriving (a thought shows a spinner). */
  readonly streaming?: boolean;
  /** Thoughts only: show a one-line summary instead of the whole text. Default true. */
  readonly collapsed?: boolean;
}

function ThoughtView({
  message,
  streaming,
  collapsed,
}: {
  message: Pick<MessageItem, 'content'>;
  streaming: boolean;
  collapsed: boolean;
}) {
  const theme = useTheme();
  const toggleKey = useKeyLabel('app.toggleThoughts');
  const text = messageText(message.content);
  const lines = splitLines(sanitizeText(text)).filter((l) => l.trim() !== '');
  const header = (
    <Text color={theme.text.thought}>
      {streaming ? <Spinner color={theme.text.thought} /> : '∴'}
      <Text italic>{streaming ? ' Thinking…' : ' Thought'}</Text>
      {collapsed && lines.length > 0 && (
        <Text>{` · ${plural(lines.length, 'line')}${toggleKey ? ` · ${toggleKey} to show` : ''}`}</Text>
      )}
    </Text>
  );
  if (collapsed) {
    return (
      <Box flexDirection="column">
        {header}
        {lines[0] !== undefined && (
          <Text color={theme.text.thought} italic wrap="truncate-end">
            {`  ${sanitizeInline(lines[0].replace(/[*_`#]/g, '').trim())}`}
          </Text>
        )}
      </Box>
    );
  }
  return (
    <Box flexDirection="column">
      {header}
      <Box paddingLeft={2}>
        <AvailableWidth indent={2}>
          <MarkdownToneContext.Provider value="muted">
            <MarkdownView text={text} />
          </MarkdownToneContext.Provider>
        </AvailableWidth>
      </Box>
    </Box>
  );
}

/**
 * A transcript message. User messages show what was typed (verbatim) with mentions and
 * attachments; agent messages render as Markdown; thoughts are a collapsible muted block. Images,
 * audio and resources are labelled attachments, annotations subtle badges. (How a turn ended is
 * the transcript's `stop` item, a notice of its own.)
 *
 * @example
 * <MessageView message={{ role: 'agent', content: [{ type: 'text', text: '**Done**' }] }} />
 */
export const MessageView = memo(function MessageView({
  message,
  streaming = false,
  collapsed = true,
}: MessageViewProps) {
  const theme = useTheme();
  const bindings = useKeyBindings();
  const width = useAvailableWidth();
  const segments = useMemo(() => messageSegments(message.content), [message.content]);
  if (message.role === 'thought')
    return <ThoughtView message={message} streaming={streaming} collapsed={collapsed} />;
  const user = message.role === 'user';
  // What the user sent is drawn from the lines printing uses (message-lines.ts); an agent's text
  // here may still grow, and its Markdown is laid out again only where it changed (MarkdownView).
  const lines = user ? messageLines(true, message.content, { width, theme, bindings }) : undefined;
  if (lines) return <StyledLines lines={lines} />;
  return (
    <Box flexDirection="column">
      <Box flexDirection="row">
        {user && <Text color={theme.text.user}>{'› '}</Text>}
        <Box flexDirection="column" flexGrow={1} flexShrink={1}>
          {segments.map((segment, i) =>
            segment.kind === 'text' ? (
              user ? (
                <Text key={i} color={theme.text.user}>
                  {sanitizeText(segment.text)}
                </Text>
              ) : (
                <MarkdownView key={i} text={segment.text} />
              )
            ) : (
              <ContentBlockView key={i} block={segment.block} markdown={!user} />
            ),
          )}
        </Box>
      </Box>
    </Box>
  );
});
