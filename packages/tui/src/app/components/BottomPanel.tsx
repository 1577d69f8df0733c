import { memo, useRef } from 'react';
import { Box, Text } from 'ink';
import type { SessionState } from '@acp-kit/client';
import { useTheme } from '../../theme/ThemeContext.js';
import { useKeyLabel } from '../../keys/KeyBindingsContext.js';
import { Spinner } from '../../components/Spinner.js';
import { sanitizeInline } from '../../sanitize/sanitize-text.js';
import type {
  AppState,
  PendingElicitation,
  PendingPermission,
  PendingReview,
  TabInfo,
} from '../state/app-state.js';
import { countRender } from '../services/metrics.js';
import { ComposerArea, promptHistory } from './ComposerArea.js';
import { CrashPanel } from './CrashPanel.js';
import { ElicitationDialog } from './ElicitationDialog.js';
import { OverlayScreen } from './OverlayScreen.js';
import { PermissionModal } from './PermissionModal.js';
import { ReviewModal } from './ReviewModal.js';

/** Props of {@link BottomPanel}. */
export interface BottomPanelProps {
  readonly app: AppState;
  readonly tab: TabInfo | undefined;
  /**
   * The session, for the modals that show it; undefined while none is shown, so that streamed
   * chunks do not draw the composer again.
   */
  readonly state: SessionState | undefined;
  /** The session's slash commands, its directory and whether a turn runs. */
  readonly commands: SessionState['commands'] | undefined;
  readonly cwd: string | undefined;
  readonly busy: boolean;
  /** Earlier prompts, oldest first (see `usePromptHistory`). */
  readonly history: readonly string[];
  readonly files: readonly string[];
  readonly review: PendingReview | undefined;
  readonly permission: PendingPermission | undefined;
  /** The tab's first form elicitation (shown once no permission question is waiting). */
  readonly elicitation?: PendingElicitation | undefined;
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
 * Earlier prompts of the session and the prompts a cancel kept from being sent, oldest first: the
 * same array until a turn starts (not read again for every streamed chunk).
 */
export function usePromptHistory(state: SessionState | undefined, unsent: readonly string[] | undefined) {
  const historyRef = useRef<{ key: string; history: string[] }>({ key: '', history: [] });
  const key = `${state?.localId ?? ''}:${state?.turn ?? 0}:${unsent?.length ?? 0}`;
  if (historyRef.current.key !== key)
    historyRef.current = { key, history: [...promptHistory(state), ...(unsent ?? [])] };
  return historyRef.current.history;
}

/**
 * The lower part of the screen: the open overlay, else the active tab's write review, permission
 * question, form elicitation or crash panel, else the composer. The composer stays mounted (hidden) under modals so
 * a draft is never lost.
 */
export const BottomPanel = memo(function BottomPanel({
  app,
  tab,
  state,
  commands,
  cwd,
  busy,
  history,
  files,
  review,
  permission,
  elicitation,
  rows,
  armDelayMs,
}: BottomPanelProps) {
  countRender('BottomPanel');
  const overlay = app.overlay;
  const waitingReviews = app.reviews.filter((r) => r.tabId === tab?.id).length - 1;
  const waitingPermissions = app.permissions.filter((p) => p.tabId === tab?.id).length - 1;
  let modal = null;
  if (overlay) {
    modal = <OverlayScreen overlay={overlay} app={app} tab={tab} state={state} rows={rows} />;
  } else if (review) {
    modal = (
      <ReviewModal
        review={review}
        waiting={waitingReviews}
        cwd={cwd}
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
  } else if (elicitation) {
    modal = (
      <ElicitationDialog
        pending={elicitation}
        agentName={tab?.agentTitle ?? tab?.agent.name}
        waiting={app.elicitations.filter((e) => e.tabId === tab?.id).length - 1}
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
            commands={commands}
            history={history}
            files={files}
            queued={tab.queued}
            busy={busy}
            isActive={composerShown}
          />
        </Box>
      )}
    </Box>
  );
});
