import { memo } from 'react';
import type { SessionState } from '@acp-kit/client';
import { useController } from '../hooks/AppContext.js';
import type { TabInfo } from '../state/app-state.js';
import { SelectList, type SelectItem } from './SelectList.js';

/** Props of {@link SessionInfoScreen}. */
export interface SessionInfoScreenProps {
  readonly tab: TabInfo;
  readonly state: SessionState | undefined;
  readonly isActive?: boolean;
}

/** Facts about the active session as list rows (agent-provided values are sanitized by the list). */
export function sessionFacts(tab: TabInfo, state: SessionState | undefined): SelectItem[] {
  const caps = tab.capabilities;
  const can = caps
    ? [caps.load && 'load', caps.resume && 'resume', caps.list && 'list', caps.delete && 'delete']
        .filter((c): c is string => !!c)
        .join(', ') || 'none'
    : 'unknown';
  const rows: [string, string][] = [
    ['Agent', `${tab.agent.name} (${tab.agent.id}) · ${tab.agent.command} ${tab.agent.args.join(' ')}`],
    ['Agent says', `${tab.agentTitle ?? '?'} ${tab.agentVersion ?? ''}`],
    ['Protocol', tab.protocolVersion ? `ACP v${tab.protocolVersion}` : 'not connected'],
    [
      'Session',
      `${state?.localId ?? '?'} · agent session ${state?.agentSessionId ?? '?'} · ${state?.attachMode ?? 'not attached'}`,
    ],
    ['Directory', [state?.cwd ?? '?', ...(state?.additionalDirectories ?? [])].join(', ')],
    ['MCP servers', tab.mcpServers && tab.mcpServers.length > 0 ? tab.mcpServers.join(', ') : 'none'],
    ['Sessions can', can],
    [
      'Turns',
      `${state?.turn ?? 0} · ${state?.updateCount ?? 0} updates${state?.unknownKinds.length ? ` · unknown kinds: ${state.unknownKinds.join(', ')}` : ''}`,
    ],
  ];
  return rows.map(([label, value]) => ({
    key: label,
    label: `${label.padEnd(13)} ${value}`,
    disabled: true,
  }));
}

/** What the active tab is connected to: agent, session ids, directories, MCP servers, capabilities. */
export const SessionInfoScreen = memo(function SessionInfoScreen({
  tab,
  state,
  isActive = true,
}: SessionInfoScreenProps) {
  const controller = useController();
  return (
    <SelectList
      title="Session"
      items={sessionFacts(tab, state)}
      isActive={isActive}
      hint="Esc back"
      onSelect={() => undefined}
      onCancel={() => controller.store.dispatch({ type: 'overlay_closed' })}
    />
  );
});
