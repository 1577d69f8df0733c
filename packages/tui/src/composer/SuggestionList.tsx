import { memo } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../theme/ThemeContext.js';
import { sanitizeInline } from '../sanitize/sanitize-text.js';
import type { Suggestions } from './suggestions.js';

/** Props of {@link SuggestionList}. */
export interface SuggestionListProps {
  readonly suggestions: Suggestions;
  readonly selected: number;
}

function Highlighted({
  text,
  positions,
  color,
}: {
  text: string;
  positions: readonly number[];
  color?: string;
}) {
  const marks = new Set(positions);
  return (
    <Text>
      {[...text].map((ch, i) => (
        <Text key={i} color={marks.has(i) ? color : undefined} bold={marks.has(i)}>
          {ch}
        </Text>
      ))}
    </Text>
  );
}

/**
 * The slash-command palette (name, input hint, description) or the file mention list, with the
 * highlighted entry marked and matched characters emphasised.
 */
export const SuggestionList = memo(function SuggestionList({ suggestions, selected }: SuggestionListProps) {
  const theme = useTheme();
  if (suggestions.kind === 'none') return null;
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {suggestions.kind === 'command'
        ? suggestions.items.map(({ command, match }, i) => (
            <Text key={i} inverse={i === selected} wrap="truncate-end">
              {'/'}
              <Highlighted
                text={sanitizeInline(command.name)}
                positions={match.positions}
                color={theme.text.accent}
              />
              {command.input && (
                <Text color={theme.text.muted}>{` <${sanitizeInline(command.input.hint)}>`}</Text>
              )}
              <Text color={theme.text.muted}>{`  ${sanitizeInline(command.description)}`}</Text>
            </Text>
          ))
        : suggestions.items.map((match, i) => (
            <Text key={i} inverse={i === selected} wrap="truncate-end">
              {'@'}
              <Highlighted
                text={sanitizeInline(match.value)}
                positions={match.positions}
                color={theme.text.accent}
              />
            </Text>
          ))}
    </Box>
  );
});
