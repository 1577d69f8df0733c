/**
 * Turns a session's event log into what `session/load` replays: the conversation in order (chunks
 * of one message merged), each tool call once in its final state, then the last plan, usage and
 * session info. Tool calls the agent never finished (it was killed) are replayed as failed.
 */
import {
  isUnknownVariant,
  type ContentBlock,
  type SessionUpdate,
  type ToolCallContent,
} from '@acp-kit/protocol';
import type { SessionRecord } from './store.js';

type ToolCallUpdateOf = Extract<SessionUpdate, { sessionUpdate: 'tool_call' }>;
type ChunkKind = 'user_message_chunk' | 'agent_message_chunk' | 'agent_thought_chunk';
type Chunk = Extract<SessionUpdate, { sessionUpdate: ChunkKind }>;

const INTERRUPTED = 'Interrupted: the agent stopped before this tool call finished.';
/** Updates that replay only their latest value, at the end. */
const LATEST_ONLY = new Set(['plan', 'usage_update', 'session_info_update']);

function isChunk(update: SessionUpdate): update is Chunk {
  return (
    update.sessionUpdate === 'user_message_chunk' ||
    update.sessionUpdate === 'agent_message_chunk' ||
    update.sessionUpdate === 'agent_thought_chunk'
  );
}

/** Terminals are released when the command ends; a replay shows the output that was captured instead. */
function replayContent(
  content: ToolCallContent[] | undefined,
  rawOutput: unknown,
): ToolCallContent[] | undefined {
  if (!content?.some((item) => item.type === 'terminal')) return content;
  const output = (rawOutput as { output?: unknown } | undefined)?.output;
  const text =
    typeof output === 'string' && output !== '' ? '```\n' + output + '\n```' : '(terminal output not kept)';
  return content.map((item) =>
    item.type === 'terminal' ? { type: 'content', content: { type: 'text', text } } : item,
  );
}

/**
 * Replayable updates from `records`.
 *
 * @example
 * for (const update of replayUpdates(store.readRecords(id))) await session.replay(update);
 */
export function replayUpdates(records: readonly SessionRecord[]): SessionUpdate[] {
  const out: SessionUpdate[] = [];
  const toolCalls = new Map<string, ToolCallUpdateOf>();
  const latest = new Map<string, SessionUpdate>();
  let info: { title?: string | null; updatedAt?: string | null } = {};

  for (const record of records) {
    if (record.type !== 'update') continue;
    const update = record.update;
    // We only store variants we know; this narrows the type.
    if (isUnknownVariant(update)) continue;
    if (isChunk(update)) {
      appendChunk(out, update);
    } else if (update.sessionUpdate === 'tool_call') {
      const call: ToolCallUpdateOf = { ...update };
      toolCalls.set(update.toolCallId, call);
      out.push(call);
    } else if (update.sessionUpdate === 'tool_call_update') {
      const call = toolCalls.get(update.toolCallId);
      if (!call) continue;
      // content and locations replace; other fields patch (ACP semantics). Progress `_meta` is live-only.
      const { sessionUpdate: _kind, toolCallId: _id, _meta: _liveMeta, ...patch } = update;
      for (const [key, value] of Object.entries(patch)) {
        if (value !== undefined && value !== null) (call as Record<string, unknown>)[key] = value;
      }
    } else if (update.sessionUpdate === 'session_info_update') {
      info = { ...info, ...update };
    } else if (LATEST_ONLY.has(update.sessionUpdate)) {
      latest.set(update.sessionUpdate, update);
    } else if (
      update.sessionUpdate === 'compaction_update' ||
      update.sessionUpdate === 'compaction_summary_chunk'
    ) {
      out.push(update);
    }
  }

  for (const call of toolCalls.values()) {
    if (call.status !== 'completed' && call.status !== 'failed') {
      call.status = 'failed';
      call.content = [
        ...(call.content ?? []),
        { type: 'content', content: { type: 'text', text: INTERRUPTED } },
      ];
    }
    const content = replayContent(call.content, call.rawOutput);
    if (content) call.content = content;
  }
  for (const update of latest.values()) out.push(update);
  if (info.title !== undefined || info.updatedAt !== undefined) {
    out.push({
      sessionUpdate: 'session_info_update',
      title: info.title ?? null,
      updatedAt: info.updatedAt ?? null,
    });
  }
  return out;
}

/** Merges a text chunk into the previous one of the same message; other blocks stay separate. */
function appendChunk(out: SessionUpdate[], chunk: Chunk): void {
  const previous = out[out.length - 1];
  if (
    previous &&
    previous.sessionUpdate === chunk.sessionUpdate &&
    isChunk(previous) &&
    (previous.messageId ?? null) === (chunk.messageId ?? null) &&
    previous.content.type === 'text' &&
    chunk.content.type === 'text'
  ) {
    const merged: ContentBlock = {
      ...previous.content,
      text: (previous.content as { text: string }).text + (chunk.content as { text: string }).text,
    } as ContentBlock;
    out[out.length - 1] = { ...previous, content: merged } as Chunk;
    return;
  }
  out.push({ ...chunk });
}
