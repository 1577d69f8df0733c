import { useInput } from 'ink';
import { KEY_ACTIONS, type KeyScope } from '../../keys/key-bindings.js';
import { useActionMatcher } from '../../keys/KeyBindingsContext.js';
import { useController } from './AppContext.js';

/** How long a first Ctrl+C (while idle) waits for the second one that quits. */
export const QUIT_WINDOW_MS = 2000;

/**
 * Keys that work everywhere in the session view: cancel (and quit on a second Ctrl+C while
 * idle), the menu, tabs, sessions, mode, restart, redraw and the view toggles. While an overlay
 * (a picker or a screen) has the keyboard, only quit works, and Ctrl+C closes the overlay.
 *
 * `shadow` names the scope of a component that has the keyboard on top of the session (a form):
 * its keys are its own, and the other session keys keep working.
 *
 * @example
 * useGlobalKeys(overlay === undefined && !reviewing, formShown ? 'form' : undefined);
 */
export function useGlobalKeys(sessionKeys: boolean, shadow?: KeyScope): void {
  const controller = useController();
  const is = useActionMatcher();
  const store = controller.store;
  useInput((input, key) => {
    if (shadow && KEY_ACTIONS.some((d) => d.scope === shadow && is(d.action, input, key))) return;
    const state = store.getSnapshot();
    const ctrlC = key.ctrl && input === 'c';
    // While quitting, Ctrl+C hurries the quit (the agents are killed at once), whatever the screen.
    if (ctrlC && controller.quitting) {
      void controller.quit(0);
      return;
    }
    if (!sessionKeys) {
      if (is('app.quit', input, key)) void controller.quit(0);
      else if (ctrlC && state.tabs.length > 0) store.dispatch({ type: 'overlay_closed' });
      else if (ctrlC) void controller.quit(0);
      return;
    }
    if (is('app.quit', input, key)) void controller.quit(0);
    else if (is('app.cancel', input, key)) {
      const result = controller.cancel();
      if (result !== 'idle' || !ctrlC) return;
      const now = controller.now();
      if (state.quitArmedAt !== undefined && now - state.quitArmedAt < QUIT_WINDOW_MS)
        void controller.quit(0);
      else {
        store.dispatch({ type: 'quit_armed', at: now });
        controller.flash('Press Ctrl+C again to quit', 'info');
      }
    } else if (is('app.cancelCall', input, key)) void controller.cancelCall();
    else if (is('app.menu', input, key))
      store.dispatch({ type: 'overlay_opened', overlay: { kind: 'menu' } });
    else if (is('app.newTab', input, key))
      store.dispatch({ type: 'overlay_opened', overlay: { kind: 'agents', purpose: 'newTab' } });
    else if (is('app.nextTab', input, key)) controller.switchTab(1);
    else if (is('app.previousTab', input, key)) controller.switchTab(-1);
    else if (is('app.sessions', input, key))
      store.dispatch({ type: 'overlay_opened', overlay: { kind: 'sessions' } });
    else if (is('app.browse', input, key) && state.activeTabId !== undefined)
      store.dispatch({ type: 'overlay_opened', overlay: { kind: 'browse' } });
    else if (is('app.cycleMode', input, key)) void controller.cycleMode();
    else if (is('app.restart', input, key)) void controller.restart();
    else if (is('app.redraw', input, key)) store.dispatch({ type: 'reprint' });
    else if (is('app.toggleExpand', input, key)) store.dispatch({ type: 'view_toggled', option: 'expanded' });
    else if (is('app.toggleThoughts', input, key))
      store.dispatch({ type: 'view_toggled', option: 'showThoughts' });
    else if (is('app.togglePlan', input, key))
      store.dispatch({ type: 'view_toggled', option: 'planCollapsed' });
  });
}
