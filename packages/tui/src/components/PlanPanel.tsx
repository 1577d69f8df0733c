import { memo } from 'react';
import { Box, Text } from 'ink';
import type { PlanEntry } from '@acp-kit/protocol';
import { useTheme } from '../theme/ThemeContext.js';
import type { Theme } from '../theme/theme.js';
import { useKeyLabel } from '../keys/KeyBindingsContext.js';
import { sanitizeInline } from '../sanitize/sanitize-text.js';

/** Props of {@link PlanPanel}. */
export interface PlanPanelProps {
  /** The full plan (each `plan` update replaces it). */
  readonly entries: readonly PlanEntry[];
  /** One line: progress and the entry in progress. */
  readonly collapsed?: boolean;
}

const STATUS_ICON: Readonly<Record<string, string>> = { pending: '○', in_progress: '▸', completed: '✓' };

function priorityColor(theme: Theme, priority: string): string | undefined {
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
  const { done, total, current } = planProgress(entries);
  const header = (
    <Text>
      <Text bold color={theme.text.accent}>
        Plan
      </Text>
      <Text color={theme.text.muted}>{total === 0 ? ' (empty)' : ` · ${done}/${total} done`}</Text>
      {collapsed && current && <Text>{` · ▸ ${sanitizeInline(current.content)}`}</Text>}
      {collapsed && total > 0 && toggleKey && (
        <Text color={theme.text.muted}>{` · ${toggleKey} to show`}</Text>
      )}
    </Text>
  );
  if (collapsed) return header;
  return (
    <Box flexDirection="column">
      {header}
      {entries.map((entry, i) => {
        const completed = entry.status === 'completed';
        const running = entry.status === 'in_progress';
        return (
          <Box key={i} flexDirection="row" paddingLeft={2} gap={1}>
            <Text
              color={completed ? theme.status.success : running ? theme.status.info : theme.status.pending}
            >
              {STATUS_ICON[entry.status] ?? '?'}
            </Text>
            <Text>
              <Text bold={running} dimColor={completed} strikethrough={completed}>
                {sanitizeInline(entry.content)}
              </Text>
              <Text
                color={priorityColor(theme, entry.priority)}
              >{` · ${sanitizeInline(String(entry.priority))}`}</Text>
              {!(entry.status in STATUS_ICON) && (
                <Text color={theme.text.muted}>{` · ${sanitizeInline(String(entry.status))}`}</Text>
              )}
            </Text>
          </Box>
        );
      })}
    </Box>
  );
});
