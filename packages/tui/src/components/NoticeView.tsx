import { memo } from 'react';
import { useKeyBindings } from '../keys/KeyBindingsContext.js';
import { useTheme } from '../theme/ThemeContext.js';
import type { Notice } from '../view-model/notice.js';
import { useAvailableWidth } from './AvailableWidth.js';
import { noticeLines } from './lines/item-lines.js';
import { StyledLines } from './StyledLines.js';

/** Props of {@link NoticeView}. */
export interface NoticeViewProps {
  readonly notice: Notice;
}

/** A notice in the transcript: an agent notice, an exit with its reason, a client error. */
export const NoticeView = memo(function NoticeView({ notice }: NoticeViewProps) {
  const theme = useTheme();
  const bindings = useKeyBindings();
  const width = useAvailableWidth();
  return <StyledLines lines={noticeLines(notice, { width, theme, bindings })} />;
});
