import { memo } from 'react';
import { Text } from 'ink';
import { useTheme } from '../../theme/ThemeContext.js';
import type { PendingElicitation, PendingPermission, PendingReview, TabInfo } from '../state/app-state.js';
import { tabLabel, tabMarker, tabTitle } from './tab-label.js';

export { tabMarker, tabTitle } from './tab-label.js';

/** Props of {@link TabBar}. */
export interface TabBarProps {
  readonly tabs: readonly TabInfo[];
  readonly activeTabId?: string;
  readonly permissions: readonly PendingPermission[];
  readonly reviews: readonly PendingReview[];
  readonly elicitations?: readonly PendingElicitation[];
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
              {tabLabel(i, tabTitle(tab))}
            </Text>
            <Text color={color}>{` ${marker}`}</Text>
          </Text>
        );
      })}
    </Text>
  );
});
