import { memo } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../theme/ThemeContext.js';
import { sanitizeText } from '../sanitize/sanitize-text.js';
import type { Notice } from '../view-model/notice.js';
import { InlineCode } from './InlineCode.js';

/** Props of {@link NoticeView}. */
export interface NoticeViewProps {
  readonly notice: Notice;
}

const ICONS = { info: 'ℹ', warning: '⚠', error: '✗' } as const;

/** A notice in the transcript: an agent notice, an exit with its reason, a client error. */
export const NoticeView = memo(function NoticeView({ notice }: NoticeViewProps) {
  const theme = useTheme();
  const color =
    notice.severity === 'error'
      ? theme.status.error
      : notice.severity === 'warning'
        ? theme.status.warning
        : theme.status.info;
  return (
    <Box flexDirection="column">
      <Text color={color}>
        {`${ICONS[notice.severity]} `}
        <InlineCode text={sanitizeText(notice.text)} />
      </Text>
      {notice.detail && (
        <Box paddingLeft={2}>
          <Text color={theme.text.muted}>{sanitizeText(notice.detail)}</Text>
        </Box>
      )}
    </Box>
  );
});
