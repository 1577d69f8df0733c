import { describe, expect, it } from 'vitest';
import type { CreateElicitationRequest } from '@acp-kit/protocol';
import type { FormState } from '../../elicitation/form-state.js';
import type { TabInfo } from '../state/app-state.js';
import { AppStore } from '../state/app-store.js';
import { ElicitationQueue, elicitationTab, type ElicitationTabCandidate } from './elicitation-queue.js';

const form = (scope: { sessionId: string } | { requestId: number } = { sessionId: 's1' }) =>
  ({
    ...scope,
    mode: 'form',
    message: 'Your name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
  }) as CreateElicitationRequest;

const tab = (id: string, over: Partial<ElicitationTabCandidate> = {}): ElicitationTabCandidate => ({
  id,
  agentId: 'scenario',
  localId: `local-${id}`,
  agentSessionId: `session-of-${id}`,
  connected: true,
  running: false,
  ...over,
});

describe('elicitationTab', () => {
  it('places a form in the tab of the session the engine names, even among tabs of other agents', () => {
    const same = { agentSessionId: 's1' };
    const tabs = [tab('t1', same), tab('t2', { ...same, agentId: 'other' })];
    expect(elicitationTab(form(), tabs, 't1', { agentId: 'other', localId: 'local-t2' })).toBe('t2');
    // Without a session, only the asking agent's tabs count.
    const two = [tab('t1', { agentSessionId: undefined }), tab('t2', { agentId: 'other' })];
    expect(elicitationTab(form({ requestId: 0 }), two, 't2', { agentId: 'scenario' })).toBe('t1');
  });

  it('places a form in the tab showing its session', () => {
    const tabs = [tab('t1'), tab('t2')];
    expect(elicitationTab(form({ sessionId: 'session-of-t2' }), tabs, 't1')).toBe('t2');
    // A tab whose agent is gone cannot have asked: the only agent running did.
    const gone = [tab('t1'), tab('t2', { connected: false }), tab('t3')];
    expect(elicitationTab(form({ sessionId: 'session-of-t2' }), gone, 't2')).toBeUndefined();
    expect(elicitationTab(form({ sessionId: 'session-of-t2' }), gone.slice(0, 2), 't2')).toBe('t1');
  });

  it('among tabs of one agent showing the same session, prefers a running turn, then the active tab', () => {
    const same = { agentSessionId: 's1' };
    expect(elicitationTab(form(), [tab('t1', same), tab('t2', { ...same, running: true })], 't1')).toBe('t2');
    expect(elicitationTab(form(), [tab('t1', same), tab('t2', same)], 't2')).toBe('t2');
    expect(elicitationTab(form(), [tab('t1', same), tab('t2', same)], undefined)).toBe('t1');
  });

  it('refuses to guess between agents, or between tabs when the session is not known', () => {
    const tabs = [tab('t1', { agentSessionId: 's1' }), tab('t2', { agentSessionId: 's1', agentId: 'other' })];
    expect(elicitationTab(form(), tabs, 't1')).toBeUndefined();
    expect(elicitationTab(form({ requestId: 0 }), [tab('t1'), tab('t2')], 't1')).toBeUndefined();
    expect(elicitationTab(form({ sessionId: 'unknown' }), [tab('t1'), tab('t2')], 't1')).toBeUndefined();
    // Only one agent runs: it is the one asking (before its session is open, or by request).
    expect(elicitationTab(form({ requestId: 0 }), [tab('t1', { agentSessionId: undefined })], 't1')).toBe(
      't1',
    );
    expect(
      elicitationTab(form({ sessionId: 'new' }), [tab('t1'), tab('t2', { connected: false })], 't2'),
    ).toBe('t1');
    expect(elicitationTab(form(), [], undefined)).toBeUndefined();
  });
});

describe('ElicitationQueue', () => {
  it('queues a form for its tab until the user answers it', async () => {
    const store = new AppStore();
    const queue = new ElicitationQueue(store, () => 't1');
    const answer = queue.elicit(form(), new AbortController().signal);
    const pending = store.getSnapshot().elicitations[0];
    expect(pending).toMatchObject({
      tabId: 't1',
      message: 'Your name?',
      schema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    queue.answer(pending?.id as string, { action: 'accept', content: { name: 'Ada' } });
    expect(await answer).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(store.getSnapshot().elicitations).toEqual([]);
  });

  it('drops a form the engine withdraws; cancels the forms of a tab; keeps other tabs’ forms', async () => {
    const store = new AppStore();
    let place = 't1';
    const queue = new ElicitationQueue(store, () => place);
    const controller = new AbortController();
    const withdrawn = queue.elicit(form(), controller.signal);
    controller.abort();
    expect(await withdrawn).toEqual({ action: 'cancel' });
    expect(store.getSnapshot().elicitations).toEqual([]);
    const gone = new AbortController();
    gone.abort();
    expect(await queue.elicit(form(), gone.signal)).toEqual({ action: 'cancel' });
    expect(store.getSnapshot().elicitations).toEqual([]);
    const first = queue.elicit(form(), new AbortController().signal);
    place = 't2';
    void queue.elicit(form(), new AbortController().signal);
    queue.cancelTab('t1');
    expect(await first).toEqual({ action: 'cancel' });
    expect(store.getSnapshot().elicitations.map((e) => e.tabId)).toEqual(['t2']);
  });

  it('declines what it cannot place, and modes other than form, without showing anything', async () => {
    const store = new AppStore();
    const queue = new ElicitationQueue(store, () => undefined);
    expect(await queue.elicit(form(), new AbortController().signal)).toEqual({ action: 'decline' });
    expect(store.getSnapshot().flash?.text).toBe(
      'Declined a form from an agent: acp could not tell which tab it belongs to',
    );
    const url = { sessionId: 's1', mode: 'url', message: 'm', elicitationId: 'e', url: 'https://x' };
    const placed = new ElicitationQueue(store, () => 't1');
    expect(await placed.elicit(url as CreateElicitationRequest, new AbortController().signal)).toEqual({
      action: 'decline',
    });
    expect(store.getSnapshot().elicitations).toEqual([]);
  });

  it('forgets the forms of a closed tab', () => {
    const store = new AppStore();
    const queue = new ElicitationQueue(store, () => 't1');
    store.dispatch({
      type: 'tab_added',
      tab: { id: 't1', agent: { id: 'a', name: 'A' }, phase: 'ready', queued: 0 } as TabInfo,
      activate: true,
    });
    void queue.elicit(form(), new AbortController().signal);
    expect(store.getSnapshot().elicitations).toHaveLength(1);
    store.dispatch({ type: 'tab_removed', id: 't1' });
    expect(store.getSnapshot().elicitations).toEqual([]);
  });

  it('keeps a draft only while its form waits', () => {
    const store = new AppStore();
    const queue = new ElicitationQueue(store, () => 't1');
    void queue.elicit(form(), new AbortController().signal);
    const id = store.getSnapshot().elicitations[0]?.id as string;
    const draft = { values: [], focus: 0, button: 0, errors: [] } as FormState;
    queue.keepDraft(id, draft);
    expect(queue.draft(id)).toBe(draft);
    queue.answer(id, { action: 'decline' });
    expect(queue.draft(id)).toBeUndefined();
    queue.keepDraft(id, draft);
    expect(queue.draft(id)).toBeUndefined();
  });
});
