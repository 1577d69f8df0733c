import type { SessionUpdate } from '@acp-kit/protocol';
import { describe, expect, it } from 'vitest';
import { v1UpdateEvents } from '../protocol-v1/v1-events.js';
import type { SessionEvent } from './events.js';
import { initialSessionState, type MessageItem, type ToolCallItem } from './state.js';
import { SessionStore } from './store.js';

const u = (update: Record<string, unknown>): SessionEvent =>
  one(v1UpdateEvents(update as unknown as SessionUpdate, 1000));
/** The one event of a v1 update (the v1 face's translation). */
function one(events: SessionEvent[]): SessionEvent {
  if (events.length !== 1) throw new Error(`expected one event, got ${events.length}`);
  return events[0] as SessionEvent;
}

const chunk = (text: string, messageId?: string) =>
  u({
    sessionUpdate: 'agent_message_chunk',
    content: { type: 'text', text },
    ...(messageId ? { messageId } : {}),
  });
const toolCall = (id: string, status: string) =>
  u({ sessionUpdate: 'tool_call', toolCallId: id, title: `call ${id}`, kind: 'read', status });

function textOf(item: MessageItem): string {
  return item.content.map((block) => (block as { text?: string }).text ?? '').join('');
}

describe('SessionStore retention', () => {
  it('keeps the end of a long streamed message: memory does not grow with the turn', () => {
    const store = new SessionStore(initialSessionState('s', '/p'));
    store.setRetention({ maxItems: 50, maxMessageChars: 4096 });
    let sent = '';
    for (let i = 0; i < 10_000; i++) {
      const text = `${i} `.padEnd(1000, '.');
      sent += text;
      store.dispatch(chunk(text, 'm1'));
      const message = store.getSnapshot().items[0] as MessageItem;
      expect(textOf(message).length).toBeLessThanOrEqual(8192);
    }
    const message = store.getSnapshot().items[0] as MessageItem;
    expect(sent.endsWith(textOf(message))).toBe(true);
    expect(message.droppedChars).toBe(sent.length - textOf(message).length);
  });

  it('drops old settled items but keeps running tool calls, unique keys and working indexes', () => {
    const store = new SessionStore(initialSessionState('s', '/p'));
    store.setRetention({ maxItems: 20, maxMessageChars: 4096 });
    store.dispatch(toolCall('early', 'in_progress'));
    const keys = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      store.dispatch(toolCall(`t${i}`, 'completed'));
      store.dispatch(chunk(`text ${i}`));
      for (const item of store.getSnapshot().items) keys.add(item.key);
      expect(store.getSnapshot().items.length).toBeLessThanOrEqual(41);
    }
    const state = store.getSnapshot();
    expect(keys.size).toBe(2001);
    expect(state.itemsDropped).toBe(2001 - state.items.length);
    const early = state.items[state.toolCallIndex.early as number] as ToolCallItem;
    expect(early).toMatchObject({ toolCallId: 'early', status: 'in_progress' });
    for (const [id, index] of Object.entries(state.toolCallIndex))
      expect((state.items[index] as ToolCallItem).toolCallId).toBe(id);
    // Updates still reach the calls kept.
    store.dispatch(u({ sessionUpdate: 'tool_call_update', toolCallId: 'early', status: 'completed' }));
    const done = store.getSnapshot();
    expect((done.items[done.toolCallIndex.early as number] as ToolCallItem).status).toBe('completed');
  });

  it('keeps everything without a retention (the default)', () => {
    const store = new SessionStore(initialSessionState('s', '/p'));
    for (let i = 0; i < 300; i++) store.dispatch(toolCall(`t${i}`, 'completed'));
    store.dispatch(chunk('x'.repeat(100_000)));
    expect(store.getSnapshot().items).toHaveLength(301);
    expect(textOf(store.getSnapshot().items[300] as MessageItem)).toHaveLength(100_000);
  });
});
