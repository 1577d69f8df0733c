/**
 * Plans, notices and attachments as styled lines: what `PlanPanel`, `NoticeView` and
 * `ContentBlockView` draw through Ink for the same item (item-lines.test.tsx renders both ways), for
 * printing a session's history into the scrollback without Ink.
 */
import type { ContentBlock, PlanEntry } from '@acp-kit/protocol';
import { isUnknownVariant } from '@acp-kit/protocol';
import { sanitizeInline, sanitizeText } from '../../sanitize/sanitize-text.js';
import { colorize, paint } from '../../theme/paint.js';
import type { Theme } from '../../theme/theme.js';
import { displayWidth } from '../../text/width.js';
import type { Notice } from '../../view-model/notice.js';
import { annotationBadges, describeAttachment } from '../attachments.js';
import { beside, inlineCode, wrapStyled, type LineLayout } from './styled-text.js';

const PLAN_ICONS: Readonly<Record<string, string>> = { pending: '○', in_progress: '▸', completed: '✓' };

/** The colour of a plan entry's priority. */
export function priorityColor(theme: Theme, priority: string): string | undefined {
  if (priority === 'high') return theme.status.error;
  if (priority === 'medium') return theme.status.warning;
  return theme.text.muted;
}

/** Progress of a plan: how many entries are completed, and the first one in progress. */
export function planProgress(entries: readonly PlanEntry[]): {
  done: number;
  total: number;
  current?: PlanEntry;
} {
  return {
    done: entries.filter((e) => e.status === 'completed').length,
    total: entries.length,
    current: entries.find((e) => e.status === 'in_progress'),
  };
}

/** A plan's heading: "Plan" and how many of its entries are done (what `PlanPanel` shows folded too). */
export function planHeading(entries: readonly PlanEntry[], theme: Theme): string {
  const { done, total } = planProgress(entries);
  return (
    paint('Plan', { bold: true, color: theme.text.accent }) +
    colorize(total === 0 ? ' (empty)' : ` · ${done}/${total} done`, theme.text.muted)
  );
}

/** A plan in full: its progress, then each entry with its status and priority. */
export function planLines(entries: readonly PlanEntry[], layout: LineLayout): string[] {
  const { theme, width } = layout;
  const lines = wrapStyled(planHeading(entries, theme), width);
  for (const entry of entries) {
    const completed = entry.status === 'completed';
    const running = entry.status === 'in_progress';
    const icon = PLAN_ICONS[entry.status] ?? '?';
    const text =
      paint(sanitizeInline(entry.content), { bold: running, dim: completed, strikethrough: completed }) +
      colorize(` · ${sanitizeInline(String(entry.priority))}`, priorityColor(theme, entry.priority)) +
      (entry.status in PLAN_ICONS
        ? ''
        : colorize(` · ${sanitizeInline(String(entry.status))}`, theme.text.muted));
    const color = completed ? theme.status.success : running ? theme.status.info : theme.status.pending;
    lines.push(...beside(`  ${colorize(icon, color)} `, 4, wrapStyled(text, width - 4)));
  }
  return lines;
}

const NOTICE_ICONS = { info: 'ℹ', warning: '⚠', error: '✗' } as const;

/** A notice: its icon and text in the colour of its severity, its detail below, muted. */
export function noticeLines(notice: Notice, layout: LineLayout): string[] {
  const { theme, width } = layout;
  const color =
    notice.severity === 'error'
      ? theme.status.error
      : notice.severity === 'warning'
        ? theme.status.warning
        : theme.status.info;
  const text = `${NOTICE_ICONS[notice.severity]} ${inlineCode(sanitizeText(notice.text), theme)}`;
  const lines = wrapStyled(colorize(text, color), width);
  if (notice.detail)
    lines.push(
      ...beside('  ', 2, wrapStyled(colorize(sanitizeText(notice.detail), theme.text.muted), width - 2)),
    );
  return lines;
}

/**
 * A content block other than text: its attachment line (icon, label, details). Undefined for what
 * these lines do not draw (text, annotated blocks): those are drawn by their component.
 */
export function attachmentLines(block: ContentBlock, layout: LineLayout): string[] | undefined {
  const attachment = describeAttachment(block);
  if (!attachment || (!isUnknownVariant(block) && annotationBadges(block.annotations).length > 0))
    return undefined;
  const { theme, width } = layout;
  const iconWidth = displayWidth(attachment.icon);
  const text =
    paint(attachment.label, { bold: true }) +
    (attachment.details.length > 0 ? colorize(` · ${attachment.details.join(' · ')}`, theme.text.muted) : '');
  return beside(
    `${colorize(attachment.icon, theme.text.accent)} `,
    iconWidth + 1,
    wrapStyled(text, width - iconWidth - 1),
  );
}
