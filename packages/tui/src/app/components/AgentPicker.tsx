import { memo, useEffect, useMemo, useState } from 'react';
import { Text } from 'ink';
import type { DetectedAgent } from '@acp-kit/client';
import { useTheme } from '../../theme/ThemeContext.js';
import { useController } from '../hooks/AppContext.js';
import { SelectList, type SelectItem } from './SelectList.js';

/** Props of {@link AgentPicker}. */
export interface AgentPickerProps {
  /** Rows of the list shown at once (it scrolls). */
  readonly maxVisible?: number;
  /** `start`: nothing is open yet (Esc quits); `newTab`: Esc goes back to the session. */
  readonly purpose: 'start' | 'newTab';
  readonly isActive?: boolean;
}

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

/**
 * The agent picker: catalog agents marked installed or not, the user's own agents, the acp-kit
 * agent, and the demo agent on `d` — labelled as a demo without a model.
 */
export const AgentPicker = memo(function AgentPicker({
  purpose,
  isActive = true,
  maxVisible = 14,
}: AgentPickerProps) {
  const controller = useController();
  const theme = useTheme();
  const [agents, setAgents] = useState<DetectedAgent[] | undefined>();
  useEffect(() => {
    let live = true;
    void controller.detectAgents().then((found) => live && setAgents(orderAgents(found)));
    return () => {
      live = false;
    };
  }, [controller]);
  const items = useMemo(() => (agents ?? []).map(agentItem), [agents]);
  const initial = useMemo(() => {
    if (!agents) return 0;
    const preferred = controller.client.catalog.defaultAgent;
    const byDefault = agents.findIndex((agent) => agent.id === preferred);
    if (byDefault >= 0) return byDefault;
    const installed = agents.findIndex(
      (agent) =>
        agent.source !== 'builtin' ||
        (agent.id !== 'demo' && agent.id !== 'acp-kit' && agent.detection.installed),
    );
    return installed >= 0 ? installed : 0;
  }, [agents, controller]);
  if (!agents) return <Text color={theme.text.muted}>Looking for agents…</Text>;
  return (
    <SelectList
      key={initial}
      title={purpose === 'start' ? 'Choose an agent' : 'New tab: choose an agent'}
      items={items}
      initialIndex={initial}
      isActive={isActive}
      maxVisible={maxVisible}
      hint={`↑↓ move · Enter start · d demo agent · 1-9 pick · Esc ${purpose === 'start' ? 'quit' : 'back'}`}
      onSelect={(item) => {
        const agent = agents.find((candidate) => candidate.id === item.key);
        if (agent) controller.openAgent(agent);
      }}
      onCancel={() => {
        if (purpose === 'start' && controller.store.getSnapshot().tabs.length === 0) void controller.quit(0);
        else controller.store.dispatch({ type: 'overlay_closed' });
      }}
    >
      {controller.client.catalog.problems.map((problem) => (
        <Text key={problem} color={theme.status.warning}>{`⚠ ${problem}`}</Text>
      ))}
    </SelectList>
  );
});
