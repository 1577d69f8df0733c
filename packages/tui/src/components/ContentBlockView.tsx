import { memo } from 'react';
import { Box, Text } from 'ink';
import type { ContentBlock } from '@acp-kit/protocol';
import { isUnknownVariant } from '@acp-kit/protocol';
import { useKeyBindings } from '../keys/KeyBindingsContext.js';
import { useTheme } from '../theme/ThemeContext.js';
import { MarkdownView } from '../markdown/MarkdownView.js';
import { sanitizeText } from '../sanitize/sanitize-text.js';
import { annotationBadges, describeAttachment } from './attachments.js';
import { useAvailableWidth } from './AvailableWidth.js';
import { attachmentLines } from './lines/item-lines.js';
import { StyledLines } from './StyledLines.js';

/** Props of {@link ContentBlockView}. */
export interface ContentBlockViewProps {
  readonly block: ContentBlock;
  /** Render text as Markdown (agent text) or verbatim (what the user typed). */
  readonly markdown?: boolean;
}

/** Annotations shown as dim badges, e.g. `[for user · priority 0.8]`. */
export function AnnotationBadges({ block }: { readonly block: ContentBlock }) {
  const theme = useTheme();
  if (isUnknownVariant(block)) return null;
  const badges = annotationBadges(block.annotations);
  if (badges.length === 0) return null;
  return <Text color={theme.badge}>{`[${badges.join(' · ')}]`}</Text>;
}

/**
 * One content block: text (Markdown or verbatim), or an image, audio clip, resource or resource
 * link as a labelled attachment line; annotations as badges.
 */
export const ContentBlockView = memo(function ContentBlockView({
  block,
  markdown = true,
}: ContentBlockViewProps) {
  const theme = useTheme();
  const bindings = useKeyBindings();
  const width = useAvailableWidth();
  const attachment = describeAttachment(block);
  if (!attachment && !isUnknownVariant(block) && block.type === 'text') {
    return (
      <Box flexDirection="column">
        {markdown ? <MarkdownView text={block.text} /> : <Text>{sanitizeText(block.text)}</Text>}
        <AnnotationBadges block={block} />
      </Box>
    );
  }
  if (!attachment) return null;
  // Drawn from the lines printing uses (item-lines.ts), unless it has badges beside it.
  const lines = attachmentLines(block, { width, theme, bindings });
  if (lines) return <StyledLines lines={lines} />;
  return (
    <Box flexDirection="row" gap={1}>
      <Text color={theme.text.accent}>{attachment.icon}</Text>
      <Text>
        <Text bold>{attachment.label}</Text>
        {attachment.details.length > 0 && (
          <Text color={theme.text.muted}>{` · ${attachment.details.join(' · ')}`}</Text>
        )}
      </Text>
      <AnnotationBadges block={block} />
    </Box>
  );
});
