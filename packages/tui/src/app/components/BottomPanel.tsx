import { memo, useRef } from 'react';
import { Box, Text } from 'ink';
import type { SessionState } from '@acp-kit/client';
import { useTheme } from '../../theme/ThemeContext.js';
import { useKeyLabel } from '../../keys/KeyBindingsContext.js';
import { Spinner } from '../../components/Spinner.js';
import { sanitizeInline } from '../../sanitize/sanitize-text.js';
import type { AppState, PendingPermission, PendingReview, TabInfo } from '../state/app-state.js';
import { AgentPicker } from './AgentPicker.js';
import { AuthDialog } from './AuthDialog.js';
import { ComposerArea, promptHistory } from './ComposerArea.js';
import { CrashPanel } from './CrashPanel.js';
import { HelpScreen } from './HelpScreen.js';
import { KillPrompt } from './KillPrompt.js';
import { MenuScreen } from './MenuScreen.js';
import { ConfigPicker, ModePicker } from './OptionPickers.js';
import { PermissionModal } from './PermissionModal.js';
import { ReviewModal } from './ReviewModal.js';
import { RulesScreen } from './RulesScreen.js';
import { SessionInfoScreen } from './SessionInfoScreen.js';
import { SessionPicker } from './SessionPicker.js';
import { SettingsScreen } from './SettingsScreen.js';
import { TrafficScreen } from './TrafficScreen.js';

/** Props of {@link BottomPanel}. */
export interface BottomPanelProps {
  readonly app: AppState;
  readonly tab: TabInfo | undefined;
  readonly state: SessionState | undefined;
  readonly files: readonly string[];
  readonly review: PendingReview | undefined;
  readonly permission: PendingPermission | undefined;
  /** Rows the panel may take. */
  readonly rows: number;
  /** Typeahead guard of permission prompts (tests set 0). */
  readonly armDelayMs?: number;
}

/** A one-line state of the tab when the composer is all there is to show. */
function TabLine({ tab }: { tab: TabInfo }) {
  const theme = useTheme();
  const menu = useKeyLabel('app.menu');
  if (tab.phase === 'starting') {
    return (
      <Text color={theme.text.muted}>
        <Spinner color={theme.status.info} /> {sanitizeInline(tab.message ?? 'Starting…')}
      </Text>
    );
  }
  if (tab.phase === 'auth') {
    return (
      <Text
        color={theme.status.warning}
      >{`⚿ ${sanitizeInline(tab.agent.name)} needs you to sign in · ${menu} → Sign in`}</Text>
    );
  }
  return null;
}

/**
 * The lower part of the screen: the open overlay, else the active tab's write review, permission
 * question or crash panel, else the composer. The composer stays mounted (hidden) under modals so
 * a draft is never lost.
 */
export const BottomPanel = memo(function BottomPanel({
  app,
  tab,
  state,
  files,
  review,
  permission,
  rows,
  armDelayMs,
}: BottomPanelProps) {
  const overlay = app.overlay;
  // Prompts change only when a turn starts: not recomputed for every streamed chunk.
  const localId = state?.localId;
  const turn = state?.turn;
  const historyRef = useRef<{ key: string; history: string[] }>({ key: '', history: [] });
  const historyKey = `${localId ?? ''}:${turn ?? 0}`;
  if (historyRef.current.key !== historyKey)
    historyRef.current = { key: historyKey, history: promptHistory(state) };
  const history = historyRef.current.history;
  const list = Math.max(3, rows - 6);
  const waitingReviews = app.reviews.filter((r) => r.tabId === tab?.id).length - 1;
  const waitingPermissions = app.permissions.filter((p) => p.tabId === tab?.id).length - 1;
  let modal = null;
  if (overlay) {
    switch (overlay.kind) {
      case 'agents':
        modal = <AgentPicker purpose={overlay.purpose} maxVisible={list} />;
        break;
      case 'menu':
        modal = (
          <MenuScreen
            maxVisible={list}
            tab={tab}
            hasModes={(state?.modes?.availableModes.length ?? 0) > 0}
            hasConfig={(state?.configOptions.length ?? 0) > 0}
          />
        );
        break;
      case 'help':
        modal = <HelpScreen maxVisible={list} />;
        break;
      case 'sessions':
        modal = <SessionPicker maxVisible={list} />;
        break;
      case 'modes':
        modal = <ModePicker modes={state?.modes} />;
        break;
      case 'config':
        modal = <ConfigPicker options={state?.configOptions ?? []} />;
        break;
      case 'auth': {
        const authTab = app.tabs.find((candidate) => candidate.id === overlay.tabId);
        modal = authTab ? <AuthDialog tab={authTab} maxVisible={list} /> : null;
        break;
      }
      case 'rules':
        modal = <RulesScreen maxVisible={list} />;
        break;
      case 'settings':
        modal = <SettingsScreen maxVisible={list} />;
        break;
      case 'traffic':
        modal = <TrafficScreen localId={state?.localId} rows={rows} />;
        break;
      case 'info':
        modal = tab ? <SessionInfoScreen tab={tab} state={state} /> : null;
        break;
      case 'kill': {
        const killTab = app.tabs.find((candidate) => candidate.id === overlay.tabId);
        modal = killTab ? <KillPrompt tab={killTab} /> : null;
        break;
      }
    }
  } else if (review) {
    modal = (
      <ReviewModal
        review={review}
        waiting={waitingReviews}
        cwd={state?.cwd}
        maxHunks={Math.max(3, Math.floor(rows / 4))}
        maxHunkLines={Math.max(3, rows - 9 - Math.max(3, Math.floor(rows / 4)))}
      />
    );
  } else if (permission) {
    modal = (
      <PermissionModal
        pending={permission}
        state={state}
        waiting={waitingPermissions}
        expanded={app.view.expanded}
        rows={rows}
        {...(armDelayMs !== undefined ? { armDelayMs } : {})}
      />
    );
  } else if (tab && (tab.phase === 'crashed' || tab.phase === 'failed')) {
    modal = <CrashPanel tab={tab} />;
  }
  const composerShown = modal === null && tab !== undefined;
  return (
    <Box flexDirection="column">
      {modal}
      {composerShown && <TabLine tab={tab} />}
      {tab && (
        <Box display={composerShown ? 'flex' : 'none'} flexDirection="column">
          <ComposerArea
            key={tab.id}
            commands={state?.commands}
            history={history}
            files={files}
            queued={tab.queued}
            busy={state?.status === 'running' || state?.status === 'cancelling'}
            isActive={composerShown}
          />
        </Box>
      )}
    </Box>
  );
});
