import { memo } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../theme/ThemeContext.js';
import { useKeyLabel } from '../keys/KeyBindingsContext.js';
import { sanitizeInline } from '../sanitize/sanitize-text.js';
import { foldLines, plural } from '../text/fold.js';
import { displayPath } from '../text/paths.js';
import { commandParts } from '../view-model/command-output.js';
import {
  cardLocations,
  cardTitle,
  FOLDED_CARD_TEXT_ROWS,
  type TerminalSnapshot,
  type ToolCallView,
} from '../view-model/tool-call.js';
import { Spinner } from './Spinner.js';
import { STATUS_ICONS, statusLabel, toolKindIcon } from './tool-icons.js';
import { ToolCallContentView } from './ToolCallContentView.js';
import { RawOutputView } from './RawOutputView.js';
import { AvailableWidth, useAvailableWidth } from './AvailableWidth.js';
import { ClipRows } from './ClipRows.js';
import { InlineCode } from './InlineCode.js';

/** Props of {@link ToolCallCard}. */
export interface ToolCallCardProps {
  readonly call: ToolCallView;
  /** Terminals by id, for `terminal` content. */
  readonly terminals?: ReadonlyMap<string, TerminalSnapshot>;
  /** Show long content in full. */
  readonly expanded?: boolean;
  /** Lines of each content item shown when folded. */
  readonly maxContentLines?: number;
  /** Working directory, to show locations relative to it. */
  readonly cwd?: string;
}

/**
 * A tool call: status (spinner while running), kind icon and title, the locations it touches,
 * and its content — text, diffs and terminals — folded to a few lines unless `expanded`.
 *
 * @example
 * <ToolCallCard call={call} terminals={terminals} cwd={session.cwd} />
 */
export const ToolCallCard = memo(function ToolCallCard({
  call,
  terminals,
  expanded = false,
  maxContentLines = 12,
  cwd,
}: ToolCallCardProps) {
  const theme = useTheme();
  const expandKey = useKeyLabel('app.toggleExpand');
  const stopKey = useKeyLabel('app.cancelCall');
  const statusColor =
    call.status === 'completed'
      ? theme.status.success
      : call.status === 'failed'
        ? theme.status.error
        : call.status === 'cancelled'
          ? theme.status.warning
          : theme.status.pending;
  const label = statusLabel(call.status);
  const title = cardTitle(call);
  const locations = foldLines(cardLocations(call, cwd), expanded ? undefined : 3, 'head');
  const { command, output, content } = commandParts(call, terminals);
  const maxLines = expanded ? undefined : maxContentLines;
  const hint = expandKey ? ` · ${expandKey} to expand` : '';
  const width = useAvailableWidth();
  const textRows = expanded ? undefined : FOLDED_CARD_TEXT_ROWS;
  const shownCommand = command === undefined ? undefined : sanitizeInline(command);
  return (
    <Box flexDirection="column">
      <Box flexDirection="row" gap={1}>
        {call.status === 'in_progress' ? (
          <Spinner color={theme.status.info} />
        ) : (
          <Text color={statusColor}>{STATUS_ICONS[call.status] ?? '?'}</Text>
        )}
        <Text color={theme.text.accent}>{toolKindIcon(call.kind)}</Text>
        <ClipRows rows={textRows} text={`${title} · ${label}`} width={width - 6}>
          <Text>
            <Text bold>
              <InlineCode text={title} />
            </Text>
            {label && <Text color={statusColor}>{` · ${label}`}</Text>}
          </Text>
        </ClipRows>
      </Box>
      <Box flexDirection="column" paddingLeft={4}>
        {locations.shown.map((location, i) => (
          <Text key={i} color={theme.text.muted}>
            {displayPath(location.path, cwd, location.line)}
          </Text>
        ))}
        {locations.hidden > 0 && (
          <Text color={theme.text.muted}>{`… ${plural(locations.hidden, 'more location')}`}</Text>
        )}
        {shownCommand !== undefined && (
          <ClipRows rows={textRows} text={`$ ${shownCommand}`} width={width - 4}>
            <Text>
              <Text color={theme.text.accent}>$ </Text>
              <Text bold>{shownCommand}</Text>
            </Text>
          </ClipRows>
        )}
        <AvailableWidth indent={4}>
          {content.map(({ item, index }) => (
            <ToolCallContentView
              key={index}
              item={item}
              terminals={terminals}
              cwd={cwd}
              maxLines={maxLines}
              expandHint={hint}
              placement={call.diffPlacements?.[index]}
              callStatus={call.status}
            />
          ))}
        </AvailableWidth>
        {output && <RawOutputView output={output} maxLines={maxLines} expandHint={hint} />}
        {call.cancellable && stopKey && (
          <Text color={theme.text.muted}>{`${stopKey} stops this call (the turn goes on)`}</Text>
        )}
      </Box>
    </Box>
  );
});
