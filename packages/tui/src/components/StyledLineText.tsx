import { memo } from 'react';
import { Text } from 'ink';
import { inkColor } from '../sanitize/sgr.js';
import type { StyledLine } from '../sanitize/terminal-output.js';
import { useTheme } from '../theme/ThemeContext.js';

/** Props of {@link StyledLineText}. */
export interface StyledLineTextProps {
  readonly line: StyledLine;
}

/** One line of parsed terminal output, its SGR styles mapped to Ink text props. */
export const StyledLineText = memo(function StyledLineText({ line }: StyledLineTextProps) {
  // Without colours (NO_COLOR) the output's own colours go too; its bold, underline… stay.
  const { colors } = useTheme();
  if (line.length === 0) return <Text> </Text>;
  return (
    <Text>
      {line.map((span, i) => (
        <Text
          key={i}
          color={colors && span.style.fg ? inkColor(span.style.fg) : undefined}
          backgroundColor={colors && span.style.bg ? inkColor(span.style.bg) : undefined}
          bold={span.style.bold}
          dimColor={span.style.dim}
          italic={span.style.italic}
          underline={span.style.underline}
          inverse={span.style.inverse}
          strikethrough={span.style.strikethrough}
        >
          {span.text}
        </Text>
      ))}
    </Text>
  );
});
