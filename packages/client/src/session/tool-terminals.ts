/**
 * Which terminals a tool call's card shows. The client's own terminals (`terminal/create`) have
 * ids we made, unique in the session. A terminal an agent runs itself and reports through `_meta`
 * is named by the agent, and some name it after the tool call (claude-agent-acp uses the tool call
 * id), which may come again in a later turn: such a terminal belongs to one tool call — the card
 * it was reported for — and is kept under {@link agentTerminalKey}, so a card never shows the
 * output or the exit of an earlier call with the same id.
 */
import { isUnknownVariant } from '@acp-kit/protocol';
import type { SessionState, TerminalView, ToolCallItem } from './state.js';

/** Where an agent's terminal reported for the tool call with item key `toolCallKey` is kept in `terminals`. */
export function agentTerminalKey(toolCallKey: string, terminalId: string): string {
  return `@${toolCallKey}/${terminalId}`;
}

/**
 * The terminal `terminalId` as the card of `call` shows it: the agent's terminal reported for this
 * very call, else a terminal of the client, or an agent's that no tool call claimed.
 *
 * @example
 * const view = toolCallTerminal(state, call, 'toolu_04'); // not the one an earlier `toolu_04` ran
 */
export function toolCallTerminal(
  state: SessionState,
  call: ToolCallItem,
  terminalId: string,
): TerminalView | undefined {
  const own = state.terminals[agentTerminalKey(call.key, terminalId)];
  if (own) return own;
  const shared = state.terminals[terminalId];
  return shared && shared.toolCallKey === undefined ? shared : undefined;
}

/** The ids of the terminals in a tool call's content, in order. */
export function contentTerminalIds(call: ToolCallItem): string[] {
  const ids: string[] = [];
  for (const content of call.content)
    if (!isUnknownVariant(content) && content.type === 'terminal') ids.push(content.terminalId);
  return ids;
}

/** Every terminal of a tool call: those of its content, then those the agent ran for it alone. */
export function toolCallTerminals(state: SessionState, call: ToolCallItem): TerminalView[] {
  const views: TerminalView[] = [];
  for (const id of contentTerminalIds(call)) {
    const view = toolCallTerminal(state, call, id);
    if (view && !views.includes(view)) views.push(view);
  }
  for (const view of Object.values(state.terminals))
    if (view.toolCallKey === call.key && !views.includes(view)) views.push(view);
  return views;
}
