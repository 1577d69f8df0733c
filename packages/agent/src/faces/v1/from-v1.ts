/**
 * v1 `session/update`s into the agent's events: how session logs of format 1 (which stored the v1
 * updates as sent) are read. Nothing is lost that the agent had stored: messages keep their ids
 * (a chunk without one joins the message of the chunks of the same role just before it), a
 * `tool_call` is a new call, a `plan` is the session's one plan.
 */
import {
  isUnknownVariant,
  type SessionUpdate,
  type ToolCallContent,
  type ToolCallStatus,
  type ToolKind,
} from '@acp-kit/protocol';
import type {
  AgentEvent,
  MessageRole,
  ToolCallEvent,
  ToolCallStatus as Status,
  ToolContent,
  ToolKind as Kind,
} from '../../core/events.js';

/** v1's one plan per session. */
export const V1_PLAN_ID = 'plan';

const ROLES = {
  user_message_chunk: 'user',
  agent_message_chunk: 'agent',
  agent_thought_chunk: 'thought',
} as const satisfies Record<string, MessageRole>;

const KINDS = new Set<string>([
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
]);
const STATUSES = new Set<string>(['pending', 'in_progress', 'completed', 'failed']);

/** `value` when it is one of `known`, else `fallback` (a v1 log may hold values a newer peer sent). */
function oneOf<T extends string>(value: string, known: readonly T[], fallback: T): T {
  return (known as readonly string[]).includes(value) ? (value as T) : fallback;
}

function kindOf(kind: ToolKind | null | undefined): Kind | null | undefined {
  if (kind === undefined || kind === null) return kind;
  return KINDS.has(kind) ? (kind as Kind) : 'other';
}

function statusOf(status: ToolCallStatus | null | undefined): Status | null | undefined {
  if (status === undefined || status === null) return status;
  return STATUSES.has(status) ? (status as Status) : undefined;
}

/** v1 tool-call content in the model; unknown kinds of content are left out. */
export function toolContentFromV1(items: readonly ToolCallContent[]): ToolContent[] {
  const out: ToolContent[] = [];
  for (const item of items) {
    if (isUnknownVariant(item)) continue;
    if (item.type === 'content') out.push({ type: 'content', content: item.content });
    else if (item.type === 'terminal') out.push({ type: 'terminal', terminalId: item.terminalId });
    else {
      const oldText = item.oldText ?? null;
      out.push({
        type: 'diff',
        files: [
          { path: item.path, operation: oldText === null ? 'add' : 'modify', oldText, newText: item.newText },
        ],
      });
    }
  }
  return out;
}

/** Remembers the message id given to chunks that came without one. */
export class V1MessageIds {
  private last: { role: MessageRole; id: string } | undefined;
  private count = 0;

  /** The chunk's own id, or the one of the run of chunks of `role` it continues. */
  idFor(role: MessageRole, messageId: string | null | undefined): string {
    if (messageId) {
      this.last = undefined;
      return messageId;
    }
    if (this.last?.role !== role) this.last = { role, id: `v1-message-${++this.count}` };
    return this.last.id;
  }

  /** Anything but a chunk ends a run. */
  interrupt(): void {
    this.last = undefined;
  }
}

/**
 * The event a stored v1 update stands for, or undefined for what the agent never stored (current
 * state: commands, modes, config options) and variants it does not know.
 */
export function fromV1Update(update: SessionUpdate, ids: V1MessageIds): AgentEvent | undefined {
  if (isUnknownVariant(update)) return undefined;
  switch (update.sessionUpdate) {
    case 'user_message_chunk':
    case 'agent_message_chunk':
    case 'agent_thought_chunk': {
      const role = ROLES[update.sessionUpdate];
      return {
        type: 'message_chunk',
        role,
        messageId: ids.idFor(role, update.messageId),
        content: update.content,
      };
    }
    case 'tool_call':
    case 'tool_call_update': {
      ids.interrupt();
      const event: ToolCallEvent = { type: 'tool_call', toolCallId: update.toolCallId };
      if (update.sessionUpdate === 'tool_call') event.isNew = true;
      if (update.title !== undefined) event.title = update.title;
      const kind = kindOf(update.kind);
      if (kind !== undefined) event.kind = kind;
      const status = statusOf(update.status);
      if (status !== undefined) event.status = status;
      if (update.content !== undefined)
        event.content = update.content === null ? null : toolContentFromV1(update.content);
      if (update.locations !== undefined) event.locations = update.locations;
      if (update.rawInput !== undefined) event.rawInput = update.rawInput;
      if (update.rawOutput !== undefined) event.rawOutput = update.rawOutput;
      if (update._meta !== undefined) event.meta = update._meta;
      return event;
    }
    case 'plan':
      ids.interrupt();
      return {
        type: 'plan',
        planId: V1_PLAN_ID,
        entries: update.entries.map((entry) => ({
          content: entry.content,
          priority: oneOf(entry.priority, ['high', 'medium', 'low'], 'medium'),
          status: oneOf(entry.status, ['pending', 'in_progress', 'completed'], 'pending'),
        })),
      };
    case 'usage_update':
      ids.interrupt();
      return { type: 'usage', used: update.used, size: update.size, cost: update.cost };
    case 'session_info_update':
      ids.interrupt();
      // Only what the update says: a field it leaves out is unchanged, not reset.
      return {
        type: 'session_info',
        ...(update.title !== undefined ? { title: update.title } : {}),
        ...(update.updatedAt !== undefined ? { updatedAt: update.updatedAt } : {}),
      };
    case 'notice':
      return {
        type: 'notice',
        severity: oneOf(update.severity, ['info', 'warning', 'error'], 'info'),
        title: update.title,
        description: update.description,
      };
    case 'compaction_update':
      ids.interrupt();
      return {
        type: 'compaction',
        compactionId: update.compactionId,
        status: oneOf(update.status, ['in_progress', 'completed', 'failed', 'cancelled'], 'in_progress'),
        ...(update.error !== undefined ? { error: update.error } : {}),
      };
    case 'compaction_summary_chunk':
      ids.interrupt();
      return { type: 'compaction_chunk', compactionId: update.compactionId, content: update.content };
    default:
      return undefined;
  }
}
