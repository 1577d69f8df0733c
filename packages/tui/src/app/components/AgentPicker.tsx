import { memo, useEffect, useMemo, useState } from 'react';
import { Text } from 'ink';
import type { DetectedAgent } from '@acp-kit/client';
import { useTheme } from '../../theme/ThemeContext.js';
import { useController } from '../hooks/AppContext.js';
import {
  agentItem,
  agentPickerHint,
  agentPickerTitle,
  initialAgentIndex,
  orderAgents,
} from './agent-items.js';
import { SelectList } from './SelectList.js';

export { agentItem, orderAgents } from './agent-items.js';

/** Props of {@link AgentPicker}. */
export interface AgentPickerProps {
  /** Rows of the list shown at once (it scrolls). */
  readonly maxVisible?: number;
  /** `start`: nothing is open yet (Esc quits); `newTab`: Esc goes back to the session. */
  readonly purpose: 'start' | 'newTab';
  readonly isActive?: boolean;
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
  // The agents found before the UI was loaded (the first frame of `acp` showed them), else a search.
  const [early] = useState(() => (purpose === 'start' ? controller.takeStartAgents() : undefined));
  const [agents, setAgents] = useState<DetectedAgent[] | undefined>(() => early && orderAgents(early));
  useEffect(() => {
    if (early) return undefined;
    let live = true;
    void controller.detectAgents().then((found) => live && setAgents(orderAgents(found)));
    return () => {
      live = false;
    };
  }, [controller, early]);
  const items = useMemo(() => (agents ?? []).map(agentItem), [agents]);
  const initial = useMemo(
    () => (agents ? initialAgentIndex(agents, controller.client.catalog.defaultAgent) : 0),
    [agents, controller],
  );
  if (!agents) return <Text color={theme.text.muted}>Looking for agents…</Text>;
  return (
    <SelectList
      key={initial}
      title={agentPickerTitle(purpose)}
      items={items}
      initialIndex={initial}
      isActive={isActive}
      maxVisible={maxVisible}
      hint={agentPickerHint(purpose)}
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
