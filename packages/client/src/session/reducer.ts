/**
 * The session reducer: `(state, events) → state`, pure. Snapshots are never mutated; a batch of
 * events copies each touched array once (see {@link Draft}).
 *
 * @example
 * let state = initialSessionState('s1', '/project');
 * state = reduceSession(state, { type: 'update', at: Date.now(), update });
 */
import type { Draft as DraftType } from './draft.js';
import { Draft } from './draft.js';
import { applyUpdate, appendOutput, cardFromPermissionRequest } from './apply-update.js';
import type { ErrorInfo } from '../errors.js';
import type { SessionEvent } from './events.js';
import type { SessionState, ToolCallItem } from './state.js';

/** Applies one event. */
export function reduceSession(state: SessionState, event: SessionEvent): SessionState {
  return reduceSessionEvents(state, [event]);
}

/** Applies events in order (faster than one at a time for replays). */
export function reduceSessionEvents(state: SessionState, events: Iterable<SessionEvent>): SessionState {
  const d = new Draft(state);
  for (const event of events) applyEvent(d, event);
  return d.state;
}

function applyEvent(d: DraftType, event: SessionEvent): void {
  const s = d.state;
  switch (event.type) {
    case 'update':
      applyUpdate(d, event.update, s.turn, event.replay === true, event.diffPlacements);
      if (event.merged !== undefined && event.merged > 1) s.updateCount += event.merged - 1;
      return;
    case 'attached':
      s.agentId = event.agentId;
      s.agentName = event.agentName;
      s.agentSessionId = event.agentSessionId;
      s.attachMode = event.how;
      s.cwd = event.cwd;
      s.additionalDirectories = event.additionalDirectories;
      if (event.modes) s.modes = event.modes;
      if (event.configOptions) s.configOptions = event.configOptions;
      if (s.status === 'disconnected') s.status = 'idle';
      d.push({
        kind: 'attached',
        turn: s.turn,
        agentId: event.agentId,
        agentSessionId: event.agentSessionId,
        how: event.how,
      });
      return;
    case 'prompt':
      // The plan belongs to the turn that sent it: it goes into the transcript, where that turn
      // ended, and a turn without a plan of its own shows none.
      if (s.plan.length > 0) {
        d.push({ kind: 'plan', turn: s.turn, entries: s.plan });
        s.plan = [];
      }
      s.turn = event.turn;
      s.status = 'running';
      s.lastError = undefined;
      s.stalled = undefined;
      d.push({ kind: 'message', role: 'user', turn: event.turn, content: event.prompt });
      return;
    case 'turn_end':
      s.status = 'idle';
      s.stalled = undefined;
      s.lastStopReason = String(event.stopReason);
      if (event.stopReason === 'cancelled') closeOpenToolCalls(d, 'cancelled');
      d.push({ kind: 'stop', turn: event.turn, stopReason: String(event.stopReason) });
      return;
    case 'turn_failed':
      if (s.status !== 'disconnected') s.status = 'idle';
      s.stalled = undefined;
      s.lastError = event.error;
      closeOpenToolCalls(d, 'failed');
      pushError(d, event.turn, event.error);
      return;
    case 'cancel_requested':
      if (s.status === 'running') s.status = 'cancelling';
      closeOpenToolCalls(d, 'cancelled');
      return;
    case 'permission_requested':
      s.pendingPermissions = [...s.pendingPermissions, event.request];
      if (event.toolCall && s.status !== 'idle')
        cardFromPermissionRequest(d, event.toolCall, s.turn, event.diffPlacements);
      return;
    case 'permission_resolved': {
      const request = s.pendingPermissions.find((p) => p.key === event.key);
      s.pendingPermissions = s.pendingPermissions.filter((p) => p.key !== event.key);
      if (!request) return;
      if (event.decision === 'allow' && request.toolCallId !== undefined)
        allowToolCall(d, request.toolCallId);
      const optionId =
        event.outcome?.outcome === 'selected' ? (event.outcome as { optionId: string }).optionId : undefined;
      d.push({
        kind: 'permission',
        turn: s.turn,
        request,
        decision: event.decision,
        by: event.by,
        ...(event.reason ? { reason: event.reason } : {}),
        ...(optionId !== undefined ? { optionId } : {}),
      });
      return;
    }
    case 'mode_set':
      s.modes = s.modes
        ? { ...s.modes, currentModeId: event.modeId }
        : { currentModeId: event.modeId, availableModes: [] };
      return;
    case 'config_options_set':
      s.configOptions = event.configOptions;
      return;
    case 'terminal_started':
      d.terminals()[event.terminalId] = {
        terminalId: event.terminalId,
        origin: 'client',
        command: event.command,
        cwd: event.cwd,
        output: '',
        truncated: false,
      };
      return;
    case 'terminal_output': {
      const view = s.terminals[event.terminalId];
      if (view) d.terminals()[event.terminalId] = appendOutput(view, event.data);
      return;
    }
    case 'terminal_exited': {
      const view = s.terminals[event.terminalId];
      if (!view) return;
      d.terminals()[event.terminalId] = {
        ...appendOutput({ ...view, output: '', truncated: false }, event.output),
        truncated: event.truncated,
        exitStatus: event.exitStatus,
      };
      return;
    }
    case 'terminal_released': {
      const view = s.terminals[event.terminalId];
      if (view) d.terminals()[event.terminalId] = { ...view, released: true };
      return;
    }
    case 'agent_exited':
      s.status = 'disconnected';
      s.stalled = undefined;
      s.lastError = event.error;
      s.pendingPermissions = [];
      closeOpenToolCalls(d, 'failed');
      pushError(d, s.turn, event.error);
      return;
    case 'stalled':
      s.stalled = { since: event.at - event.silentMs, silentMs: event.silentMs };
      return;
    case 'activity':
      s.stalled = undefined;
      return;
    case 'elicitation':
      d.push({ kind: 'info', turn: s.turn, text: `${event.message} → ${event.action}` });
      return;
    case 'title_set':
      s.title = event.title;
      return;
  }
}

/** Adds an error item, once: a crash is reported both by the failed prompt and by the exit. */
function pushError(d: DraftType, turn: number, error: ErrorInfo): void {
  const last = d.state.items[d.state.items.length - 1];
  if (last?.kind === 'error' && last.error.message === error.message) return;
  d.push({ kind: 'error', turn, error });
}

/** Marks the tool call a permission request was allowed for (it runs now). */
function allowToolCall(d: DraftType, toolCallId: string): void {
  const index = d.state.toolCallIndex[toolCallId];
  const item = index === undefined ? undefined : d.state.items[index];
  if (index === undefined || item?.kind !== 'tool_call' || item.allowed) return;
  d.items()[index] = { ...item, allowed: true };
}

/** Marks tool calls the agent left pending or in progress. */
function closeOpenToolCalls(d: DraftType, clientStatus: 'cancelled' | 'failed'): void {
  const s = d.state;
  for (const index of Object.values(s.toolCallIndex)) {
    const item = s.items[index] as ToolCallItem | undefined;
    if (!item || item.clientStatus || (item.status !== 'pending' && item.status !== 'in_progress')) continue;
    d.items()[index] = { ...item, clientStatus };
  }
}
