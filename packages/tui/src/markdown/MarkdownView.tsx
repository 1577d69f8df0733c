import { memo, useMemo, useRef } from 'react';
import { IncrementalMarkdown } from './incremental.js';
import { MarkdownBlocks } from './MarkdownBlock.js';

/** Props of {@link MarkdownView}. */
export interface MarkdownViewProps {
  /** The Markdown source (agent-controlled: it is sanitized here). May grow between renders. */
  readonly text: string;
}

/**
 * Renders Markdown with Ink: headings, paragraphs, emphasis, code spans and fenced code with
 * highlighting, nested lists, quotes, tables, links (label and URL) and rules. While `text` grows
 * (streaming), only the last block is lexed and rendered again.
 *
 * @example
 * <MarkdownView text={message.text} />
 */
export const MarkdownView = memo(function MarkdownView({ text }: MarkdownViewProps) {
  const markdown = useRef<IncrementalMarkdown | null>(null);
  markdown.current ??= new IncrementalMarkdown();
  const incremental = markdown.current;
  const tokens = useMemo(() => incremental.update(text), [incremental, text]);
  return <MarkdownBlocks tokens={tokens} spaced />;
});
