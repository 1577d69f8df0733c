import type { SessionUpdate } from '@acp-kit/protocol';
import { describe, expect, it } from 'vitest';
import { v1UpdateEvents } from '../protocol-v1/v1-events.js';
import type { SessionEvent } from './events.js';
import { reduceSession } from './reducer.js';
import { initialSessionState, type SessionState } from './state.js';
import { SessionStore } from './store.js';

const chunk = (text: string, at: number): SessionEvent[] =>
  v1UpdateEvents(
    { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } as unknown as SessionUpdate,
    at,
  );
const messageText = (state: SessionState): string[] =>
  state.items.map((item) =>
    item.kind === 'message'
      ? item.content.map((b) => (b as { text?: string }).text ?? '').join('')
      : item.kind,
  );

describe('SessionStore', () => {
  it('gives every reader the state with every event dispatched before it asked', () => {
    const store = new SessionStore(initialSessionState('s', '/p'));
    const events = Array.from({ length: 60 }, (_, i) => chunk(`w${i} `, 1000 + i)).flat();
    const seen: string[] = [];
    const off = store.subscribe(() => {
      // Read at every tenth change only: the changes between are applied together when read.
      if (store.getSnapshot().updateCount % 10 === 0) seen.push(messageText(store.getSnapshot())[0] ?? '');
    });
    let expected = initialSessionState('s', '/p');
    for (const event of events) {
      store.dispatch(event);
      expected = reduceSession(expected, event);
    }
    off();
    expect(seen).toHaveLength(6);
    expect(seen[0]).toBe(Array.from({ length: 10 }, (_, i) => `w${i} `).join(''));
    // The same state as one event at a time, and the same object until the next change.
    expect(store.getSnapshot()).toEqual(expected);
    expect(store.getSnapshot()).toBe(store.getSnapshot());
    store.dispatch(chunk('end', 2000)[0] as SessionEvent);
    expect(messageText(store.getSnapshot())[0]?.endsWith('w59 end')).toBe(true);
  });

  it('notifies after every change and emits every event, in order', () => {
    const store = new SessionStore(initialSessionState('s', '/p'));
    const order: string[] = [];
    store.onEvent((event) => order.push(`event ${event.type}`));
    store.subscribe(() => order.push('changed'));
    store.dispatch(chunk('a', 1)[0] as SessionEvent);
    store.dispatchMany([...chunk('b', 2), ...chunk('c', 3)]);
    expect(order).toEqual(['event update', 'changed', 'event update', 'event update', 'changed']);
    expect(messageText(store.getSnapshot())).toEqual(['abc']);
  });

  it('leaves out an event the reducer fails on and applies the others', () => {
    const store = new SessionStore(initialSessionState('s', '/p'));
    store.dispatch(chunk('before ', 1)[0] as SessionEvent);
    // No face makes this: an update event without its update.
    const broken = { type: 'update', at: 2, update: null } as unknown as SessionEvent;
    expect(() => store.dispatch(broken)).not.toThrow();
    store.dispatch(chunk('after', 3)[0] as SessionEvent);
    expect(() => store.getSnapshot()).not.toThrow();
    expect(messageText(store.getSnapshot())).toEqual(['before after']);
  });

  it('applies what was dispatched before a retention is set without it', () => {
    const store = new SessionStore(initialSessionState('s', '/p'));
    store.dispatch(chunk('x'.repeat(5000), 1)[0] as SessionEvent);
    store.setRetention({ maxItems: 10, maxMessageChars: 1000 });
    // Retention applies from the next change on, as when every event was applied at once.
    expect(messageText(store.getSnapshot())[0]).toHaveLength(5000);
    store.dispatch(chunk('y', 2)[0] as SessionEvent);
    const text = messageText(store.getSnapshot())[0] ?? '';
    expect(text.length).toBeLessThan(5000);
    expect(text.endsWith('xy')).toBe(true);
  });

  it('applies what is queued once it is long, with nobody reading', () => {
    const store = new SessionStore(initialSessionState('s', '/p'));
    for (let i = 0; i < 1000; i++) store.dispatch(chunk('x', i)[0] as SessionEvent);
    // A headless run that never reads: the queue is bounded (checked through its length).
    expect((store as unknown as { pending: unknown[] }).pending.length).toBeLessThan(256);
    expect(messageText(store.getSnapshot())[0]).toHaveLength(1000);
  });
});
