/**
 * Folds one `session/update` into a draft state: every stable v1 variant, unknown variants kept
 * raw, and the `_meta` terminal side channel of the Claude, Codex and pi adapters.
 */
import {
  isUnknownVariant,
  type ContentBlock,
  type SessionUpdate,
  type ToolCallUpdate,
} from '@acp-kit/protocol';
import { isRecord } from '../util/json-file.js';
import type { Draft } from './draft.js';
import type { DiffPlacement } from './diff-placement.js';
import type { CompactionItem, MessageItem, TerminalView, ToolCallItem } from './state.js';
import { agentTerminalKey } from './tool-terminals.js';

/** Characters of terminal output kept per terminal in the state (the newest win). */
export const TERMINAL_VIEW_CHARS = 256 * 1024;

type Role = MessageItem['role'];

/** Applies `update` (received during turn `turn`) to `d`. */
export function applyUpdate(
  d: Draft,
  update: SessionUpdate,
  turn: number,
  replay: boolean,
  diffPlacements?: readonly (DiffPlacement | null)[],
): void {
  d.state.updateCount++;
  if (isUnknownVariant(update)) {
    const kind = String(update.sessionUpdate);
    if (!d.state.unknownKinds.includes(kind)) d.state.unknownKinds = [...d.state.unknownKinds, kind];
    d.push({ kind: 'unknown', turn, update });
    return;
  }
  switch (update.sessionUpdate) {
    case 'user_message_chunk':
      appendChunk(d, 'user', update.content, update.messageId ?? undefined, turn, replay);
      break;
    case 'agent_message_chunk':
      appendChunk(d, 'agent', update.content, update.messageId ?? undefined, turn, replay);
      break;
    case 'agent_thought_chunk':
      appendChunk(d, 'thought', update.content, update.messageId ?? undefined, turn, replay);
      break;
    case 'tool_call':
    case 'tool_call_update':
      mergeToolCall(d, update, update.sessionUpdate === 'tool_call', turn, replay, diffPlacements);
      break;
    case 'plan':
      d.state.plan = update.entries;
      break;
    case 'available_commands_update':
      d.state.commands = update.availableCommands;
      break;
    case 'current_mode_update':
      d.state.modes = d.state.modes
        ? { ...d.state.modes, currentModeId: update.currentModeId }
        : { currentModeId: update.currentModeId, availableModes: [] };
      break;
    case 'config_option_update':
      d.state.configOptions = update.configOptions;
      break;
    case 'session_info_update':
      if (update.title !== undefined) d.state.title = update.title ?? undefined;
      if (update.updatedAt !== undefined) d.state.updatedAt = update.updatedAt ?? undefined;
      break;
    case 'usage_update':
      d.state.usage = {
        used: (update.used as number | null | undefined) ?? null,
        size: update.size,
        // The cost is the session's total so far: an update without one (Claude sends the cost
        // only as a turn ends) leaves it as it was.
        cost: update.cost ?? d.state.usage?.cost ?? null,
      };
      break;
    case 'notice':
      d.push({
        kind: 'notice',
        turn,
        severity: String(update.severity),
        title: update.title,
        ...(update.description ? { description: update.description } : {}),
      });
      break;
    case 'compaction_update':
      updateCompaction(d, update.compactionId, turn, (item) => ({
        ...item,
        status: String(update.status),
        ...(update.summary ? { summary: update.summary } : {}),
        ...(update.error ? { error: update.error } : {}),
      }));
      break;
    case 'compaction_summary_chunk':
      updateCompaction(d, update.compactionId, turn, (item) => ({
        ...item,
        summary: appendBlock(item.summary, update.content),
      }));
      break;
  }
  applyTerminalMeta(d, (update as { _meta?: unknown })._meta, update);
}

function appendChunk(
  d: Draft,
  role: Role,
  block: ContentBlock,
  messageId: string | undefined,
  turn: number,
  replay: boolean,
): void {
  if (isEmptyText(block)) return;
  const items = d.state.items;
  let index: number | undefined;
  if (messageId !== undefined) {
    index = d.state.messageIndex[`${role}:${messageId}`];
    // An id reused in a later turn starts a new message (the earlier one is printed and done).
    if (index !== undefined && fromEarlierTurn(d, index, turn, replay)) index = undefined;
  } else {
    const last = items[items.length - 1];
    if (last?.kind === 'message' && last.role === role) index = items.length - 1;
  }
  if (index === undefined) {
    const created = d.push({
      kind: 'message',
      role,
      turn,
      content: [block],
      ...(messageId !== undefined ? { messageId } : {}),
      ...(replay ? { replay } : {}),
    });
    if (messageId !== undefined) d.messageIndex()[`${role}:${messageId}`] = created;
    return;
  }
  const writable = d.items();
  const item = writable[index] as MessageItem;
  writable[index] = { ...item, content: appendBlock(item.content, block) };
}

function isEmptyText(block: ContentBlock): boolean {
  return (block as { type?: unknown }).type === 'text' && (block as { text?: unknown }).text === '';
}

/**
 * Characters of text merged into one block: a longer text goes on in the next block. Appending
 * to a string is cheap, but reading a string appended to (slicing, matching) copies all of it:
 * a reader that takes only what arrived then copies at most this much, however long the message.
 */
export const MAX_MERGED_TEXT_CHARS = 64 * 1024;

/** Appends a block, merging consecutive plain text (up to {@link MAX_MERGED_TEXT_CHARS} per block). */
export function appendBlock(content: readonly ContentBlock[], block: ContentBlock): ContentBlock[] {
  const last = content[content.length - 1];
  if (
    last &&
    (last as { type?: unknown }).type === 'text' &&
    (block as { type?: unknown }).type === 'text' &&
    !hasExtras(last) &&
    !hasExtras(block) &&
    (last as { text: string }).text.length < MAX_MERGED_TEXT_CHARS
  ) {
    const merged = {
      type: 'text',
      text: (last as { text: string }).text + (block as { text: string }).text,
    } as ContentBlock;
    return [...content.slice(0, -1), merged];
  }
  return [...content, block];
}

function hasExtras(block: ContentBlock): boolean {
  const b = block as { annotations?: unknown; _meta?: unknown };
  return (
    (b.annotations !== undefined && b.annotations !== null) || (b._meta !== undefined && b._meta !== null)
  );
}

function mergeToolCall(
  d: Draft,
  update: ToolCallUpdate,
  announce: boolean,
  turn: number,
  replay: boolean,
  diffPlacements: readonly (DiffPlacement | null)[] | undefined,
): void {
  const id = update.toolCallId;
  let index = d.state.toolCallIndex[id];
  // Ids are scoped per turn: a `tool_call` reusing the id of an earlier turn's call is a new call
  // (some agents number their calls per turn). Updates go to the latest call with the id.
  if (index !== undefined && announce && fromEarlierTurn(d, index, turn, replay)) index = undefined;
  if (index === undefined) {
    const item: Omit<ToolCallItem, 'key'> = {
      kind: 'tool_call',
      turn,
      toolCallId: id,
      title: update.title ?? 'Tool call',
      toolKind: String(update.kind ?? 'other'),
      status: String(update.status ?? 'pending'),
      content: update.content ?? [],
      locations: update.locations ?? [],
      announced: announce,
    };
    if (item.status === 'failed' && d.state.status === 'cancelling') item.clientStatus = 'cancelled';
    if (diffPlacements && update.content) item.diffPlacements = diffPlacements;
    if (update.rawInput !== undefined) item.rawInput = update.rawInput;
    if (update.rawOutput !== undefined) item.rawOutput = update.rawOutput;
    if (update.name) item.name = update.name;
    if (isRecord(update._meta)) item.meta = update._meta;
    if (replay) item.replay = true;
    d.toolCallIndex()[id] = d.push(item);
    return;
  }
  const items = d.items();
  const old = items[index] as ToolCallItem;
  const next: ToolCallItem = { ...old };
  if (announce) next.announced = true;
  if (update.title !== undefined && update.title !== null) next.title = update.title;
  if (update.kind !== undefined && update.kind !== null) next.toolKind = String(update.kind);
  if (update.status !== undefined && update.status !== null) {
    next.status = String(update.status);
    // ACP has no "cancelled" status: agents end a call their cancelled turn interrupted with
    // `failed`, which stays shown as cancelled. A call that completed after all did complete.
    const cancelled = old.clientStatus === 'cancelled' || d.state.status === 'cancelling';
    if (next.status === 'failed' && cancelled) next.clientStatus = 'cancelled';
    else if (next.status === 'completed' || next.status === 'failed') delete next.clientStatus;
  }
  if (update.content !== undefined && update.content !== null) {
    next.content = update.content;
    if (diffPlacements) next.diffPlacements = diffPlacements;
    else delete next.diffPlacements;
  }
  if (update.locations !== undefined && update.locations !== null) next.locations = update.locations;
  if (update.rawInput !== undefined) next.rawInput = update.rawInput;
  if (update.rawOutput !== undefined) next.rawOutput = update.rawOutput;
  if (update.name) next.name = update.name;
  if (isRecord(update._meta)) next.meta = { ...(old.meta ?? {}), ...update._meta };
  items[index] = next;
}

/**
 * A permission request about a tool call the agent did not announce in this turn (Qwen Code sends
 * none for the calls it asks about) starts its card with the request's title, kind, content and
 * locations; the agent's later updates change it as usual. Calls already shown are left as they are.
 */
export function cardFromPermissionRequest(
  d: Draft,
  toolCall: ToolCallUpdate,
  turn: number,
  diffPlacements: readonly (DiffPlacement | null)[] | undefined,
): void {
  const id = toolCall.toolCallId;
  const index = d.state.toolCallIndex[id];
  if (index !== undefined) {
    if (!fromEarlierTurn(d, index, turn, false)) return;
    // An id an earlier turn used: this request is about a new call.
    delete d.toolCallIndex()[id];
  }
  mergeToolCall(d, { ...toolCall, status: 'pending' }, false, turn, false, diffPlacements);
}

/**
 * Whether the item at `index` belongs to an earlier turn than `turn`. Replayed history (one turn
 * number for all of it) is split at the user's messages instead.
 */
function fromEarlierTurn(d: Draft, index: number, turn: number, replay: boolean): boolean {
  const items = d.state.items;
  const item = items[index];
  if (!item) return false;
  if (item.turn < turn) return true;
  if (!replay) return false;
  for (let i = index + 1; i < items.length; i++) {
    const later = items[i];
    if (later?.kind === 'message' && later.role === 'user') return true;
  }
  return false;
}

function updateCompaction(
  d: Draft,
  compactionId: string,
  turn: number,
  change: (item: CompactionItem) => CompactionItem,
): void {
  const items = d.state.items;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item?.kind === 'compaction' && item.compactionId === compactionId) {
      d.items()[i] = change(item);
      return;
    }
  }
  const index = d.push({ kind: 'compaction', turn, compactionId, status: 'in_progress', summary: [] });
  const created = d.items()[index] as CompactionItem;
  d.items()[index] = change(created);
}

/**
 * The `_meta.terminal_info / terminal_output / terminal_exit` convention (snake_case fields). The
 * terminal belongs to the tool call the update is about (see `toolCallTerminal`).
 */
function applyTerminalMeta(d: Draft, meta: unknown, update: SessionUpdate): void {
  if (!isRecord(meta)) return;
  const info = meta.terminal_info;
  const output = meta.terminal_output;
  const exit = meta.terminal_exit;
  if (!isRecord(info) && !isRecord(output) && !isRecord(exit)) return;
  const toolCallId = (update as { toolCallId?: unknown }).toolCallId;
  const index = typeof toolCallId === 'string' ? d.state.toolCallIndex[toolCallId] : undefined;
  const owner = index === undefined ? undefined : d.state.items[index];
  const ownerKey = owner?.kind === 'tool_call' ? owner.key : undefined;
  const change = (id: unknown, apply: (view: TerminalView) => TerminalView): void => {
    if (typeof id !== 'string' || id === '') return;
    const key = ownerKey === undefined ? id : agentTerminalKey(ownerKey, id);
    const view = d.state.terminals[key] ?? {
      terminalId: id,
      origin: 'agent',
      output: '',
      truncated: false,
      ...(typeof toolCallId === 'string' ? { toolCallId } : {}),
      ...(ownerKey !== undefined ? { toolCallKey: ownerKey } : {}),
    };
    d.terminals()[key] = apply(view);
  };
  if (isRecord(info)) {
    change(info.terminal_id, (view) => ({
      ...view,
      ...(typeof info.cwd === 'string' ? { cwd: info.cwd } : {}),
      ...(typeof info.command === 'string' ? { command: info.command } : {}),
    }));
  }
  if (isRecord(output) && typeof output.data === 'string') {
    const data = output.data;
    change(output.terminal_id, (view) => appendOutput(view, data));
  }
  if (isRecord(exit)) {
    change(exit.terminal_id, (view) => ({
      ...view,
      exitStatus: {
        exitCode: typeof exit.exit_code === 'number' ? exit.exit_code : null,
        signal: typeof exit.signal === 'string' ? exit.signal : null,
      },
    }));
  }
}

/**
 * Appends output to a terminal view, keeping the newest {@link TERMINAL_VIEW_CHARS} (up to twice
 * that between two cuts: cutting at every chunk copied the whole view each time, a large string
 * per chunk that only a full collection frees — a flood of output then grew memory by 100+ MiB).
 */
export function appendOutput(view: TerminalView, data: string): TerminalView {
  let output = view.output + data;
  let truncated = view.truncated;
  if (output.length > 2 * TERMINAL_VIEW_CHARS) {
    let start = output.length - TERMINAL_VIEW_CHARS;
    // Do not start in the middle of a surrogate pair.
    const code = output.charCodeAt(start);
    if (code >= 0xdc00 && code <= 0xdfff) start++;
    output = output.slice(start);
    truncated = true;
  }
  return { ...view, output, truncated };
}
