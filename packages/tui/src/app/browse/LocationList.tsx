import { Box, Text } from 'ink';
import { useTheme } from '../../theme/ThemeContext.js';
import type { BrowseLocation } from './browse-document.js';

/** The locations of a tool call to pick one from (1-9, ↑↓ Enter), in the viewport's rows. */
export function LocationList({
  locations,
  focus,
  height,
}: {
  locations: readonly BrowseLocation[];
  focus: number;
  height: number;
}) {
  const theme = useTheme();
  const start = Math.min(
    Math.max(0, focus - Math.floor((height - 1) / 2)),
    Math.max(0, locations.length - (height - 1)),
  );
  return (
    <Box flexDirection="column" height={height}>
      <Text color={theme.text.accent}>Open which file? (1-9, ↑↓ Enter, Esc back)</Text>
      {locations.slice(start, start + height - 1).map((location, i) => {
        const on = start + i === focus;
        return (
          <Text key={start + i} wrap="truncate-end" color={on ? theme.focus : undefined} bold={on}>
            {`${on ? '❯' : ' '} ${start + i < 9 ? start + i + 1 : ' '} ${location.label}${location.outside ? "  (outside the session's directories)" : ''}`}
          </Text>
        );
      })}
    </Box>
  );
}
