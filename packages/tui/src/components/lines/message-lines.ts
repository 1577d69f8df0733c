/**
 * Messages and their content blocks as styled lines: what `MessageView` and `ContentBlockView`
 * draw (the user's text verbatim after a `›`, an agent's as Markdown, attachments labelled).
 */
import type { ContentBlock } from '@acp-kit/protocol';
import { isUnknownVariant } from '@acp-kit/protocol';
import { lexMarkdown } from '../../markdown/markdown-stream.js';
import { markdownLines } from '../../markdown/markdown-lines.js';
import { sanitizeText } from '../../sanitize/sanitize-text.js';
import { colorize } from '../../theme/paint.js';
import { annotationBadges } from '../attachments.js';
import { messageSegments } from '../message-segments.js';
import { attachmentLines } from './item-lines.js';
import { beside, wrapStyled, type LineLayout } from './styled-text.js';

/**
 * A content block as `ContentBlockView` draws it: text as Markdown (or verbatim, what the user
 * typed) with its annotations' badges, anything else as its attachment line (undefined: one with badges).
 */
export function contentBlockLines(
  block: ContentBlock,
  layout: LineLayout,
  markdown = true,
): string[] | undefined {
  if (isUnknownVariant(block) || block.type !== 'text') return attachmentLines(block, layout);
  const lines = markdown
    ? markdownLines(lexMarkdown(block.text), layout)
    : wrapStyled(sanitizeText(block.text), layout.width);
  const badges = annotationBadges(block.annotations);
  if (badges.length > 0)
    lines.push(...wrapStyled(colorize(`[${badges.join(' · ')}]`, layout.theme.badge), layout.width));
  return lines;
}

/**
 * A whole message (`MessageView`): the user's text verbatim after a `›`, an agent's as Markdown,
 * blocks other than plain text as `ContentBlockView` draws them.
 */
export function messageLines(
  user: boolean,
  content: Parameters<typeof messageSegments>[0],
  layout: LineLayout,
): string[] | undefined {
  const { theme } = layout;
  const inner = user ? { ...layout, width: layout.width - 2 } : layout;
  const rows: string[] = [];
  for (const segment of messageSegments(content)) {
    if (segment.kind === 'block') {
      const lines = contentBlockLines(segment.block, inner, !user);
      if (!lines) return undefined;
      rows.push(...lines);
    } else if (user) {
      rows.push(...wrapStyled(colorize(sanitizeText(segment.text), theme.text.user), inner.width));
    } else {
      rows.push(...markdownLines(lexMarkdown(segment.text), inner));
    }
  }
  return user ? beside(colorize('› ', theme.text.user), 2, rows.length > 0 ? rows : ['']) : rows;
}
