import { memo } from 'react';
import { Box, Text } from 'ink';

/** Props of {@link StyledLines}. */
export interface StyledLinesProps {
  /** Lines already laid out at the available width, styled with SGR sequences only. */
  readonly lines: readonly string[];
}

/**
 * Draws lines laid out beforehand (Markdown, see `markdown-lines.ts`) as one Ink text: one node
 * for Yoga to lay out and Ink to measure, however many lines (a text per line cost each frame of
 * a streamed answer a node per line of its live region). Ink's frames reuse the text of a row that
 * did not change (scripts/ink-frame-patch.ts).
 */
export const StyledLines = memo(function StyledLines({ lines }: StyledLinesProps) {
  // Never squeezed: in a box of fewer rows (`ClipRows`) its first rows show and the rest is cut,
  // where shrinking would lay its lines over one another.
  const text = lines.join('\n');
  return (
    <Box flexDirection="column" flexShrink={0}>
      {/* A text of one blank line would take no row: it is a space. */}
      {lines.length > 0 && <Text>{text === '' ? ' ' : text}</Text>}
    </Box>
  );
});
