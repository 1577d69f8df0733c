import { memo } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../theme/ThemeContext.js';
import { attachmentChip, type ImageAttachment } from './image-attachment.js';

/** Props of {@link AttachmentChips}. */
export interface AttachmentChipsProps {
  readonly attachments: readonly ImageAttachment[];
}

/**
 * The images attached to the prompt, one chip each (`[▣ shot.png · PNG 24 KB]`), wrapped over as
 * many lines as they need, with how to remove one.
 *
 * @example
 * <AttachmentChips attachments={state.attachments} />
 */
export const AttachmentChips = memo(function AttachmentChips({ attachments }: AttachmentChipsProps) {
  const theme = useTheme();
  return (
    <Box flexWrap="wrap" columnGap={1}>
      {attachments.map((image, i) => (
        <Text key={i} color={theme.badge}>{`[${attachmentChip(image)}]`}</Text>
      ))}
      <Text color={theme.text.muted}>· Backspace at the start removes the last</Text>
    </Box>
  );
});
