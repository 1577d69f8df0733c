import { useSyncExternalStore } from 'react';
import type { SessionView, SessionViewStore } from '../view/session-view-store.js';

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
