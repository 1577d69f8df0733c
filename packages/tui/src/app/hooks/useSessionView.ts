import { useRef, useSyncExternalStore } from 'react';
import type { SessionState } from '@acp-kit/client';
import type { TranscriptUnit } from '../view/transcript-projector.js';
import { onlyStreamedText, type SessionView, type SessionViewStore } from '../view/session-view-store.js';

const noop = (): (() => void) => () => undefined;
const none = (): undefined => undefined;

/**
 * The projected view of a tab's session (coalesced: at most one update per frame), or undefined
 * while the tab has no session yet.
 *
 * @example
 * const view = useSessionView(runtime?.view);
 */
export function useSessionView(store: SessionViewStore | undefined): SessionView | undefined {
  return useSyncExternalStore(store ? store.subscribe : noop, store ? store.getSnapshot : none);
}

/** What the screen around the live transcript needs of a session's view (see {@link useSessionChrome}). */
export interface SessionChrome {
  /**
   * The session's state; while only the text of the message being streamed changes, the state
   * before it (unless `exact` was asked for).
   */
  readonly state: SessionState;
  /** When the session last heard from its agent or the user, in whole seconds (clock ms). */
  readonly lastActivityAt: number;
  /** Whether there is a live transcript to draw. */
  readonly hasLive: boolean;
  /** Whether the live transcript shows a spinner. */
  readonly spins: boolean;
}

function sameChrome(a: SessionChrome, b: SessionChrome): boolean {
  return (
    a.lastActivityAt === b.lastActivityAt &&
    a.hasLive === b.hasLive &&
    a.spins === b.spins &&
    onlyStreamedText(a.state, b.state, 0)
  );
}

/**
 * The parts of a tab's session view that the status, the composer and the panels around the live
 * transcript draw: a new object only when one of them changed, so that a frame of streamed text
 * renders the live transcript (subscribed with {@link useSessionView}) and not the whole screen.
 * `exact`: the state must be the latest (a screen that shows the transcript or its counts is open).
 *
 * @example
 * const chrome = useSessionChrome(runtime?.view, modal, liveSpins);
 */
export function useSessionChrome(
  store: SessionViewStore | undefined,
  exact: boolean,
  spins: (live: readonly TranscriptUnit[]) => boolean,
): SessionChrome | undefined {
  const cache = useRef<
    { store: SessionViewStore; view: SessionView; exact: boolean; chrome: SessionChrome } | undefined
  >(undefined);
  const getSnapshot = (): SessionChrome | undefined => {
    if (!store) return undefined;
    const view = store.getSnapshot();
    const last = cache.current;
    if (last?.store === store && last.view === view && last.exact === exact) return last.chrome;
    const chrome: SessionChrome = {
      state: view.state,
      lastActivityAt: Math.floor(view.lastActivityAt / 1000) * 1000,
      hasLive: view.live.length > 0,
      spins: spins(view.live),
    };
    const keep =
      last?.store === store &&
      (last.chrome.state === chrome.state || !exact) &&
      sameChrome(last.chrome, chrome);
    cache.current = { store, view, exact, chrome: keep && last ? last.chrome : chrome };
    return cache.current.chrome;
  };
  return useSyncExternalStore(store ? store.subscribe : noop, getSnapshot);
}
