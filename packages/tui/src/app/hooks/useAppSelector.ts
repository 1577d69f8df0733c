import { useSyncExternalStore } from 'react';
import type { AppState } from '../state/app-state.js';
import { useController } from './AppContext.js';

/**
 * One value of the application state; the component re-renders only when that value changes
 * (compared with `Object.is`, so select primitives or objects the state already holds).
 *
 * @example
 * const phase = useAppSelector((state) => activeTab(state)?.phase);
 */
export function useAppSelector<T>(select: (state: AppState) => T): T {
  const store = useController().store;
  return useSyncExternalStore(store.subscribe, () => select(store.getSnapshot()));
}
