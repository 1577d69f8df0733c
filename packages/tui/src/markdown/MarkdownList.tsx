import { Box, Text } from 'ink';
import type { Token, Tokens } from 'marked';
import { useTheme } from '../theme/ThemeContext.js';
import { MarkdownBlocks } from './MarkdownBlock.js';

const BULLETS = ['•', '◦', '▪'] as const;

/** Props of {@link MarkdownList}. */
export interface MarkdownListProps {
  readonly token: Tokens.List;
  /** Nesting level, for the bullet style. */
  readonly depth: number;
}

/** An ordered or unordered list; items may hold paragraphs, code and nested lists. */
export function MarkdownList({ token, depth }: MarkdownListProps) {
  const theme = useTheme();
  const start = typeof token.start === 'number' ? token.start : 1;
  const markers = token.items.map((_, i) =>
    token.ordered ? `${start + i}.` : (BULLETS[depth % BULLETS.length] ?? '•'),
  );
  const markerWidth = Math.max(...markers.map((m) => m.length), 1) + 1;
  return (
    <Box flexDirection="column">
      {token.items.map((item, i) => {
        const children: Token[] = item.tokens.filter((t) => t.type !== 'checkbox');
        const box = item.task ? (item.checked ? '☑ ' : '☐ ') : '';
        return (
          <Box key={i} flexDirection="row" marginTop={token.loose && i > 0 ? 1 : 0}>
            <Box width={markerWidth} flexShrink={0}>
              <Text color={theme.text.accent}>{markers[i]}</Text>
            </Box>
            {box !== '' && <Text color={item.checked ? theme.status.success : theme.text.muted}>{box}</Text>}
            <Box flexDirection="column" flexGrow={1} flexShrink={1}>
              <MarkdownBlocks tokens={children} depth={depth + 1} spaced={item.loose} />
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}
