/**
 * How much of a session's transcript a store keeps in memory. A host that only streams a turn
 * (`acp run`) needs no in-memory history: the transcript on disk keeps everything, the store keeps
 * what is still live (open tool calls, the plan, the newest items, the end of long messages), so
 * memory stays flat however long the turn.
 */
import type { ContentBlock } from '@acp-kit/protocol';
import type { MessageItem, SessionState, ToolCallItem, TranscriptItem } from './state.js';

/** What a store keeps (see {@link SessionStore.setRetention}). */
export interface SessionRetention {
  /** Newest transcript items kept (older ones are dropped, except tool calls still running). */
  maxItems: number;
  /** Characters of text kept at the end of each message (the start is dropped). */
  maxMessageChars: number;
}

/** Messages near the end are checked at every change: that is where streamed text grows. */
const RECENT_ITEMS_CHECKED = 8;

/**
 * Applies `retention` to a state: work is done only once the limits are exceeded twice over, so
 * its cost per update stays constant. Returns the same object when nothing had to go.
 *
 * @example
 * state = retain(reduceSession(state, event), { maxItems: 200, maxMessageChars: 16_384 });
 */
export function retain(state: SessionState, retention: SessionRetention): SessionState {
  let items: TranscriptItem[] | undefined;
  const from = Math.max(0, state.items.length - RECENT_ITEMS_CHECKED);
  for (let i = from; i < state.items.length; i++) {
    const trimmed = trimMessage(state.items[i] as TranscriptItem, retention.maxMessageChars);
    if (trimmed === undefined) continue;
    items ??= [...state.items];
    items[i] = trimmed;
  }
  const next = items ? { ...state, items } : state;
  return next.items.length > retention.maxItems * 2 ? dropOldItems(next, retention) : next;
}

function dropOldItems(state: SessionState, retention: SessionRetention): SessionState {
  const firstKept = state.items.length - retention.maxItems;
  const items: TranscriptItem[] = [];
  const toolCallIndex: Record<string, number> = {};
  const messageIndex: Record<string, number> = {};
  state.items.forEach((original, index) => {
    if (index < firstKept && !isRunningToolCall(original)) return;
    const item = trimMessage(original, retention.maxMessageChars) ?? original;
    if (item.kind === 'tool_call') toolCallIndex[item.toolCallId] = items.length;
    if (item.kind === 'message' && item.messageId !== undefined)
      messageIndex[`${item.role}:${item.messageId}`] = items.length;
    items.push(item);
  });
  return {
    ...state,
    items,
    toolCallIndex,
    messageIndex,
    itemsDropped: (state.itemsDropped ?? 0) + state.items.length - items.length,
  };
}

function isRunningToolCall(item: TranscriptItem): boolean {
  const call = item as ToolCallItem;
  return (
    item.kind === 'tool_call' &&
    call.clientStatus === undefined &&
    (call.status === 'pending' || call.status === 'in_progress')
  );
}

/** The message with only its last `maxChars` characters of text, or undefined when it is short enough. */
function trimMessage(item: TranscriptItem, maxChars: number): MessageItem | undefined {
  if (item.kind !== 'message') return undefined;
  let total = 0;
  for (const block of item.content) total += textLength(block);
  if (total <= maxChars * 2) return undefined;
  let drop = total - maxChars;
  const content: ContentBlock[] = [];
  for (const block of item.content) {
    const length = textLength(block);
    if (drop >= length && length > 0) {
      drop -= length;
      continue;
    }
    if (drop > 0) {
      content.push({ ...block, text: (block as { text: string }).text.slice(drop) } as ContentBlock);
      drop = 0;
    } else {
      content.push(block);
    }
  }
  return { ...item, content, droppedChars: (item.droppedChars ?? 0) + total - maxChars };
}

function textLength(block: ContentBlock): number {
  const text = (block as { type?: unknown; text?: unknown }).text;
  return (block as { type?: unknown }).type === 'text' && typeof text === 'string' ? text.length : 0;
}
