/**
 * Turns a session's log into the history a client gets when it opens the session again: the
 * conversation in order (each message whole, at its first position), each tool call once in its
 * final state, then the last plan, usage and session info. Tool calls the agent never finished (it
 * was killed) are replayed as failed; terminals are gone by then, so a tool call shows the output
 * that was captured instead.
 */
import type {
  AgentEvent,
  ContentBlock,
  MessageEvent,
  SessionInfoEvent,
  ToolCallEvent,
  ToolContent,
} from '../core/events.js';
import { eventsOf } from './log-events.js';
import type { SessionRecord } from './store.js';

const INTERRUPTED = 'Interrupted: the agent stopped before this tool call finished.';
const FINAL = new Set(['completed', 'failed', 'cancelled']);

/** Appends a block to a message, merging text into a text block just before it. */
function appendBlock(message: MessageEvent, block: ContentBlock): void {
  const last = message.content[message.content.length - 1];
  if (last?.type === 'text' && block.type === 'text') {
    message.content[message.content.length - 1] = {
      ...last,
      text: (last as { text: string }).text + (block as { text: string }).text,
    } as ContentBlock;
  } else {
    message.content.push(block);
  }
}

/** Applies a tool-call patch: `undefined` keeps a field, `null` resets it, a value replaces it. */
function patchCall(call: ToolCallEvent, patch: ToolCallEvent): void {
  const { type: _type, toolCallId: _id, isNew: _new, meta: _liveMeta, ...fields } = patch;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (value === null) delete (call as unknown as Record<string, unknown>)[key];
    else (call as unknown as Record<string, unknown>)[key] = value;
  }
}

function capturedOutput(output: string | undefined, rawOutput: unknown): ToolContent {
  const fromRaw = (rawOutput as { output?: unknown } | undefined)?.output;
  const text = output ?? (typeof fromRaw === 'string' ? fromRaw : undefined);
  return {
    type: 'content',
    content: { type: 'text', text: text ? '```\n' + text + '\n```' : '(terminal output not kept)' },
  };
}

/**
 * Replayable events from `records` (of either log format).
 *
 * @example
 * await session.replay(replayEvents(store.readRecords(id)));
 */
export function replayEvents(records: readonly SessionRecord[]): AgentEvent[] {
  const out: AgentEvent[] = [];
  const messages = new Map<string, MessageEvent>();
  const calls = new Map<string, ToolCallEvent>();
  const outputs = new Map<string, string>();
  /** Latest-only events, in the order each kind first appeared. */
  const latest = new Map<string, AgentEvent>();
  let info: Omit<SessionInfoEvent, 'type'> = {};

  for (const event of eventsOf(records)) {
    switch (event.type) {
      case 'message':
      case 'message_chunk': {
        const key = `${event.role}:${event.messageId}`;
        let message = messages.get(key);
        if (!message) {
          message = { type: 'message', role: event.role, messageId: event.messageId, content: [] };
          messages.set(key, message);
          out.push(message);
        }
        if (event.type === 'message') message.content = [];
        for (const block of event.type === 'message' ? event.content : [event.content])
          appendBlock(message, block);
        break;
      }
      case 'tool_call': {
        const known = calls.get(event.toolCallId);
        if (known && !event.isNew) {
          patchCall(known, event);
        } else {
          const { meta: _liveMeta, ...call } = event;
          const fresh: ToolCallEvent = { ...call, isNew: true };
          calls.set(event.toolCallId, fresh);
          out.push(fresh);
        }
        break;
      }
      case 'tool_call_chunk': {
        const call = calls.get(event.toolCallId);
        if (call) call.content = [...(call.content ?? []), event.content];
        break;
      }
      case 'terminal':
        if (event.output !== undefined) outputs.set(event.terminalId, event.output);
        break;
      case 'plan':
      case 'usage':
        latest.set(event.type, event);
        break;
      case 'session_info': {
        const { type: _type, ...fields } = event;
        info = { ...info, ...fields };
        break;
      }
      case 'compaction':
      case 'compaction_chunk':
        out.push(event);
        break;
      default:
        // Live-only state (notices, commands, config options, foreground state, raw output).
        break;
    }
  }

  for (const call of calls.values()) {
    if (!FINAL.has(call.status ?? 'pending')) {
      call.status = 'failed';
      call.content = [
        ...(call.content ?? []),
        { type: 'content', content: { type: 'text', text: INTERRUPTED } },
      ];
    }
    delete call.cancellable;
    if (call.content?.some((item) => item.type === 'terminal')) {
      call.content = call.content.map((item) =>
        item.type === 'terminal' ? capturedOutput(outputs.get(item.terminalId), call.rawOutput) : item,
      );
    }
  }
  out.push(...latest.values());
  if (info.title !== undefined || info.updatedAt !== undefined) {
    out.push({ type: 'session_info', title: info.title ?? null, updatedAt: info.updatedAt ?? null });
  }
  return out;
}
