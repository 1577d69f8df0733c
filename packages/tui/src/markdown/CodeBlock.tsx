import { memo, useMemo } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../theme/ThemeContext.js';
import type { Theme } from '../theme/theme.js';
import { expandTabs } from '../text/fold.js';
import type { HighlightedLine, SyntaxRole } from './highlight.js';
import { displayCode, displayUrl } from './text-utils.js';
import { useHighlighter } from './useHighlighter.js';

/** Props of {@link CodeBlock}. */
export interface CodeBlockProps {
  readonly code: string;
  /** The fence's info string (first word is the language). */
  readonly language?: string;
}

function roleColor(theme: Theme, role: SyntaxRole | undefined): string | undefined {
  if (role === undefined) return undefined;
  if (role === 'added') return theme.diff.added;
  if (role === 'removed') return theme.diff.removed;
  return theme.syntax[role];
}

/**
 * A fenced code block: the language as a label, then the code, highlighted once highlight.js has
 * been loaded (it is loaded the first time a block with a language is shown). An unclosed fence
 * during streaming is simply the code received so far.
 */
export const CodeBlock = memo(function CodeBlock({ code, language = '' }: CodeBlockProps) {
  const theme = useTheme();
  const lang = displayUrl(language.trim().split(/\s+/)[0] ?? '');
  const highlighter = useHighlighter(lang !== '');
  const lines = useMemo((): HighlightedLine[] => {
    const safe = displayCode(code)
      .split('\n')
      .map((line) => expandTabs(line, 4))
      .join('\n');
    const highlighted = highlighter && lang !== '' ? highlighter.highlight(safe, lang) : undefined;
    return highlighted ?? safe.split('\n').map((line) => (line === '' ? [] : [{ text: line }]));
  }, [code, lang, highlighter]);
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {lang !== '' && <Text color={theme.text.muted}>{lang}</Text>}
      {lines.map((segments, index) => (
        <Text key={index} color={theme.text.code}>
          {segments.length === 0
            ? ' '
            : segments.map((segment, i) => (
                <Text key={i} color={roleColor(theme, segment.role) ?? theme.text.primary}>
                  {segment.text}
                </Text>
              ))}
        </Text>
      ))}
    </Box>
  );
});
