import { memo } from 'react';
import { Text } from 'ink';
import type { PlanEntry } from '@acp-kit/protocol';
import { useTheme } from '../theme/ThemeContext.js';
import { useKeyBindings, useKeyLabel } from '../keys/KeyBindingsContext.js';
import { useAvailableWidth } from './AvailableWidth.js';
import { planHeading, planLines, planProgress } from './lines/item-lines.js';
import { StyledLines } from './StyledLines.js';
import { sanitizeInline } from '../sanitize/sanitize-text.js';

/** Props of {@link PlanPanel}. */
export interface PlanPanelProps {
  /** The full plan (each `plan` update replaces it). */
  readonly entries: readonly PlanEntry[];
  /** One line: progress and the entry in progress. */
  readonly collapsed?: boolean;
}

/**
 * The agent's plan: each entry with its status and priority. Collapsed, a single line with the
 * progress and the entry in progress.
 *
 * @example
 * <PlanPanel entries={session.plan} collapsed={!showPlan} />
 */
export const PlanPanel = memo(function PlanPanel({ entries, collapsed = false }: PlanPanelProps) {
  const theme = useTheme();
  const toggleKey = useKeyLabel('app.togglePlan');
  const bindings = useKeyBindings();
  const width = useAvailableWidth();
  if (!collapsed) return <StyledLines lines={planLines(entries, { width, theme, bindings })} />;
  const { total, current } = planProgress(entries);
  return (
    <Text>
      {planHeading(entries, theme)}
      {current && <Text>{` · ▸ ${sanitizeInline(current.content)}`}</Text>}
      {total > 0 && toggleKey && <Text color={theme.text.muted}>{` · ${toggleKey} to show`}</Text>}
    </Text>
  );
});
