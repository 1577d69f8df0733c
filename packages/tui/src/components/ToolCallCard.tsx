import { memo } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../theme/ThemeContext.js';
import { useKeyBindings } from '../keys/KeyBindingsContext.js';
import { commandParts } from '../view-model/command-output.js';
import {
  cardTitle,
  FOLDED_CARD_TEXT_ROWS,
  type TerminalSnapshot,
  type ToolCallView,
} from '../view-model/tool-call.js';
import { cardHeadLines, cardPreambleLines, expandHint, stopHintLines } from './lines/card-lines.js';
import { Spinner } from './Spinner.js';
import { StyledLines } from './StyledLines.js';
import { toolKindIcon } from './tool-icons.js';
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
  const bindings = useKeyBindings();
  const width = useAvailableWidth();
  const layout = { width, theme, bindings, cwd, expanded };
  const { command, output, content } = commandParts(call, terminals);
  const maxLines = expanded ? undefined : maxContentLines;
  const hint = expandHint(layout);
  // What is not a spinner, a diff or a terminal is drawn from the lines printing uses (card-lines.ts).
  return (
    <Box flexDirection="column">
      {call.status === 'in_progress' ? (
        <RunningHead call={call} width={width} expanded={expanded} />
      ) : (
        <StyledLines lines={cardHeadLines(call, layout)} />
      )}
      <Box flexDirection="column" paddingLeft={4}>
        <StyledLines lines={cardPreambleLines(call, command, layout)} />
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
        <StyledLines lines={stopHintLines(call, layout)} />
      </Box>
    </Box>
  );
});

/** A running call's first row: its spinner (drawn alone at each tick), kind icon and title. */
function RunningHead({ call, width, expanded }: { call: ToolCallView; width: number; expanded: boolean }) {
  const theme = useTheme();
  const title = cardTitle(call);
  return (
    <Box flexDirection="row" gap={1}>
      <Spinner color={theme.status.info} />
      <Text color={theme.text.accent}>{toolKindIcon(call.kind)}</Text>
      <ClipRows rows={expanded ? undefined : FOLDED_CARD_TEXT_ROWS} text={title} width={width - 6}>
        <Text bold>
          <InlineCode text={title} />
        </Text>
      </ClipRows>
    </Box>
  );
}
