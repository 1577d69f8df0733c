import { memo } from 'react';
import { Box, Text } from 'ink';
import { ClipRows } from '../../components/ClipRows.js';
import { StyledLines } from '../../components/StyledLines.js';
import { TranscriptItemView } from '../../components/TranscriptItemView.js';
import { messageText } from '../../components/message-segments.js';
import { wantsHighlighter } from '../../markdown/markdown-lines.js';
import { useHighlighter } from '../../markdown/useHighlighter.js';
import { sanitizeInline, sanitizeText } from '../../sanitize/sanitize-text.js';
import { useTheme } from '../../theme/ThemeContext.js';
import { plural, splitLines } from '../../text/fold.js';
import { displayWidth } from '../../text/width.js';
import { countRender } from '../services/metrics.js';
import { fitLive } from '../view/live-fit.js';
import type { TranscriptUnit } from '../view/transcript-projector.js';
import { displayStatus, terminalRuns } from '../../view-model/tool-call.js';

/**
 * Whether live units show a spinner (a running tool call or terminal, a thought being written):
 * the clock ticks at the spinner's rate only then.
 */
export function liveSpins(live: readonly TranscriptUnit[]): boolean {
  return live.some(({ item, streaming, terminals }) => {
    if (item.kind === 'message' && item.role === 'thought' && streaming) return true;
    if (item.kind !== 'tool_call') return false;
    const status = displayStatus(item);
    if (status === 'in_progress') return true;
    for (const terminal of terminals?.values() ?? []) if (terminalRuns(terminal, status)) return true;
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

/** The line saying how much of a block being written is above what is shown. */
function Above({ lines }: { lines: number }) {
  const theme = useTheme();
  return (
    <Text color={theme.text.muted}>
      {`… ${plural(lines, 'line')} above, shown in full when the block is complete`}
    </Text>
  );
}

/** A message too tall for the live region (not laid out beforehand): its last rows. */
function TailView({ text, rows, columns }: { text: string; rows: number; columns: number }) {
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
      <Above lines={lines.length - shown.length} />
      {shown.map((line, i) => (
        <Text key={i}>{line}</Text>
      ))}
    </Box>
  );
}

/**
 * The live part of the transcript: the end of the message being streamed, running tool calls and
 * whatever follows them, fitted into `budget` rows by the projector's `fitLive`.
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
  const highlighter = useHighlighter(
    live.some((unit) => unit.part?.kind === 'markdown' && wantsHighlighter(unit.part.blocks)),
  );
  const { folded, entries } = fitLive(live, budget, { width: columns, theme, highlighter }, showThoughts);
  return (
    <Box flexDirection="column">
      {folded.length > 0 && (
        <Box marginBottom={1}>
          <Text color={theme.text.muted} wrap="truncate-end">
            {`⋯ ${plural(folded.length, 'more tool call')} in progress: ${folded
              .map((unit) => (unit.item.kind === 'tool_call' ? sanitizeInline(unit.item.title) : ''))
              .join(' · ')}`}
          </Text>
        </Box>
      )}
      {entries.map((entry) => {
        const { unit } = entry;
        let body;
        if (entry.lines) {
          body = (
            <>
              {entry.linesAbove ? <Above lines={entry.linesAbove} /> : null}
              <StyledLines lines={entry.lines} />
            </>
          );
        } else if (entry.tailRows !== undefined && unit.item.kind === 'message') {
          body = (
            <TailView text={messageText(unit.item.content)} rows={entry.tailRows} columns={columns - 2} />
          );
        } else if (entry.maxContentLines !== undefined && unit.item.kind === 'tool_call') {
          body = <TranscriptItemView unit={unit} cwd={cwd} maxContentLines={entry.maxContentLines} />;
        } else if (entry.clipRows !== undefined) {
          // Taller than its rows (a long notice): its first rows; it is printed in full once settled.
          body = (
            <ClipRows rows={entry.clipRows}>
              <TranscriptItemView unit={unit} cwd={cwd} showThoughts={showThoughts} />
            </ClipRows>
          );
        } else {
          body = <TranscriptItemView unit={unit} cwd={cwd} showThoughts={showThoughts} />;
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
