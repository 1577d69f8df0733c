/**
 * A tab's lifecycle as a state machine: where its agent connection stands (the phase), what moves
 * it from one phase to another, and what each move says and clears. The tab runtime reports
 * events; the app reducer applies them here; nothing else sets a tab's phase.
 *
 * ```
 *            start ┌──────────┐ opened          ┌───────┐
 *   (new tab) ───► │ starting │ ──────────────► │ ready │
 *                  └──────────┘ ◄────────────── └───────┘
 *                    │  ▲  │  │      start          │
 *    needs_sign_in / │  │  │  │ exited              │ exited, failed, needs_sign_in
 *    sign_in_failed  ▼  │  │  ▼                     ▼
 *                 ┌──────┐ │ ┌─────────┐       (as from starting)
 *                 │ auth │ │ │ crashed │ ◄── failed (after an exit)
 *                 └──────┘ │ └─────────┘
 *                          │ failed
 *                          ▼
 *                     ┌────────┐   every phase: start → starting
 *                     │ failed │
 *                     └────────┘
 * ```
 */
import type { AuthOption, ErrorInfo } from '@acp-kit/client';

/** Where a tab's agent connection stands. */
export type TabPhase =
  /** Starting the agent, creating or reopening the session, signing in. */
  | 'starting'
  | 'ready'
  /** The agent needs the user to sign in. */
  | 'auth'
  /** The agent exited on its own (or was killed): the transcript is kept. */
  | 'crashed'
  /** The agent could not be started or the session not opened. */
  | 'failed';

/** What happens to a tab's connection. */
export type TabEvent =
  /** Starting, restarting, signing in or reconnecting: `message` says which. */
  | { readonly type: 'start'; readonly message: string }
  /** A step of the start (`Opening the session…`). */
  | { readonly type: 'progress'; readonly message: string }
  /** The session is open and attached. */
  | { readonly type: 'opened' }
  /** The agent asks the user to sign in, with these methods. */
  | { readonly type: 'needs_sign_in'; readonly options: readonly AuthOption[]; readonly message: string }
  /** A sign-in method did not sign the user in (the methods stay). */
  | { readonly type: 'sign_in_failed'; readonly message: string }
  /** The agent exited (or was killed). */
  | { readonly type: 'exited'; readonly error: ErrorInfo; readonly message: string }
  /** Starting, opening or reattaching failed. */
  | { readonly type: 'failed'; readonly error: ErrorInfo; readonly message: string };

/** The part of a tab the lifecycle owns. */
export interface TabLifecycle {
  readonly phase: TabPhase;
  /** What is happening or what went wrong, for people. */
  readonly message?: string;
  readonly error?: ErrorInfo;
  readonly authOptions?: readonly AuthOption[];
  /** A cancel was sent and the turn has not ended yet (clock ms); an exit ends the turn. */
  readonly cancelSentAt?: number;
}

/** The phase each event leads to from each phase; an event missing from a row is ignored there. */
export const TAB_TRANSITIONS: Readonly<Record<TabPhase, Partial<Record<TabEvent['type'], TabPhase>>>> = {
  starting: {
    start: 'starting',
    progress: 'starting',
    opened: 'ready',
    needs_sign_in: 'auth',
    sign_in_failed: 'auth',
    exited: 'crashed',
    failed: 'failed',
  },
  ready: {
    start: 'starting',
    needs_sign_in: 'auth',
    exited: 'crashed',
    failed: 'failed',
  },
  auth: {
    start: 'starting',
    needs_sign_in: 'auth',
    sign_in_failed: 'auth',
    exited: 'crashed',
    failed: 'failed',
  },
  // The transcript stays; only a restart (or a sign-in, which restarts) leaves.
  crashed: {
    start: 'starting',
    needs_sign_in: 'auth',
    exited: 'crashed',
    failed: 'crashed',
  },
  failed: {
    start: 'starting',
    needs_sign_in: 'auth',
    exited: 'crashed',
    failed: 'failed',
  },
};

/**
 * The tab after `event`: the next phase with what it says; the same object when the event does
 * not apply in the tab's phase (an `opened` that comes after the agent exited).
 *
 * @example
 * tabTransition({ phase: 'starting' }, { type: 'opened' }); // { phase: 'ready' }
 */
export function tabTransition<T extends TabLifecycle>(tab: T, event: TabEvent): T {
  const phase = TAB_TRANSITIONS[tab.phase][event.type];
  if (phase === undefined) return tab;
  const { message: _message, error: _error, authOptions: _options, ...rest } = tab;
  switch (event.type) {
    case 'start':
    case 'sign_in_failed':
      // Signing in (again, or after a method failed) keeps the methods, for the dialog to come back with.
      return {
        ...rest,
        phase,
        message: event.message,
        ...(tab.authOptions ? { authOptions: tab.authOptions } : {}),
      } as T;
    case 'progress':
      return { ...tab, message: event.message };
    case 'opened':
      return { ...rest, phase } as T;
    case 'needs_sign_in':
      return { ...rest, phase, message: event.message, authOptions: event.options } as T;
    case 'exited': {
      const { cancelSentAt: _cancel, ...running } = rest;
      return { ...running, phase, message: event.message, error: event.error } as T;
    }
    case 'failed':
      return { ...rest, phase, message: event.message, error: event.error } as T;
  }
}
