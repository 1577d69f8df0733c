import { memo, useMemo } from 'react';
import { Box } from 'ink';
import { ClockProvider } from '../../clock/ClockContext.js';
import { PlanPanel } from '../../components/PlanPanel.js';
import { activeTab } from '../state/app-state.js';
import { useAppState, useController } from '../hooks/AppContext.js';
import { useGlobalKeys } from '../hooks/useGlobalKeys.js';
import { useSessionChrome, useSessionView } from '../hooks/useSessionView.js';
import type { SessionViewStore } from '../view/session-view-store.js';
import { useTerminalSize } from '../hooks/useTerminalSize.js';
import { sameStatus, statusView } from '../view/status-view.js';
import { useStableValue } from '../hooks/useStableValue.js';
import { countRender } from '../services/metrics.js';
import { BottomPanel, usePromptHistory } from './BottomPanel.js';
import { bottomPanelRows, STATUS_ROWS } from './layout.js';
import { StatusArea } from './StatusArea.js';
import { LiveTranscript, liveSpins } from './LiveTranscript.js';

/** Props of {@link App}. */
export interface AppProps {
  /** Typeahead guard of permission prompts (tests set 0). */
  readonly armDelayMs?: number;
}

/** Clock tick while a spinner is shown: 10 frames a second. */
const CLOCK_MS = 100;
/** Clock tick while something runs without a spinner: whole seconds (stall indicator, kill prompt). */
const SLOW_CLOCK_MS = 1000;
/** Rows of an empty composer (border and one line). */
const COMPOSER_ROWS = 3;

/**
 * The live part of the screen (the settled transcript above it is printed into the scrollback by
 * the transcript printer): the active session's live items and plan, then the composer or whatever needs the user (a modal, a picker, a screen), and
 * the tabs and status at the bottom. The live part is sized to stay shorter than the terminal, so
 * Ink never has to clear the screen to redraw it.
 */
export const App = memo(function App({ armDelayMs }: AppProps) {
  countRender('App');
  const controller = useController();
  const app = useAppState();
  const { rows, columns } = useTerminalSize();
  const tab = activeTab(app);
  const runtime = controller.tab(tab?.id);
  const review = app.reviews.find((r) => r.tabId === tab?.id);
  const permission = app.permissions.find((p) => p.tabId === tab?.id);
  const elicitation = app.elicitations.find((e) => e.tabId === tab?.id);
  const modal =
    app.overlay !== undefined ||
    review !== undefined ||
    permission !== undefined ||
    elicitation !== undefined;
  // Not the live transcript's frames (LiveRegion draws those): a modal's screens read the state.
  const view = useSessionChrome(runtime?.view, modal, liveSpins);
  const state = view?.state;
  // A shown form's keys (Esc declines, Shift+Tab moves back…) win over the session keys.
  const formShown =
    elicitation !== undefined &&
    permission === undefined &&
    review === undefined &&
    app.overlay === undefined;
  useGlobalKeys(
    app.overlay === undefined && review === undefined && permission?.reviewing !== true,
    formShown ? 'form' : undefined,
  );
  const waiting = app.permissions.filter((p) => p.tabId === tab?.id).length;
  const waitingForms = app.elicitations.filter((e) => e.tabId === tab?.id).length;
  // Whole seconds are enough for the stall indicator; the same view keeps the status bar from redrawing.
  const lastActivity = view?.lastActivityAt;
  const status = useStableValue(
    useMemo(
      () => (tab ? statusView(tab, state, lastActivity, waiting, waitingForms) : undefined),
      [tab, state, lastActivity, waiting, waitingForms],
    ),
    sameStatus,
  );
  const busy = app.tabs.some(
    (t) => t.status === 'running' || t.status === 'cancelling' || t.phase === 'starting',
  );
  // A streamed answer alone shows no spinner: ticking for it would redraw the screen 10 times a second.
  const spinning =
    app.tabs.some((t) => t.phase === 'starting') || (view !== undefined && !modal && view.spins);
  const history = usePromptHistory(state, tab?.unsent);
  const plan = state?.plan ?? [];
  const showPlan = plan.length > 0 && !modal;
  const planRows = showPlan ? (app.view.planCollapsed ? 1 : plan.length + 1) : 0;
  // The view whose frames draw the live transcript (and move the clock), when it is shown.
  const liveView = view?.hasLive && !modal ? runtime?.view : undefined;
  const bottomRows = bottomPanelRows(rows);
  const liveBudget = Math.max(3, rows - STATUS_ROWS - COMPOSER_ROWS - planRows - 2);
  return (
    <>
      <ClockProvider paused={!busy} intervalMs={spinning ? CLOCK_MS : SLOW_CLOCK_MS} frames={liveView}>
        <Box flexDirection="column" width={columns}>
          {liveView && (
            <LiveRegion
              store={liveView}
              budget={liveBudget}
              columns={columns}
              cwd={state?.cwd}
              showThoughts={app.view.showThoughts}
            />
          )}
          {showPlan && (
            <Box marginBottom={1}>
              <PlanPanel entries={plan} collapsed={app.view.planCollapsed} />
            </Box>
          )}
          <BottomPanel
            app={app}
            tab={tab}
            state={modal ? state : undefined}
            commands={state?.commands}
            cwd={state?.cwd}
            busy={state?.status === 'running' || state?.status === 'cancelling'}
            history={history}
            files={runtime?.files ?? []}
            review={review}
            permission={permission}
            elicitation={elicitation}
            rows={bottomRows}
            {...(armDelayMs !== undefined ? { armDelayMs } : {})}
          />
          <StatusArea app={app} status={status} stallAfterMs={app.settings.stallSeconds * 1000} />
        </Box>
      </ClockProvider>
    </>
  );
});

/** Props of {@link LiveRegion}. */
interface LiveRegionProps {
  readonly store: SessionViewStore;
  readonly budget: number;
  readonly columns: number;
  readonly cwd: string | undefined;
  readonly showThoughts: boolean;
}

/**
 * The live transcript, subscribed to the session's view on its own: a frame of streamed text
 * renders this and not the screen around it.
 */
const LiveRegion = memo(function LiveRegion({ store, ...props }: LiveRegionProps) {
  const view = useSessionView(store);
  return view && view.live.length > 0 ? <LiveTranscript live={view.live} {...props} /> : null;
});
