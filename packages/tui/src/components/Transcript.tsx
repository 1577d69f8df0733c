import { memo } from 'react';
import { Box, Static } from 'ink';
import type { TerminalSnapshot } from '../view-model/tool-call.js';
import type { TranscriptItem } from '../view-model/transcript.js';
import { TranscriptItemView } from './TranscriptItemView.js';

/** Props of {@link Transcript}. */
export interface TranscriptProps {
  /**
   * Items that will not change any more, oldest first. The array may only grow: each item is
   * written once above the live region (Ink `<Static>`) and never rendered again.
   */
  readonly completed: readonly TranscriptItem[];
  /** Items still changing (the streaming message, running tool calls), rendered every frame. */
  readonly live: readonly TranscriptItem[];
  readonly terminals?: ReadonlyMap<string, TerminalSnapshot>;
  readonly cwd?: string;
  readonly showThoughts?: boolean;
  readonly expanded?: boolean;
}

/**
 * The conversation: completed items go to Ink's `<Static>` output (rendered once, scrolled by the
 * terminal), live items below it. Keeping the live region short is what keeps long sessions fast.
 */
export const Transcript = memo(function Transcript({
  completed,
  live,
  terminals,
  cwd,
  showThoughts,
  expanded,
}: TranscriptProps) {
  return (
    <>
      <Static items={completed as TranscriptItem[]}>
        {(item) => (
          <Box key={item.id} marginBottom={1} flexDirection="column">
            <TranscriptItemView item={item} terminals={terminals} cwd={cwd} showThoughts={showThoughts} />
          </Box>
        )}
      </Static>
      <Box flexDirection="column">
        {live.map((item) => (
          <Box key={item.id} marginBottom={1} flexDirection="column">
            <TranscriptItemView
              item={item}
              terminals={terminals}
              cwd={cwd}
              showThoughts={showThoughts}
              expanded={expanded}
            />
          </Box>
        ))}
      </Box>
    </>
  );
});
