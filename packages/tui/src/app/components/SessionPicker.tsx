import { memo, useRef, useCallback, useEffect, useState } from 'react';
import { Text } from 'ink';
import type { AgentEntry, SessionMeta } from '@acp-kit/client';
import type { SessionInfo } from '@acp-kit/protocol';
import { useTheme } from '../../theme/ThemeContext.js';
import { describeError } from '@acp-kit/client';
import { useController } from '../hooks/AppContext.js';
import { SelectList, type SelectItem } from './SelectList.js';

/** Props of {@link SessionPicker}. */
export interface SessionPickerProps {
  /** Rows of the list shown at once (it scrolls). */
  readonly maxVisible?: number;
  readonly isActive?: boolean;
}

interface Listing {
  readonly stored: readonly SessionMeta[];
  readonly agent?: { readonly entry: AgentEntry; readonly sessions: readonly SessionInfo[] };
  readonly problem?: string;
}

/** "2026-11-22 06:30" from an ISO date (or the text as given). */
export function shortDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const match = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)/.exec(iso);
  return match ? `${match[1]} ${match[2]}` : iso;
}

/** Items: our recorded sessions, then the agent's own sessions we have no record of. */
export function sessionItems(listing: Listing, openLocalIds: ReadonlySet<string>): SelectItem[] {
  const known = new Set(
    listing.stored.flatMap((meta) => [meta.agentSessionId, ...meta.attachments.map((a) => a.agentSessionId)]),
  );
  const items: SelectItem[] = listing.stored.map((meta) => ({
    key: `stored:${meta.localId}`,
    label: meta.title ?? `Session ${meta.localId}`,
    detail: `${meta.agentName ?? meta.agentId ?? '?'} · ${shortDate(meta.updatedAt)} · ${meta.turns} turns · ${meta.cwd}`,
    ...(openLocalIds.has(meta.localId) ? { tag: { text: 'open', tone: 'ok' as const } } : {}),
  }));
  for (const info of listing.agent?.sessions ?? []) {
    if (known.has(info.sessionId)) continue;
    items.push({
      key: `agent:${info.sessionId}`,
      label: info.title ?? `Session ${info.sessionId}`,
      detail: `listed by ${listing.agent?.entry.name ?? 'the agent'} · ${shortDate(info.updatedAt)} · ${info.cwd}`,
      tag: { text: 'agent', tone: 'info' },
    });
  }
  return items;
}

/**
 * Sessions: the ones acp recorded (reopened with their agent: resumed, loaded, or continued from
 * the transcript when the agent cannot) and the ones the current agent lists. Enter opens (or
 * switches to the open tab), d deletes (pressed twice), D also deletes the agent's copy.
 */
export const SessionPicker = memo(function SessionPicker({
  isActive = true,
  maxVisible = 14,
}: SessionPickerProps) {
  const controller = useController();
  const theme = useTheme();
  const [listing, setListing] = useState<Listing | undefined>();
  const [armed, setArmedState] = useState<string | undefined>();
  // The second press may arrive before Ink registers the handler of the latest render.
  const armedRef = useRef<string | undefined>(undefined);
  const setArmed = (key: string | undefined): void => {
    armedRef.current = key;
    setArmedState(key);
  };
  const reload = useCallback(async () => {
    const stored = await controller.listStored();
    try {
      const agent = await controller.listAgentSessions();
      setListing({ stored, ...(agent ? { agent: { entry: agent.agent, sessions: agent.sessions } } : {}) });
    } catch (error) {
      setListing({ stored, problem: `The agent could not list its sessions: ${describeError(error)}` });
    }
  }, [controller]);
  useEffect(() => void reload(), [reload]);
  if (!listing) return <Text color={theme.text.muted}>Reading sessions…</Text>;
  const open = new Set(
    listing.stored.map((meta) => meta.localId).filter((id) => controller.tabOfStored(id) !== undefined),
  );
  const items = sessionItems(listing, open);
  const close = (): void => controller.store.dispatch({ type: 'overlay_closed' });
  const caps = controller.active?.info?.capabilities;
  return (
    <SelectList
      title="Sessions"
      items={items}
      isActive={isActive}
      maxVisible={maxVisible}
      empty="No sessions yet."
      hint={`Enter open · d delete${caps?.delete ? ' · D delete here and at the agent' : ''} · Esc back`}
      onSelect={(item) => {
        const [kind, id = ''] = item.key.split(/:(.*)/s);
        if (kind === 'stored') {
          const tab = controller.tabOfStored(id);
          if (tab) {
            close();
            controller.activate(tab);
          } else void controller.openStored(id);
        } else if (listing.agent) {
          const info = listing.agent.sessions.find((session) => session.sessionId === id);
          const how = caps?.resume ? 'resume' : 'load';
          if (info)
            controller.openAgent(listing.agent.entry, { kind: 'agent', agentSessionId: id, how }, info.cwd);
        }
      }}
      onKey={(input, _key, item) => {
        if ((input !== 'd' && input !== 'D') || !item) return false;
        if (armedRef.current !== item.key) {
          setArmed(item.key);
          return true;
        }
        setArmed(undefined);
        const [kind, id = ''] = item.key.split(/:(.*)/s);
        const meta = listing.stored.find((candidate) => candidate.localId === id);
        if (kind === 'stored' && meta) void controller.deleteStored(meta, input === 'D').then(reload);
        else if (kind === 'agent') void controller.deleteAgentSession(id).then(reload);
        return true;
      }}
      onCancel={close}
    >
      {listing.problem && <Text color={theme.status.warning}>{listing.problem}</Text>}
      {armed && <Text color={theme.status.warning}>Press d again to delete the highlighted session.</Text>}
    </SelectList>
  );
});
