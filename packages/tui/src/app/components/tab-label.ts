/** What a tab shows in the tab bar, apart from its component so that the first frame can draw it without React. */
import { sanitizeInline } from '../../sanitize/sanitize-text.js';
import type { TabInfo } from '../state/app-state.js';

/** A tab's marker: what it is doing or waiting for. */
export function tabMarker(tab: Pick<TabInfo, 'phase' | 'status'>, waiting: boolean): string {
  if (waiting) return '⚑';
  if (tab.phase === 'crashed' || tab.phase === 'failed') return '✗';
  if (tab.phase === 'auth') return '⚿';
  if (tab.phase === 'starting') return '◌';
  if (tab.status === 'running' || tab.status === 'cancelling') return '◐';
  return '●';
}

/** A tab's name: the agent's own title from `initialize` once it answered, else the catalog's name. */
export function tabTitle(tab: Pick<TabInfo, 'agentTitle' | 'agent'>): string {
  return tab.agentTitle ?? tab.agent.name;
}

/** The label of the tab at `index` (0-based): its number and name, padded for the highlight. */
export function tabLabel(index: number, title: string): string {
  return ` ${index + 1} ${sanitizeInline(title)} `;
}

/** What a tab says while its agent starts (above the composer). */
export function startingMessage(agentName: string): string {
  return `Starting ${agentName}…`;
}
