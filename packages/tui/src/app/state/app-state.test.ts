import { describe, expect, it, vi } from 'vitest';
import type { AgentEntry } from '@acp-kit/client';
import { activeTab, appReducer, initialAppState, type TabInfo } from './app-state.js';
import { AppStore } from './app-store.js';

const agent: AgentEntry = { id: 'demo', name: 'Demo', source: 'builtin', command: 'acp', args: [] };
const tab = (id: string): TabInfo => ({ id, agent, phase: 'ready', queued: 0 });

describe('app state', () => {
  it('adds, activates and removes tabs, printing the shown session again each time', () => {
    let state = appReducer(initialAppState(), { type: 'tab_added', tab: tab('t1'), activate: false });
    expect(state.activeTabId).toBe('t1');
    expect(state.printEpoch).toBe(1);
    state = appReducer(state, { type: 'tab_added', tab: tab('t2'), activate: true });
    state = appReducer(state, { type: 'tab_added', tab: tab('t3'), activate: false });
    expect(activeTab(state)?.id).toBe('t2');
    expect(state.printEpoch).toBe(2);
    state = appReducer(state, {
      type: 'permission_queued',
      permission: { id: 'p', tabId: 't2', ask: {} as never },
    });
    state = appReducer(state, { type: 'tab_removed', id: 't2' });
    expect(state.activeTabId).toBe('t3');
    expect(state.permissions).toEqual([]);
    expect(state.printEpoch).toBe(3);
    expect(appReducer(state, { type: 'tab_activated', id: 't3' })).toBe(state);
    state = appReducer(state, { type: 'tab_removed', id: 't3' });
    state = appReducer(state, { type: 'tab_removed', id: 't1' });
    expect(state.activeTabId).toBeUndefined();
  });

  it('toggles view options; only the plan panel toggles without printing again', () => {
    let state = initialAppState();
    state = appReducer(state, { type: 'view_toggled', option: 'planCollapsed' });
    expect(state.view.planCollapsed).toBe(true);
    expect(state.printEpoch).toBe(0);
    state = appReducer(state, { type: 'view_toggled', option: 'showThoughts' });
    expect(state.view.showThoughts).toBe(true);
    expect(state.printEpoch).toBe(1);
  });

  it('clears the screen before subscribers draw the session again', () => {
    const store = new AppStore();
    const order: string[] = [];
    store.onReprint = () => order.push('clear');
    store.subscribe(() => order.push('render'));
    store.dispatch({ type: 'overlay_opened', overlay: { kind: 'help' } });
    store.dispatch({ type: 'reprint' });
    expect(order).toEqual(['render', 'clear', 'render']);
    const listener = vi.fn();
    store.subscribe(listener);
    store.dispatch({ type: 'overlay_closed' });
    store.dispatch({ type: 'overlay_closed' });
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
