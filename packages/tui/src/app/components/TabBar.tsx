import { memo } from 'react';
import { Text } from 'ink';
import { useTheme } from '../../theme/ThemeContext.js';
import { sanitizeInline } from '../../sanitize/sanitize-text.js';
import type { PendingElicitation, PendingPermission, PendingReview, TabInfo } from '../state/app-state.js';

/** Props of {@link TabBar}. */
export interface TabBarProps {
  readonly tabs: readonly TabInfo[];
  readonly activeTabId?: string;
  readonly permissions: readonly PendingPermission[];
  readonly reviews: readonly PendingReview[];
  readonly elicitations?: readonly PendingElicitation[];
}

/** A tab's marker: what it is doing or waiting for. */
export function tabMarker(tab: TabInfo, waiting: boolean): string {
  if (waiting) return '⚑';
  if (tab.phase === 'crashed' || tab.phase === 'failed') return '✗';
  if (tab.phase === 'auth') return '⚿';
  if (tab.phase === 'starting') return '◌';
  if (tab.status === 'running' || tab.status === 'cancelling') return '◐';
  return '●';
}

/** A tab's name: the agent's own title from `initialize` once it answered, else the catalog's name. */
export function tabTitle(tab: TabInfo): string {
  return tab.agentTitle ?? tab.agent.name;
}

/** The tabs: number, agent, and a marker (running, waiting for you, exited). */
export const TabBar = memo(function TabBar({
  tabs,
  activeTabId,
  permissions,
  reviews,
  elicitations = [],
}: TabBarProps) {
  const theme = useTheme();
  if (tabs.length === 0) return null;
  return (
    <Text wrap="truncate-end">
      {tabs.map((tab, i) => {
        const active = tab.id === activeTabId;
        const waiting =
          permissions.some((p) => p.tabId === tab.id) ||
          reviews.some((r) => r.tabId === tab.id) ||
          elicitations.some((e) => e.tabId === tab.id);
        const marker = tabMarker(tab, waiting);
        const color = waiting ? theme.status.warning : marker === '✗' ? theme.status.error : undefined;
        return (
          <Text key={tab.id}>
            {i > 0 && <Text color={theme.text.muted}> │ </Text>}
            <Text inverse={active} bold={active}>
              {` ${i + 1} ${sanitizeInline(tabTitle(tab))} `}
            </Text>
            <Text color={color}>{` ${marker}`}</Text>
          </Text>
        );
      })}
    </Text>
  );
});
