import { memo } from 'react';
import type { SessionState } from '@acp-kit/client';
import type { AppState, Overlay, TabInfo } from '../state/app-state.js';
import { BrowseScreen } from '../browse/BrowseScreen.js';
import { AgentPicker } from './AgentPicker.js';
import { AuthDialog } from './AuthDialog.js';
import { HelpScreen } from './HelpScreen.js';
import { KillPrompt } from './KillPrompt.js';
import { overlayListRows } from './layout.js';
import { MenuScreen } from './MenuScreen.js';
import { ConfigPicker, ModePicker } from './OptionPickers.js';
import { RulesScreen } from './RulesScreen.js';
import { SessionInfoScreen } from './SessionInfoScreen.js';
import { SessionPicker } from './SessionPicker.js';
import { SettingsScreen } from './SettingsScreen.js';
import { TrafficScreen } from './TrafficScreen.js';

/** Props of {@link OverlayScreen}. */
export interface OverlayScreenProps {
  readonly overlay: Overlay;
  readonly app: AppState;
  readonly tab: TabInfo | undefined;
  readonly state: SessionState | undefined;
  /** Rows the screen may take (lists scroll within them). */
  readonly rows: number;
}

/** The screen an overlay shows (pickers, menu, help, rules, settings, traffic…), sized to fit. */
export const OverlayScreen = memo(function OverlayScreen({
  overlay,
  app,
  tab,
  state,
  rows,
}: OverlayScreenProps) {
  const list = overlayListRows(rows);
  switch (overlay.kind) {
    case 'agents':
      return <AgentPicker purpose={overlay.purpose} maxVisible={list} />;
    case 'menu':
      return (
        <MenuScreen
          maxVisible={list}
          tab={tab}
          hasModes={(state?.modes?.availableModes.length ?? 0) > 0}
          hasConfig={(state?.configOptions.length ?? 0) > 0}
        />
      );
    case 'help':
      return <HelpScreen maxVisible={list} />;
    case 'sessions':
      return <SessionPicker maxVisible={list} />;
    case 'modes':
      return <ModePicker modes={state?.modes} />;
    case 'config':
      return <ConfigPicker options={state?.configOptions ?? []} />;
    case 'auth': {
      const authTab = app.tabs.find((candidate) => candidate.id === overlay.tabId);
      return authTab ? <AuthDialog tab={authTab} maxVisible={list} /> : null;
    }
    case 'rules':
      return <RulesScreen maxVisible={list} />;
    case 'settings':
      return <SettingsScreen maxVisible={list} />;
    case 'traffic':
      return <TrafficScreen localId={state?.localId} rows={rows} />;
    case 'info':
      return tab ? <SessionInfoScreen tab={tab} state={state} /> : null;
    case 'browse':
      return (
        <BrowseScreen
          state={state}
          rows={rows}
          {...(overlay.position ? { position: overlay.position } : {})}
        />
      );
    case 'kill': {
      const killTab = app.tabs.find((candidate) => candidate.id === overlay.tabId);
      return killTab ? <KillPrompt tab={killTab} /> : null;
    }
  }
});
