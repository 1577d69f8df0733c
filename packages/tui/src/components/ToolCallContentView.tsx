import { memo } from 'react';
import { Box, Text } from 'ink';
import type { ToolCallContent } from '@acp-kit/client';
import { isUnknownVariant } from '@acp-kit/protocol';
import { useTheme } from '../theme/ThemeContext.js';
import { sanitizeInline } from '../sanitize/sanitize-text.js';
import { foldLines, plural, splitLines } from '../text/fold.js';
import type { DiffPlacementView, TerminalSnapshot, ToolCallDisplayStatus } from '../view-model/tool-call.js';
import { ContentBlockView } from './ContentBlockView.js';
import { DiffView } from './DiffView.js';
import { FileChangeView } from './FileChangeView.js';
import { TerminalView } from './TerminalView.js';

/** Props of {@link ToolCallContentView}. */
export interface ToolCallContentViewProps {
  readonly item: ToolCallContent;
  readonly terminals?: ReadonlyMap<string, TerminalSnapshot>;
  /** Working directory, to show diff paths relative to it. */
  readonly cwd?: string;
  /** Fold long text, diffs and terminal output to this many lines; undefined shows all. */
  readonly maxLines?: number;
  readonly expandHint?: string;
  /** Where a diff item is in its file (see {@link DiffView}). */
  readonly placement?: DiffPlacementView | null;
  /** The status of the tool call (see {@link TerminalView}). */
  readonly callStatus?: ToolCallDisplayStatus;
}

/** One item of a tool call's content: text, a diff, or an embedded terminal. */
export const ToolCallContentView = memo(function ToolCallContentView({
  item,
  terminals,
  cwd,
  maxLines,
  expandHint = '',
  placement,
  callStatus,
}: ToolCallContentViewProps) {
  const theme = useTheme();
  if (isUnknownVariant(item)) {
    return (
      <Text
        color={theme.text.muted}
      >{`unsupported tool content (${sanitizeInline(String(item.type))})`}</Text>
    );
  }
  switch (item.type) {
    case 'diff':
      return (
        <DiffView
          path={item.path}
          cwd={cwd}
          oldText={item.oldText}
          newText={item.newText}
          maxLines={maxLines}
          expandHint={expandHint}
          placement={placement}
        />
      );
    case 'file_change':
      // A v2 diff: the operation on the file, and its section of the git patch when sent.
      return <FileChangeView change={item} cwd={cwd} maxLines={maxLines} expandHint={expandHint} />;
    case 'terminal': {
      const terminal = terminals?.get(item.terminalId);
      if (!terminal) {
        return (
          <Text color={theme.text.muted}>{`terminal ${sanitizeInline(item.terminalId)}: no output yet`}</Text>
        );
      }
      return (
        <TerminalView
          terminal={terminal}
          maxLines={maxLines}
          expandHint={expandHint}
          callStatus={callStatus}
        />
      );
    }
    case 'content': {
      const block = item.content;
      if (isUnknownVariant(block) || block.type !== 'text') return <ContentBlockView block={block} />;
      const { shown, hidden } = foldLines(splitLines(block.text), maxLines, 'head');
      return (
        <Box flexDirection="column">
          <ContentBlockView block={hidden > 0 ? { ...block, text: shown.join('\n') } : block} />
          {hidden > 0 && (
            <Text color={theme.text.muted}>{`… ${plural(hidden, 'more line')}${expandHint}`}</Text>
          )}
        </Box>
      );
    }
  }
});
