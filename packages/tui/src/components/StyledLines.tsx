import { memo } from 'react';
import { Box, Text } from 'ink';

/** One styled line; a blank one keeps its row. */
const Line = memo(function Line({ text }: { readonly text: string }) {
  return <Text>{text === '' ? ' ' : text}</Text>;
});

/** Props of {@link StyledLines}. */
export interface StyledLinesProps {
  /** Lines already laid out at the available width, styled with SGR sequences only. */
  readonly lines: readonly string[];
}

/**
 * Draws lines laid out beforehand (Markdown, see `markdown-lines.ts`): one Ink text per line, so a
 * line that did not change is neither measured nor drawn into text again.
 */
export const StyledLines = memo(function StyledLines({ lines }: StyledLinesProps) {
  // Never squeezed: in a box of fewer rows (`ClipRows`) its first rows show and the rest is cut,
  // where shrinking would lay its lines over one another.
  return (
    <Box flexDirection="column" flexShrink={0}>
      {lines.map((line, i) => (
        <Line key={i} text={line} />
      ))}
    </Box>
  );
});
