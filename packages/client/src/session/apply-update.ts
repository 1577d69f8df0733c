/**
 * Folds one model update ({@link AgentUpdate}, whatever protocol version it came in) into a draft
 * state. The faces (`protocol-v1/`, …) translate wire updates; nothing here knows a version.
 */
import type { ContentBlock } from '@acp-kit/protocol';
import type { AgentUpdate, ToolCallPatch, ToolCallSubject } from '../model/agent-update.js';
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
  update: AgentUpdate,
  turn: number,
  replay: boolean,
  diffPlacements?: readonly (DiffPlacement | null)[],
): void {
  d.state.updateCount++;
  switch (update.kind) {
    case 'message_chunk':
      appendChunk(d, update.role, update.content, update.messageId, turn, replay);
      return;
    case 'message':
      replaceMessage(d, update.role, update.messageId, update.content, turn, replay);
      return;
    case 'tool_call':
      mergeToolCall(d, update.toolCallId, update.patch, update.newInstance, turn, replay, diffPlacements);
      return;
    case 'tool_call_chunk':
      appendToolCallContent(d, update.toolCallId, update.content, turn, replay);
      return;
    case 'terminal': {
      const { kind: _kind, meta: _meta, terminalId, owner, toolCallId, output, ...fields } = update;
      let ended: TerminalView | undefined;
      changeTerminal(d, terminalId, owner, toolCallId, (view) => {
        const next = { ...view, ...fields };
        if (fields.exitStatus && !view.exitStatus) ended = next;
        return output === undefined ? next : appendOutput({ ...next, output: '', truncated: false }, output);
      });
      // Work that went on after its turn (v2 background work): its card is printed already, so
      // its end is said where the session is now.
      if (ended && d.state.status === 'idle' && !replay) {
        d.push({ kind: 'info', turn, text: backgroundEnd(ended) });
      }
      return;
    }
    case 'terminal_output': {
      const data = update.data;
      changeTerminal(d, update.terminalId, 'agent', update.toolCallId, (view) => appendOutput(view, data));
      return;
    }
    case 'foreground':
      d.state.foreground = update.state;
      if (update.background) d.state.background = update.background;
      return;
    case 'plan':
      d.state.plan = update.entries;
      return;
    case 'commands':
      d.state.commands = update.commands;
      return;
    case 'mode':
      d.state.modes = d.state.modes
        ? { ...d.state.modes, currentModeId: update.currentModeId }
        : { currentModeId: update.currentModeId, availableModes: [] };
      return;
    case 'config_options':
      d.state.configOptions = update.configOptions;
      return;
    case 'session_info':
      if (update.title !== undefined) d.state.title = update.title ?? undefined;
      if (update.updatedAt !== undefined) d.state.updatedAt = update.updatedAt ?? undefined;
      return;
    case 'usage':
      d.state.usage = {
        used: update.used,
        size: update.size,
        // The cost is the session's total so far: an update without one (Claude sends the cost
        // only as a turn ends) leaves it as it was.
        cost: update.cost ?? d.state.usage?.cost ?? null,
      };
      return;
    case 'notice':
      d.push({
        kind: 'notice',
        turn,
        severity: update.severity,
        title: update.title,
        ...(update.description ? { description: update.description } : {}),
      });
      return;
    case 'compaction':
      updateCompaction(d, update.compactionId, turn, (item) => ({
        ...item,
        ...(update.status !== undefined ? { status: update.status } : {}),
        ...(update.summary ? { summary: update.summary } : {}),
        ...(update.error ? { error: update.error } : {}),
      }));
      return;
    case 'compaction_chunk':
      updateCompaction(d, update.compactionId, turn, (item) => ({
        ...item,
        summary: appendBlock(item.summary, update.content),
      }));
      return;
    case 'unknown':
      if (!d.state.unknownKinds.includes(update.updateKind))
        d.state.unknownKinds = [...d.state.unknownKinds, update.updateKind];
      d.push({
        kind: 'unknown',
        turn,
        version: update.version,
        updateKind: update.updateKind,
        update: update.raw,
      });
      return;
  }
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
  id: string,
  patch: ToolCallPatch,
  newInstance: boolean,
  turn: number,
  replay: boolean,
  diffPlacements: readonly (DiffPlacement | null)[] | undefined,
): void {
  let index = d.state.toolCallIndex[id];
  // Ids are scoped per turn: a new instance reusing the id of an earlier turn's call is a new call
  // (some agents number their calls per turn). Updates go to the latest call with the id.
  if (index !== undefined && newInstance && fromEarlierTurn(d, index, turn, replay)) index = undefined;
  if (index === undefined) {
    const item: Omit<ToolCallItem, 'key'> = {
      kind: 'tool_call',
      turn,
      toolCallId: id,
      title: patch.title ?? 'Tool call',
      toolKind: patch.kind ?? 'other',
      status: patch.status ?? 'pending',
      content: patch.content ?? [],
      locations: patch.locations ?? [],
      announced: newInstance,
    };
    if (item.status === 'failed' && d.state.status === 'cancelling') item.clientStatus = 'cancelled';
    if (diffPlacements && patch.content) item.diffPlacements = diffPlacements;
    if (patch.rawInput !== undefined) item.rawInput = patch.rawInput;
    if (patch.rawOutput !== undefined) item.rawOutput = patch.rawOutput;
    if (patch.name) item.name = patch.name;
    if (patch.capabilities) item.capabilities = patch.capabilities;
    if (patch.meta) item.meta = patch.meta;
    if (replay) item.replay = true;
    d.toolCallIndex()[id] = d.push(item);
    return;
  }
  const items = d.items();
  const old = items[index] as ToolCallItem;
  const next: ToolCallItem = { ...old };
  if (newInstance) next.announced = true;
  if (patch.title !== undefined && patch.title !== null) next.title = patch.title;
  if (patch.kind !== undefined && patch.kind !== null) next.toolKind = patch.kind;
  if (patch.status !== undefined && patch.status !== null) {
    next.status = patch.status;
    // v1 has no "cancelled" status: agents end a call their cancelled turn interrupted with
    // `failed`, which stays shown as cancelled. A call that completed after all did complete.
    const cancelled = old.clientStatus === 'cancelled' || d.state.status === 'cancelling';
    if (next.status === 'failed' && cancelled) next.clientStatus = 'cancelled';
    else if (next.status === 'completed' || next.status === 'failed' || next.status === 'cancelled')
      delete next.clientStatus;
  }
  if (patch.content !== undefined && patch.content !== null) {
    next.content = patch.content;
    if (diffPlacements) next.diffPlacements = diffPlacements;
    else delete next.diffPlacements;
  }
  if (patch.locations !== undefined && patch.locations !== null) next.locations = patch.locations;
  if (patch.rawInput !== undefined) next.rawInput = patch.rawInput;
  if (patch.rawOutput !== undefined) next.rawOutput = patch.rawOutput;
  if (patch.name) next.name = patch.name;
  if (patch.capabilities !== undefined) {
    if (patch.capabilities === null) delete next.capabilities;
    else next.capabilities = patch.capabilities;
  }
  if (patch.meta) next.meta = { ...(old.meta ?? {}), ...patch.meta };
  items[index] = next;
}

/** Appends a piece of content to a tool call (a call not seen yet is started). */
function appendToolCallContent(
  d: Draft,
  id: string,
  content: ToolCallItem['content'][number],
  turn: number,
  replay: boolean,
): void {
  const index = d.state.toolCallIndex[id];
  const old = index === undefined ? undefined : (d.state.items[index] as ToolCallItem);
  mergeToolCall(
    d,
    id,
    { content: [...(old?.content ?? []), content] },
    false,
    turn,
    replay,
    old?.diffPlacements,
  );
}

/** Replaces the content of the message `messageId` (a message not seen yet is inserted). */
function replaceMessage(
  d: Draft,
  role: Role,
  messageId: string,
  content: readonly ContentBlock[],
  turn: number,
  replay: boolean,
): void {
  const index = d.state.messageIndex[`${role}:${messageId}`];
  if (index === undefined) {
    const created = d.push({
      kind: 'message',
      role,
      turn,
      content,
      messageId,
      ...(replay ? { replay } : {}),
    });
    d.messageIndex()[`${role}:${messageId}`] = created;
    return;
  }
  const writable = d.items();
  writable[index] = { ...(writable[index] as MessageItem), content };
}

/**
 * A permission request about a tool call the agent did not announce in this turn (Qwen Code sends
 * none for the calls it asks about) starts its card with the request's title, kind, content and
 * locations; the agent's later updates change it as usual. Calls already shown are left as they are.
 */
export function cardFromPermissionRequest(
  d: Draft,
  toolCall: ToolCallSubject,
  turn: number,
  diffPlacements: readonly (DiffPlacement | null)[] | undefined,
): void {
  const { toolCallId: id, ...patch } = toolCall;
  const index = d.state.toolCallIndex[id];
  if (index !== undefined) {
    if (!fromEarlierTurn(d, index, turn, false)) return;
    // An id an earlier turn used: this request is about a new call.
    delete d.toolCallIndex()[id];
  }
  mergeToolCall(d, id, { ...patch, status: 'pending' }, false, turn, false, diffPlacements);
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

/** What is said when a command the agent ran in the background ends. */
function backgroundEnd(view: TerminalView): string {
  const what = view.command
    ? `\`${view.command.length > 80 ? `${view.command.slice(0, 79)}…` : view.command}\``
    : 'a command';
  const exit = view.exitStatus;
  const how =
    exit?.signal != null
      ? `was stopped (${exit.signal})`
      : exit?.exitCode != null
        ? `exited with ${exit.exitCode}`
        : 'ended';
  return `The background command ${what} ${how}.`;
}

/**
 * Changes a terminal reported by the agent. One reported for a tool call belongs to that call's
 * card (see `toolCallTerminal`: a later call with the same id gets a terminal of its own).
 */
function changeTerminal(
  d: Draft,
  terminalId: string,
  owner: TerminalView['origin'],
  toolCallId: string | undefined,
  apply: (view: TerminalView) => TerminalView,
): void {
  const index = toolCallId === undefined ? undefined : d.state.toolCallIndex[toolCallId];
  const call = index === undefined ? undefined : d.state.items[index];
  const ownerKey = call?.kind === 'tool_call' ? call.key : undefined;
  const key = ownerKey === undefined ? terminalId : agentTerminalKey(ownerKey, terminalId);
  const view = d.state.terminals[key] ?? {
    terminalId,
    origin: owner,
    output: '',
    truncated: false,
    ...(toolCallId !== undefined ? { toolCallId } : {}),
    ...(ownerKey !== undefined ? { toolCallKey: ownerKey } : {}),
  };
  d.terminals()[key] = apply(view);
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
