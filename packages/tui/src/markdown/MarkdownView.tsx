import { memo, useMemo, useRef } from 'react';
import type { Token } from 'marked';
import { useAvailableWidth } from '../components/AvailableWidth.js';
import { StyledLines } from '../components/StyledLines.js';
import { useTheme } from '../theme/ThemeContext.js';
import { IncrementalMarkdown } from './markdown-stream.js';
import { markdownLines, wantsHighlighter } from './markdown-lines.js';
import { useMarkdownTone } from './tone.js';
import { useHighlighter } from './useHighlighter.js';

/** Props of {@link MarkdownView}. */
export interface MarkdownViewProps {
  /** The Markdown source (agent-controlled: it is sanitized here). May grow between renders. */
  readonly text: string;
  /** Columns available (default: the nearest `AvailableWidth`, else the terminal's width). */
  readonly width?: number;
}

/**
 * Renders Markdown with Ink: headings, paragraphs, emphasis, code spans and fenced code with
 * highlighting, nested lists, quotes, tables, links (label and URL) and rules, laid out as lines
 * (`markdown-lines.ts`). While `text` grows (streaming), only the last block is lexed and laid out again.
 *
 * @example
 * <MarkdownView text={message.text} />
 */
export const MarkdownView = memo(function MarkdownView({ text, width }: MarkdownViewProps) {
  const markdown = useRef<IncrementalMarkdown | null>(null);
  markdown.current ??= new IncrementalMarkdown();
  const incremental = markdown.current;
  const tokens = useMemo(() => incremental.update(text), [incremental, text]);
  const available = useAvailableWidth();
  const theme = useTheme();
  const tone = useMarkdownTone();
  const highlighter = useHighlighter(wantsHighlighter(tokens));
  const lines = markdownLines(tokens, { width: width ?? available, theme, tone, highlighter });
  return <StyledLines lines={lines} />;
});

/** Props of {@link MarkdownBlocks}. */
export interface MarkdownBlocksProps {
  /** Top-level blocks, already lexed (a part of a streamed message). */
  readonly blocks: readonly Token[];
}

/** Markdown blocks already lexed, laid out at the available width (each block once). */
export const MarkdownBlocks = memo(function MarkdownBlocks({ blocks }: MarkdownBlocksProps) {
  const width = useAvailableWidth();
  const theme = useTheme();
  const tone = useMarkdownTone();
  const highlighter = useHighlighter(wantsHighlighter(blocks));
  return <StyledLines lines={markdownLines(blocks, { width, theme, tone, highlighter })} />;
});
