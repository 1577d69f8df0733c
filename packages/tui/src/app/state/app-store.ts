/**
 * The application store: {@link AppState} behind a reducer, in the shape React's
 * `useSyncExternalStore` expects.
 */
import { appReducer, initialAppState, type AppAction, type AppState } from './app-state.js';

/**
 * @example
 * const store = new AppStore();
 * store.dispatch({ type: 'overlay_opened', overlay: { kind: 'help' } });
 * const state = useSyncExternalStore(store.subscribe, store.getSnapshot);
 */
export class AppStore {
  private state: AppState;
  private readonly listeners = new Set<() => void>();

  /**
   * Called before subscribers learn that the session must be printed again (the screen is
   * cleared here, before the new transcript is drawn).
   */
  onReprint: (() => void) | undefined;

  constructor(initial: AppState = initialAppState()) {
    this.state = initial;
  }

  getSnapshot = (): AppState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Applies an action and notifies subscribers when the state changed. */
  dispatch(action: AppAction): void {
    const next = appReducer(this.state, action);
    if (next === this.state) return;
    const reprint = next.printEpoch !== this.state.printEpoch;
    this.state = next;
    if (reprint) this.onReprint?.();
    for (const listener of [...this.listeners]) listener();
  }
}
