import { memo } from 'react';
import { Box, Text } from 'ink';
import type { Token } from 'marked';
import { useTheme } from '../theme/ThemeContext.js';
import { CodeBlock } from './CodeBlock.js';
import { renderInline } from './MarkdownInline.js';
import { MarkdownList } from './MarkdownList.js';
import { MarkdownTable } from './MarkdownTable.js';
import { asKnownToken, displayText } from './text-utils.js';
import { useMarkdownTone } from './tone.js';

/** Props of {@link MarkdownBlock}. */
export interface MarkdownBlockProps {
  readonly token: Token;
  /** List nesting level. */
  readonly depth?: number;
}

/** One top-level Markdown block. Memoised on the token object, which stays the same once final. */
export const MarkdownBlock = memo(function MarkdownBlock({ token: raw, depth = 0 }: MarkdownBlockProps) {
  const theme = useTheme();
  const muted = useMarkdownTone() === 'muted';
  const color = muted ? theme.text.thought : undefined;
  const token = asKnownToken(raw);
  if (!token) return <Text>{displayText(raw.raw)}</Text>;
  switch (token.type) {
    case 'heading':
      return (
        <Text
          bold
          italic={muted}
          underline={token.depth === 1}
          color={color ?? (token.depth <= 2 ? theme.text.heading : undefined)}
        >
          {renderInline(token.tokens, theme)}
        </Text>
      );
    case 'paragraph':
      return (
        <Text color={color} italic={muted}>
          {renderInline(token.tokens, theme)}
        </Text>
      );
    case 'text':
      return (
        <Text color={color} italic={muted}>
          {token.tokens ? renderInline(token.tokens, theme) : displayText(token.text)}
        </Text>
      );
    case 'code':
      return <CodeBlock code={token.text} language={token.codeBlockStyle === 'indented' ? '' : token.lang} />;
    case 'list':
      return <MarkdownList token={token} depth={depth} />;
    case 'blockquote':
      return (
        <Box
          borderStyle="bold"
          borderTop={false}
          borderRight={false}
          borderBottom={false}
          borderColor={theme.border}
          paddingLeft={1}
          flexDirection="column"
        >
          <MarkdownBlocks tokens={token.tokens} depth={depth} spaced />
        </Box>
      );
    case 'table':
      return <MarkdownTable token={token} />;
    case 'hr':
      return (
        <Box
          borderStyle="single"
          borderTop
          borderBottom={false}
          borderLeft={false}
          borderRight={false}
          borderColor={theme.border}
          flexGrow={1}
        />
      );
    case 'html':
      return <Text color={theme.text.muted}>{displayText(token.text.replace(/\n+$/, ''))}</Text>;
    case 'space':
    case 'def':
      return null;
    default:
      return <Text>{displayText(token.raw)}</Text>;
  }
});

/** Props of {@link MarkdownBlocks}. */
export interface MarkdownBlocksProps {
  readonly tokens: readonly Token[];
  readonly depth?: number;
  /** A blank line between blocks (top level, loose list items, quotes). */
  readonly spaced?: boolean;
}

/** A sequence of blocks. */
export function MarkdownBlocks({ tokens, depth = 0, spaced = false }: MarkdownBlocksProps) {
  const visible = tokens.filter((t) => t.type !== 'space' && t.type !== 'def');
  return (
    <Box flexDirection="column">
      {visible.map((token, i) => (
        <Box key={i} marginTop={spaced && i > 0 ? 1 : 0} flexDirection="column">
          <MarkdownBlock token={token} depth={depth} />
        </Box>
      ))}
    </Box>
  );
}
