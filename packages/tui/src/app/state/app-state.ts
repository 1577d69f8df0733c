/**
 * The application's state (everything but the sessions themselves, which live in the engine's
 * stores): tabs, the open overlay, questions waiting for the user, settings. Changed only by
 * {@link appReducer}.
 */
import type { AgentEntry, PermissionAsk, RemoteStatus, SessionStatus } from '@acp-kit/client';
import type { ElicitationSchema } from '@acp-kit/protocol';
import type { BrowsePosition } from '../browse/browse-navigation.js';
import type { TuiSettings } from '../settings/settings.js';
import { DEFAULT_SETTINGS } from '../settings/settings.js';
import { tabTransition, type TabEvent, type TabLifecycle } from './tab-lifecycle.js';

export type { TabEvent, TabPhase } from './tab-lifecycle.js';

/**
 * A tab: one session with one agent. Its phase, message, error and sign-in methods are its
 * lifecycle (tab-lifecycle.ts), changed only by its events.
 */
export interface TabInfo extends TabLifecycle {
  readonly id: string;
  readonly agent: AgentEntry;
  /** The agent's name and version from `initialize` (agent-controlled). */
  readonly agentTitle?: string;
  readonly agentVersion?: string;
  /** Prompts typed during a turn, sent when it ends. */
  readonly queued: number;
  /**
   * Text of queued prompts a cancel kept from being sent, oldest first: the composer's history
   * (↑) brings them back to edit.
   */
  readonly unsent?: readonly string[];
  /** The session's status (kept here so the tab bar and the clock follow every tab). */
  readonly status?: SessionStatus;
  /** The agent session can be listed/loaded/resumed/closed/deleted. */
  readonly capabilities?: {
    readonly list: boolean;
    readonly load: boolean;
    readonly resume: boolean;
    readonly delete: boolean;
    /** The agent accepts images in prompts (`promptCapabilities.image`). */
    readonly image?: boolean;
    /** Tool calls and terminals can be cancelled one at a time (ACP v2). */
    readonly cancelOne?: boolean;
  };
  /** The ACP version negotiated with the agent. */
  readonly protocolVersion?: 1 | 2;
  /** Names of the MCP servers passed to the session. */
  readonly mcpServers?: readonly string[];
  /** A remote agent's connection (`acp --url`): where, how, cuts and resumptions. */
  readonly remote?: RemoteStatus;
}

/** A permission question waiting for the user. */
export interface PendingPermission {
  readonly id: string;
  readonly tabId: string;
  readonly ask: PermissionAsk;
  /** The user is reviewing its changes hunk by hunk (the review's keys, Esc included, are its own). */
  readonly reviewing?: boolean;
}

/** A form the agent asks the user to fill in (`elicitation/create`, form mode). */
export interface PendingElicitation {
  readonly id: string;
  readonly tabId: string;
  /** The agent's message (agent-controlled). */
  readonly message: string;
  readonly schema: ElicitationSchema;
}

/** A file write waiting for a hunk-by-hunk review. */
export interface PendingReview {
  readonly id: string;
  readonly tabId: string;
  readonly path: string;
  /** Current content; null when the file does not exist. */
  readonly oldText: string | null;
  readonly newText: string;
}

/** What covers the session view. */
export type Overlay =
  | { readonly kind: 'agents'; readonly purpose: 'start' | 'newTab' }
  | { readonly kind: 'menu' }
  | { readonly kind: 'help' }
  | { readonly kind: 'sessions' }
  | { readonly kind: 'modes' }
  | { readonly kind: 'config' }
  | { readonly kind: 'auth'; readonly tabId: string }
  | { readonly kind: 'rules' }
  | { readonly kind: 'settings' }
  | { readonly kind: 'traffic' }
  | { readonly kind: 'info' }
  /** The transcript browser; `position` is kept while an editor has the terminal. */
  | { readonly kind: 'browse'; readonly position?: BrowsePosition }
  | { readonly kind: 'kill'; readonly tabId: string };

/** A short message under the status bar. */
export interface Flash {
  readonly text: string;
  readonly severity: 'info' | 'warning' | 'error';
}

/** The application state. */
export interface AppState {
  readonly tabs: readonly TabInfo[];
  readonly activeTabId?: string;
  readonly overlay?: Overlay;
  readonly permissions: readonly PendingPermission[];
  readonly elicitations: readonly PendingElicitation[];
  readonly reviews: readonly PendingReview[];
  /** Bumped to clear the screen and print the active session again. */
  readonly printEpoch: number;
  readonly flash?: Flash;
  readonly settings: TuiSettings;
  readonly settingsProblems: readonly string[];
  /** Ctrl+C was pressed once while idle: a second press quits (clock ms). */
  readonly quitArmedAt?: number;
  readonly view: ViewOptions;
}

/** How the transcript is drawn (changing these prints the session again). */
export interface ViewOptions {
  /** Long tool output in full. */
  readonly expanded: boolean;
  /** Thoughts in full. */
  readonly showThoughts: boolean;
  /** The plan panel as one line. */
  readonly planCollapsed: boolean;
  /** Print the whole history of the session, not only its last items. */
  readonly fullHistory: boolean;
}

/** The state before anything happened. */
export function initialAppState(
  settings: TuiSettings = DEFAULT_SETTINGS,
  problems: readonly string[] = [],
): AppState {
  return {
    tabs: [],
    permissions: [],
    elicitations: [],
    reviews: [],
    printEpoch: 0,
    settings,
    settingsProblems: problems,
    view: { expanded: false, showThoughts: settings.showThoughts, planCollapsed: false, fullHistory: false },
  };
}

/** The fields of a tab that change without a lifecycle event (`cancelSentAt` too: an exit clears it). */
export type TabPatch = Partial<Omit<TabInfo, 'id' | 'agent' | 'phase' | 'message' | 'error' | 'authOptions'>>;

/** Everything that changes the application state. */
export type AppAction =
  | { readonly type: 'tab_added'; readonly tab: TabInfo; readonly activate: boolean }
  /** A step of the tab's lifecycle (see tab-lifecycle.ts). */
  | { readonly type: 'tab_event'; readonly id: string; readonly event: TabEvent }
  /** What the tab knows besides its lifecycle (queued prompts, the session's status, the agent…). */
  | { readonly type: 'tab_updated'; readonly id: string; readonly patch: TabPatch }
  | { readonly type: 'tab_removed'; readonly id: string }
  | { readonly type: 'tab_activated'; readonly id: string }
  | { readonly type: 'overlay_opened'; readonly overlay: Overlay }
  | { readonly type: 'overlay_closed' }
  | { readonly type: 'permission_queued'; readonly permission: PendingPermission }
  | { readonly type: 'permission_removed'; readonly id: string }
  | { readonly type: 'permission_reviewing'; readonly id: string; readonly reviewing: boolean }
  | { readonly type: 'elicitation_queued'; readonly elicitation: PendingElicitation }
  | { readonly type: 'elicitation_removed'; readonly id: string }
  | { readonly type: 'review_queued'; readonly review: PendingReview }
  | { readonly type: 'review_removed'; readonly id: string }
  | { readonly type: 'reprint' }
  | { readonly type: 'flash'; readonly flash: Flash | undefined }
  | { readonly type: 'settings_loaded'; readonly settings: TuiSettings; readonly problems: readonly string[] }
  | { readonly type: 'quit_armed'; readonly at: number | undefined }
  | { readonly type: 'view_toggled'; readonly option: keyof ViewOptions };

/** The reducer. */
export function appReducer(state: AppState, action: AppAction): AppState {
  switch (action.type) {
    case 'tab_added': {
      const activate = action.activate || state.activeTabId === undefined;
      return {
        ...state,
        tabs: [...state.tabs, action.tab],
        ...(activate ? { activeTabId: action.tab.id, printEpoch: state.printEpoch + 1 } : {}),
      };
    }
    case 'tab_event': {
      const tab = state.tabs.find((t) => t.id === action.id);
      const next = tab && tabTransition(tab, action.event);
      if (!tab || next === tab) return state;
      return { ...state, tabs: state.tabs.map((t) => (t === tab ? (next as TabInfo) : t)) };
    }
    case 'tab_updated':
      return {
        ...state,
        tabs: state.tabs.map((tab) => (tab.id === action.id ? { ...tab, ...action.patch } : tab)),
      };
    case 'tab_removed': {
      const index = state.tabs.findIndex((tab) => tab.id === action.id);
      if (index < 0) return state;
      const tabs = state.tabs.filter((tab) => tab.id !== action.id);
      const wasActive = state.activeTabId === action.id;
      const next = wasActive ? (tabs[Math.min(index, tabs.length - 1)]?.id ?? undefined) : state.activeTabId;
      const { activeTabId: _dropped, ...rest } = state;
      return {
        ...rest,
        tabs,
        ...(next !== undefined ? { activeTabId: next } : {}),
        permissions: state.permissions.filter((p) => p.tabId !== action.id),
        elicitations: state.elicitations.filter((e) => e.tabId !== action.id),
        reviews: state.reviews.filter((r) => r.tabId !== action.id),
        printEpoch: wasActive ? state.printEpoch + 1 : state.printEpoch,
      };
    }
    case 'tab_activated':
      if (state.activeTabId === action.id || !state.tabs.some((tab) => tab.id === action.id)) return state;
      return {
        ...state,
        activeTabId: action.id,
        printEpoch: state.printEpoch + 1,
        view: { ...state.view, fullHistory: false },
      };
    case 'overlay_opened':
      return { ...state, overlay: action.overlay };
    case 'overlay_closed': {
      if (!state.overlay) return state;
      const { overlay: _closed, ...rest } = state;
      return rest;
    }
    case 'permission_queued':
      return { ...state, permissions: [...state.permissions, action.permission] };
    case 'permission_removed':
      return { ...state, permissions: state.permissions.filter((p) => p.id !== action.id) };
    case 'permission_reviewing':
      return {
        ...state,
        permissions: state.permissions.map((p) =>
          p.id === action.id ? { ...p, reviewing: action.reviewing } : p,
        ),
      };
    case 'elicitation_queued':
      return { ...state, elicitations: [...state.elicitations, action.elicitation] };
    case 'elicitation_removed':
      return { ...state, elicitations: state.elicitations.filter((e) => e.id !== action.id) };
    case 'review_queued':
      return { ...state, reviews: [...state.reviews, action.review] };
    case 'review_removed':
      return { ...state, reviews: state.reviews.filter((r) => r.id !== action.id) };
    case 'reprint':
      return { ...state, printEpoch: state.printEpoch + 1 };
    case 'flash': {
      if (action.flash) return { ...state, flash: action.flash };
      const { flash: _cleared, ...rest } = state;
      return rest;
    }
    case 'settings_loaded':
      return {
        ...state,
        settings: action.settings,
        settingsProblems: action.problems,
        view: { ...state.view, showThoughts: action.settings.showThoughts },
      };
    case 'view_toggled': {
      const view = { ...state.view, [action.option]: !state.view[action.option] };
      // The plan panel is live; everything else changes what was printed.
      const reprint = action.option !== 'planCollapsed';
      return { ...state, view, printEpoch: reprint ? state.printEpoch + 1 : state.printEpoch };
    }
    case 'quit_armed': {
      if (action.at !== undefined) return { ...state, quitArmedAt: action.at };
      const { quitArmedAt: _disarmed, ...rest } = state;
      return rest;
    }
  }
}

/** The active tab, if any. */
export function activeTab(state: AppState): TabInfo | undefined {
  return state.tabs.find((tab) => tab.id === state.activeTabId);
}
