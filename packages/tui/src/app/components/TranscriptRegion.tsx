import { memo } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../../theme/ThemeContext.js';
import { TranscriptItemView } from '../../components/TranscriptItemView.js';
import { ToolCallCard } from '../../components/ToolCallCard.js';
import { messageText } from '../../components/message-segments.js';
import { sanitizeText } from '../../sanitize/sanitize-text.js';
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
  const cards = live.filter((unit) => unit.item.type === 'tool_call').length;
  const others = live.length - cards;
  const perCard = Math.max(2, Math.min(12, Math.floor((budget - others * 3) / Math.max(1, cards)) - 3));
  return (
    <Box flexDirection="column">
      {live.map((unit) => {
        const item = unit.item;
        let body;
        if (item.type === 'tool_call') {
          body = (
            <ToolCallCard call={item.call} terminals={unit.terminals} cwd={cwd} maxContentLines={perCard} />
          );
        } else if (item.type === 'message' && item.message.role !== 'user') {
          const text = messageText(item.message.content);
          const share = Math.max(3, budget - cards * (perCard + 3));
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
