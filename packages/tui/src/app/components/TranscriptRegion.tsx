import { memo } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../../theme/ThemeContext.js';
import { TranscriptItemView } from '../../components/TranscriptItemView.js';
import { ToolCallCard } from '../../components/ToolCallCard.js';
import { messageText } from '../../components/message-segments.js';
import { sanitizeInline, sanitizeText } from '../../sanitize/sanitize-text.js';
import { plural, splitLines } from '../../text/fold.js';
import { displayWidth } from '../../text/width.js';
import { countRender } from '../services/metrics.js';
import type { TranscriptUnit } from '../view/transcript-projector.js';

/** Rows a text takes at `width` columns (an estimate: Markdown adds a little). */
export function estimateRows(text: string, width: number): number {
  const columns = Math.max(10, width);
  let rows = 0;
  for (const line of splitLines(text)) rows += Math.max(1, Math.ceil(displayWidth(line) / columns));
  return rows;
}

/**
 * Whether live units show a spinner (a running tool call or terminal, a thought being written):
 * the clock ticks at the spinner's rate only then.
 */
export function liveSpins(live: readonly TranscriptUnit[]): boolean {
  return live.some(({ item, terminals }) => {
    if (item.type === 'tool_call' && item.call.status === 'in_progress') return true;
    if (item.type === 'message' && item.message.role === 'thought' && item.message.streaming) return true;
    for (const terminal of terminals?.values() ?? []) if (!terminal.exit && !terminal.released) return true;
    return false;
  });
}

/** Rows of a tool card besides its content: title, a location, the fold line, the margin. */
const CARD_OVERHEAD = 4;
/** Rows a tool card takes at the least (two lines of content). */
const MIN_CARD_ROWS = 2 + CARD_OVERHEAD;
/** Rows of the line summing up cards that do not fit (with its margin). */
const FOLDED_ROWS = 2;

/** Props of {@link LiveTranscript}. */
export interface LiveTranscriptProps {
  readonly live: readonly TranscriptUnit[];
  /** Rows the live units may take (so the whole frame stays shorter than the screen). */
  readonly budget: number;
  readonly columns: number;
  readonly cwd?: string;
  readonly showThoughts: boolean;
}

/** A streamed text too tall for the live region: its last rows, the rest printed once complete. */
function TailView({ text, rows, columns }: { text: string; rows: number; columns: number }) {
  const theme = useTheme();
  const lines = splitLines(sanitizeText(text));
  const shown: string[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0 && used < rows; i--) {
    const line = lines[i] as string;
    used += Math.max(1, Math.ceil(displayWidth(line) / Math.max(10, columns)));
    shown.unshift(line);
  }
  return (
    <Box flexDirection="column">
      <Text
        color={theme.text.muted}
      >{`… ${plural(lines.length - shown.length, 'line')} above, shown in full when the block is complete`}</Text>
      {shown.map((line, i) => (
        <Text key={i}>{line}</Text>
      ))}
    </Box>
  );
}

/**
 * The live part of the transcript: the message being streamed, running tool calls and whatever
 * follows them. Each tool card gets its own terminals and a share of the rows; a streamed block
 * taller than its share shows its last rows.
 */
export const LiveTranscript = memo(function LiveTranscript({
  live,
  budget,
  columns,
  cwd,
  showThoughts,
}: LiveTranscriptProps) {
  countRender('LiveTranscript');
  const theme = useTheme();
  const cardUnits = live.filter((unit) => unit.item.type === 'tool_call');
  const others = live.length - cardUnits.length;
  // More cards than fit (an agent running many tools at once): the oldest are summed up in one
  // line, and drawn in full when they are printed. Past the screen's height Ink would clear the
  // whole screen, scrollback included.
  const room = Math.max(1, Math.floor((budget - others * 4 - FOLDED_ROWS) / MIN_CARD_ROWS));
  const folded = cardUnits.length > room ? cardUnits.slice(0, cardUnits.length - room) : [];
  const hidden = new Set(folded.map((unit) => unit.key));
  const cards = cardUnits.length - folded.length;
  const rest = budget - others * 3 - (folded.length > 0 ? FOLDED_ROWS : 0);
  const perCard = Math.max(2, Math.min(12, Math.floor(rest / Math.max(1, cards)) - CARD_OVERHEAD));
  return (
    <Box flexDirection="column">
      {folded.length > 0 && (
        <Box marginBottom={1}>
          <Text color={theme.text.muted} wrap="truncate-end">
            {`⋯ ${plural(folded.length, 'more tool call')} in progress: ${folded
              .map((unit) => (unit.item.type === 'tool_call' ? sanitizeInline(unit.item.call.title) : ''))
              .join(' · ')}`}
          </Text>
        </Box>
      )}
      {live.map((unit) => {
        if (hidden.has(unit.key)) return null;
        const item = unit.item;
        let body;
        if (item.type === 'tool_call') {
          body = (
            <ToolCallCard call={item.call} terminals={unit.terminals} cwd={cwd} maxContentLines={perCard} />
          );
        } else if (item.type === 'message' && item.message.role !== 'user') {
          const text = messageText(item.message.content);
          const share = Math.max(3, budget - cards * (perCard + CARD_OVERHEAD));
          const tooTall =
            (item.message.role === 'agent' || showThoughts) && estimateRows(text, columns - 2) > share;
          body = tooTall ? (
            <TailView text={text} rows={share - 1} columns={columns - 2} />
          ) : (
            <TranscriptItemView item={item} cwd={cwd} showThoughts={showThoughts} />
          );
        } else {
          body = (
            <TranscriptItemView
              item={item}
              terminals={unit.terminals}
              cwd={cwd}
              showThoughts={showThoughts}
            />
          );
        }
        return (
          <Box key={unit.key} flexDirection="column" marginBottom={1}>
            {body}
          </Box>
        );
      })}
    </Box>
  );
});
