/**
 * View models for tool calls and terminals: the ACP shapes plus what only the client knows
 * (a call cancelled with its turn, a terminal's command line and output).
 */
import { resolve } from 'node:path';
import type { TerminalView, ToolCallContent, ToolCallItem } from '@acp-kit/client';
import {
  isUnknownVariant,
  type ToolCall,
  type ToolCallLocation,
  type ToolCallStatus,
  type ToolCallUpdate,
  type ToolKind,
} from '@acp-kit/protocol';
import { sanitizeInline } from '../sanitize/sanitize-text.js';
/**
 * A tool call's status as shown: the ACP statuses plus `cancelled`, which the client sets on
 * calls left unfinished when their turn is cancelled. Unknown statuses from newer agents are kept.
 */
export type ToolCallDisplayStatus = ToolCallStatus | 'cancelled';

/**
 * Where a snippet diff is in its file (found by the client engine): its first line (null: not
 * found), whether `oldText` is the whole file, and whether it reaches the file's end.
 */
export interface DiffPlacementView {
  readonly line: number | null;
  readonly wholeFile: boolean;
  readonly atEnd: boolean;
}

/** A tool call as the UI shows it. */
export interface ToolCallView {
  readonly toolCallId: string;
  readonly title: string;
  readonly kind: ToolKind;
  readonly status: ToolCallDisplayStatus;
  readonly content: readonly ToolCallContent[];
  /** Where each diff of `content` is in its file (same indexes); absent: diffs are whole files. */
  readonly diffPlacements?: readonly (DiffPlacementView | null)[];
  readonly locations: readonly ToolCallLocation[];
  readonly rawInput?: unknown;
  readonly rawOutput?: unknown;
  /** Running, and the agent can stop it alone (its `capabilities.cancel`, ACP v2). */
  readonly cancellable?: boolean;
}

/**
 * A tool call's status as shown: the one the client set wins; a call still `pending` whose
 * permission was allowed runs (GitHub Copilot never says `in_progress`).
 */
export function displayStatus(item: ToolCallItem): ToolCallDisplayStatus {
  if (item.clientStatus) return item.clientStatus;
  return (item.status === 'pending' && item.allowed === true ? 'in_progress' : item.status) as ToolCallStatus;
}

/** A tool call item of the transcript as a card. */
export function toolCallView(item: ToolCallItem): ToolCallView {
  return {
    toolCallId: item.toolCallId,
    title: item.title,
    kind: item.toolKind as ToolKind,
    status: displayStatus(item),
    content: item.content,
    ...(item.diffPlacements ? { diffPlacements: item.diffPlacements } : {}),
    locations: item.locations,
    rawInput: item.rawInput,
    rawOutput: item.rawOutput,
    ...(isCancellable(item) ? { cancellable: true } : {}),
  };
}

/** Whether a tool call is running and can be stopped alone (the agent said so, ACP v2). */
export function isCancellable(item: ToolCallItem): boolean {
  const status = displayStatus(item);
  return item.capabilities?.cancel === true && (status === 'in_progress' || status === 'pending');
}

/** An engine terminal as shown in a card. */
export function terminalSnapshot(view: TerminalView): TerminalSnapshot {
  return {
    terminalId: view.terminalId,
    ...(view.command !== undefined ? { command: view.command } : {}),
    ...(view.cwd !== undefined ? { cwd: view.cwd } : {}),
    output: view.output,
    truncated: view.truncated,
    ...(view.exitStatus ? { exit: view.exitStatus } : {}),
    ...(view.released ? { released: true } : {}),
    // A terminal the agent reports through `_meta` (v1 adapters) may never say it exited; one whose
    // end the agent reports (ACP v2, see `reportsExit`) always does, even long after its call.
    ...(view.origin === 'agent' && view.reportsExit !== true ? { byAgent: true } : {}),
  };
}

/**
 * Whether a terminal is still running as its card shows it: until it exits or is released; a
 * terminal the agent runs itself also ends with its tool call (the agent says no more about it:
 * a cancelled call, or an agent that died, often leaves it without an exit status).
 */
export function terminalRuns(terminal: TerminalSnapshot, callStatus: ToolCallDisplayStatus): boolean {
  if (terminal.exit || terminal.released) return false;
  return !(terminal.byAgent === true && isFinishedStatus(callStatus));
}

/**
 * Builds the view of a `tool_call` update (defaults: kind `other`, status `pending`).
 *
 * @example
 * toolCallViewFromToolCall({ toolCallId: 't1', title: 'Read a.ts', kind: 'read' });
 */
export function toolCallViewFromToolCall(call: ToolCall): ToolCallView {
  return {
    toolCallId: call.toolCallId,
    title: call.title,
    kind: call.kind ?? 'other',
    status: call.status ?? 'pending',
    content: call.content ?? [],
    locations: call.locations ?? [],
    rawInput: call.rawInput,
    rawOutput: call.rawOutput,
  };
}

/**
 * Applies a `tool_call_update` (or the tool call carried by a permission request) to a view:
 * `content` and `locations` replace, other fields patch, `null` leaves a field unchanged. Without
 * a previous view (a call never announced) the update's own fields are used.
 */
export function applyToolCallUpdate(
  previous: ToolCallView | undefined,
  update: ToolCallUpdate,
): ToolCallView {
  const base: ToolCallView = previous ?? {
    toolCallId: update.toolCallId,
    title: '',
    kind: 'other',
    status: 'pending',
    content: [],
    locations: [],
  };
  return {
    ...base,
    title: update.title ?? base.title,
    kind: update.kind ?? base.kind,
    status: update.status ?? base.status,
    content: update.content ?? base.content,
    locations: update.locations ?? base.locations,
    rawInput: update.rawInput !== undefined && update.rawInput !== null ? update.rawInput : base.rawInput,
    rawOutput:
      update.rawOutput !== undefined && update.rawOutput !== null ? update.rawOutput : base.rawOutput,
  };
}

/**
 * The locations a card lists: those of files its diffs do not show already (a diff's header names
 * its file and the line it changes, where an agent's location may name the snippet's first line).
 */
export function cardLocations(call: ToolCallView, cwd = '/'): readonly ToolCallLocation[] {
  const diffed = new Set<string>();
  for (const item of call.content)
    if (!isUnknownVariant(item) && item.type === 'diff') diffed.add(resolve(cwd, item.path));
  if (diffed.size === 0) return call.locations;
  return call.locations.filter((location) => !diffed.has(resolve(cwd, location.path)));
}

/** Rows a folded card's title, and its command, take at most (expanded or printed settled, they are shown in full). */
export const FOLDED_CARD_TEXT_ROWS = 2;

/** The title a card shows: the agent's, else the kind of the call. */
export function cardTitle(call: ToolCallView): string {
  return sanitizeInline(call.title).trim() || String(call.kind);
}

/** True for statuses after which the call changes no more (unless the agent sends late updates). */
export function isFinishedStatus(status: ToolCallDisplayStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** How a terminal ended (`terminal/wait_for_exit`); both fields absent while it runs. */
export interface TerminalExit {
  readonly exitCode?: number | null;
  readonly signal?: string | null;
}

/** A terminal as the UI shows it: kept after `terminal/release` so its output is not lost. */
export interface TerminalSnapshot {
  readonly terminalId: string;
  /** The command and its arguments as requested, shown in full. */
  readonly command?: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  /** Output retained so far (raw: it is sanitized when rendered). */
  readonly output: string;
  /** Earlier output was dropped to respect the byte limit. */
  readonly truncated: boolean;
  /** Set once the command has exited. */
  readonly exit?: TerminalExit;
  /** The agent released the terminal. */
  readonly released?: boolean;
  /** The agent runs it itself (it reports it through `_meta`), not the client. */
  readonly byAgent?: boolean;
}
