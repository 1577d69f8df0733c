import { memo, useEffect } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../../theme/ThemeContext.js';
import { useNow } from '../../clock/ClockContext.js';
import { useKeyLabel } from '../../keys/KeyBindingsContext.js';
import { StatusBar } from '../../components/StatusBar.js';
import { sanitizeInline } from '../../sanitize/sanitize-text.js';
import type { StatusView } from '../../view-model/status.js';
import type { AppState } from '../state/app-state.js';
import { useController } from '../hooks/AppContext.js';
import { countRender } from '../services/metrics.js';
import { keyHints } from './key-hints.js';
import { TabBar } from './TabBar.js';

/** How long a flash message stays. */
const FLASH_MS = 6000;

/** Props of {@link StatusArea}. */
export interface StatusAreaProps {
  readonly app: AppState;
  readonly status: StatusView | undefined;
  readonly stallAfterMs: number;
}

/** The line of key hints, or a flash message; the restart key while the turn is silent. */
function HintLine({ app, status, stallAfterMs }: StatusAreaProps) {
  countRender('HintLine');
  const theme = useTheme();
  const now = useNow();
  const menu = useKeyLabel('app.menu');
  const cancel = useKeyLabel('app.cancel');
  const restart = useKeyLabel('app.restart');
  const newTab = useKeyLabel('app.newTab');
  if (app.flash) {
    const color =
      app.flash.severity === 'error'
        ? theme.status.error
        : app.flash.severity === 'warning'
          ? theme.status.warning
          : theme.status.info;
    return (
      <Text color={color} wrap="truncate-end">
        {sanitizeInline(app.flash.text)}
      </Text>
    );
  }
  const running = status?.turn !== undefined;
  const stalled = running && now - (status?.turn?.lastUpdateAt ?? now) >= stallAfterMs;
  return (
    <Text color={stalled ? theme.status.warning : theme.text.muted} wrap="truncate-end">
      {keyHints({ menu, cancel, restart, newTab }, running, stalled)}
    </Text>
  );
}

/** Tabs, the status bar of the active tab, and the hint line. */
export const StatusArea = memo(function StatusArea({ app, status, stallAfterMs }: StatusAreaProps) {
  countRender('StatusArea');
  const controller = useController();
  useEffect(() => {
    if (!app.flash) return undefined;
    const timer = setTimeout(() => controller.store.dispatch({ type: 'flash', flash: undefined }), FLASH_MS);
    return () => clearTimeout(timer);
  }, [app.flash, controller]);
  return (
    <Box flexDirection="column">
      <TabBar
        tabs={app.tabs}
        activeTabId={app.activeTabId}
        permissions={app.permissions}
        reviews={app.reviews}
        elicitations={app.elicitations}
      />
      {status && <StatusBar status={status} stallAfterMs={stallAfterMs} />}
      <HintLine app={app} status={status} stallAfterMs={stallAfterMs} />
    </Box>
  );
});
