/**
 * The agent picker's list as data: order, entries, and the one focused first. Apart from its
 * component so that the first frame of `acp` can draw the picker without React.
 */
import type { DetectedAgent } from '@acp-kit/client/launch';
import type { SelectItem } from './SelectList.js';

/** Display order: the demo first (always usable), our agent, installed agents, then the rest. */
export function orderAgents(agents: readonly DetectedAgent[]): DetectedAgent[] {
  const rank = (agent: DetectedAgent): number =>
    agent.id === 'demo' ? 0 : agent.id === 'acp-kit' ? 1 : agent.detection.installed ? 2 : 3;
  return [...agents].sort((a, b) => rank(a) - rank(b));
}

/** The list entry of an agent (at `index`, the demo being first): what it is, whether it can start. */
export function agentItem(agent: DetectedAgent, index: number): SelectItem {
  const hotkey = agent.id === 'demo' ? 'd' : index >= 1 && index <= 9 ? String(index) : undefined;
  if (agent.id === 'demo') {
    return {
      key: agent.id,
      label: agent.name,
      hotkey,
      tag: { text: 'demo · no model', tone: 'info' },
      detail: 'scripted turns that show every ACP feature; nothing to configure',
    };
  }
  const source = agent.source === 'builtin' ? '' : `${agent.source} · `;
  if (!agent.detection.installed) {
    return {
      key: agent.id,
      label: agent.name,
      ...(hotkey ? { hotkey } : {}),
      tag: { text: 'not installed', tone: 'warn' },
      detail: `${source}${agent.install ? `install: ${agent.install}` : `${agent.command} is not on PATH`}`,
    };
  }
  return {
    key: agent.id,
    label: agent.name,
    ...(hotkey ? { hotkey } : {}),
    tag: { text: 'installed', tone: 'ok' },
    detail: `${source}${agent.description ?? agent.command}`,
  };
}

/** The entry focused first (of agents in display order): the default agent, else the first installed one of the user's or the catalog's, else the demo. */
export function initialAgentIndex(
  agents: readonly DetectedAgent[],
  defaultAgent: string | undefined,
): number {
  const byDefault = agents.findIndex((agent) => agent.id === defaultAgent);
  if (byDefault >= 0) return byDefault;
  const installed = agents.findIndex(
    (agent) =>
      agent.source !== 'builtin' ||
      (agent.id !== 'demo' && agent.id !== 'acp-kit' && agent.detection.installed),
  );
  return installed >= 0 ? installed : 0;
}

/** The hint under the picker's list. */
export function agentPickerHint(purpose: 'start' | 'newTab'): string {
  return `↑↓ move · Enter start · d demo agent · 1-9 pick · Esc ${purpose === 'start' ? 'quit' : 'back'}`;
}

/** The picker's title. */
export function agentPickerTitle(purpose: 'start' | 'newTab'): string {
  return purpose === 'start' ? 'Choose an agent' : 'New tab: choose an agent';
}
