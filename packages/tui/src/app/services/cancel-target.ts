/**
 * What the "stop this call" key stops: the newest running tool call the agent can stop alone,
 * else its newest running terminal that can be stopped (both advertise `capabilities.cancel`,
 * which only ACP v2 agents do). Read from the session model only.
 */
import { describeError, type ClientSession, type SessionState, type ToolCallItem } from '@acp-kit/client';
import { isCancellable } from '../../view-model/tool-call.js';

/** A tool call or a terminal to stop, with a label for the flash message. */
export interface CancelTarget {
  readonly kind: 'tool_call' | 'terminal';
  readonly id: string;
  readonly label: string;
}

/** The tool call or terminal the key stops, or undefined when nothing can be stopped alone. */
export function cancelTarget(state: SessionState): CancelTarget | undefined {
  for (let i = state.items.length - 1; i >= 0; i--) {
    const item = state.items[i];
    if (item?.kind !== 'tool_call' || !isCancellable(item as ToolCallItem)) continue;
    const call = item as ToolCallItem;
    return { kind: 'tool_call', id: call.toolCallId, label: call.title || 'the tool call' };
  }
  const terminals = Object.values(state.terminals).filter(
    (t) => t.capabilities?.cancel === true && t.exitStatus === undefined && !t.released,
  );
  const terminal = terminals.at(-1);
  if (!terminal) return undefined;
  return { kind: 'terminal', id: terminal.terminalId, label: terminal.command ?? 'the terminal' };
}

/** Stops the session's {@link cancelTarget} alone (the turn goes on), telling the user what happens. */
export async function stopOne(
  session: ClientSession | undefined,
  flash: (text: string, severity: 'info' | 'error') => void,
): Promise<void> {
  const target = session ? cancelTarget(session.state) : undefined;
  if (!session || !target) {
    flash('Nothing running can be stopped alone (an ACP v2 agent says which calls can)', 'info');
    return;
  }
  flash(`Stopping ${target.label}`, 'info');
  try {
    if (target.kind === 'tool_call') await session.cancelToolCall(target.id);
    else await session.cancelTerminal(target.id);
  } catch (error) {
    flash(describeError(error), 'error');
  }
}
