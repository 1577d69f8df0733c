/**
 * The status bar's view of a tab: connection, agent, session title, mode, model, usage, waiting
 * questions, the location the running tool works on, and how long the turn has been silent.
 */
import type { BackgroundWork, RemoteStatus, SessionState, ToolCallItem } from '@acp-kit/client';
import { isUnknownVariant, type SessionConfigOption, type ToolCallLocation } from '@acp-kit/protocol';
import type { ConnectionState, StatusView } from '../../view-model/status.js';
import type { TabInfo, TabPhase } from '../state/app-state.js';
import { toolCommand } from '../../view-model/command-output.js';
import { plural } from '../../text/fold.js';
import { configValueLabel } from './config-values.js';

const CONNECTION: Readonly<Record<TabPhase, ConnectionState>> = {
  starting: 'initializing',
  ready: 'ready',
  auth: 'authenticating',
  crashed: 'crashed',
  failed: 'disconnected',
};

function optionOf(
  options: readonly SessionConfigOption[],
  category: string,
): SessionConfigOption | undefined {
  return options.find(
    (option) => !isUnknownVariant(option) && (option.category === category || option.id === category),
  );
}

/**
 * What the newest running tool call works on (follow-along): the command of an `execute` call
 * (its location is only the directory it runs in), else its first location and kind.
 */
export function currentTool(
  state: SessionState,
): { kind: string; location?: ToolCallLocation; command?: string } | undefined {
  for (let i = state.items.length - 1, seen = 0; i >= 0 && seen < 50; i--, seen++) {
    const item = state.items[i];
    if (item?.kind !== 'tool_call') continue;
    const call = item as ToolCallItem;
    if ((call.status !== 'in_progress' && call.status !== 'pending') || call.clientStatus) continue;
    if (call.toolKind === 'execute') {
      const command = toolCommand(call.rawInput) ?? call.title;
      if (command.trim() !== '') return { kind: call.toolKind, command };
    } else if (call.locations[0]) {
      return { kind: call.toolKind, location: call.locations[0] };
    }
  }
  return undefined;
}

/** Builds the status bar's view. */
export function statusView(
  tab: TabInfo,
  state: SessionState | undefined,
  lastActivityAt: number | undefined,
  queuedPermissions: number,
  queuedElicitations = 0,
): StatusView {
  const modeName = state?.modes?.availableModes.find((mode) => mode.id === state.modes?.currentModeId)?.name;
  const modeOption = state ? optionOf(state.configOptions, 'mode') : undefined;
  const modelOption = state ? optionOf(state.configOptions, 'model') : undefined;
  const running = state?.status === 'running' || state?.status === 'cancelling';
  const tool = state && running ? currentTool(state) : undefined;
  return {
    agentName: tab.agentTitle ?? tab.agent.name,
    ...(tab.agentVersion ? { agentVersion: tab.agentVersion } : {}),
    connection:
      tab.phase === 'ready' && tab.remote?.state === 'reconnecting'
        ? 'reconnecting'
        : tab.phase === 'ready' && state?.status === 'disconnected'
          ? 'disconnected'
          : CONNECTION[tab.phase],
    ...(tab.remote ? { remote: remoteLabel(tab.remote) } : {}),
    ...(state?.title ? { sessionTitle: state.title } : {}),
    ...(modeName ? { mode: modeName } : modeOption ? { mode: configValueLabel(modeOption) } : {}),
    ...(modelOption ? { model: configValueLabel(modelOption) } : {}),
    ...(state?.usage ? { usage: state.usage } : {}),
    ...(queuedPermissions > 0 ? { queuedPermissions } : {}),
    ...(queuedElicitations > 0 ? { queuedElicitations } : {}),
    ...(tool?.location ? { currentLocation: tool.location, currentKind: tool.kind } : {}),
    ...(tool?.command !== undefined ? { currentCommand: tool.command } : {}),
    ...(state?.background && backgroundLabel(state.background)
      ? { background: backgroundLabel(state.background) }
      : {}),
    ...(state ? { cwd: state.cwd } : {}),
    ...(running && lastActivityAt !== undefined ? { turn: { lastUpdateAt: lastActivityAt } } : {}),
  };
}

/** `2 terminals, 1 tool call` for the background work the agent reported; '' for none. */
export function backgroundLabel(work: BackgroundWork): string {
  const parts: string[] = [];
  if (work.terminalIds.length > 0) parts.push(plural(work.terminalIds.length, 'terminal'));
  if (work.toolCallIds.length > 0) parts.push(plural(work.toolCallIds.length, 'tool call'));
  if (work.other.length > 0) parts.push(plural(work.other.length, 'other task'));
  return parts.join(', ');
}

/** `host:port · websocket · resumed 2×` for a remote agent's connection. */
export function remoteLabel(remote: RemoteStatus): string {
  let where = remote.url;
  try {
    where = new URL(remote.url).host;
  } catch {
    // Shown as given.
  }
  const parts = [where];
  if (remote.profile) parts.push(remote.profile === 'http' ? 'streamable http' : 'websocket');
  if (remote.resumes > 0) parts.push(`resumed ${remote.resumes}×`);
  return parts.join(' · ');
}

/** Whether two status views show the same thing (so the status bar need not redraw). */
export function sameStatus(a: StatusView | undefined, b: StatusView | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof StatusView>;
  for (const key of keys) {
    if (key === 'turn') {
      if (a.turn?.lastUpdateAt !== b.turn?.lastUpdateAt) return false;
    } else if (a[key] !== b[key]) return false;
  }
  return true;
}
