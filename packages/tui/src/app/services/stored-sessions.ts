/**
 * Finding sessions to reopen: a stored session by id or prefix with the agent that recorded it,
 * and the sessions an agent lists itself (`session/list`, paged).
 */
import { describeError, type AcpClient, type AgentEntry, type SessionMeta } from '@acp-kit/client';
import type { SessionInfo } from '@acp-kit/protocol';
import type { TabRuntime } from './tab-runtime.js';

/**
 * The stored session `id` names and the agent to reopen it with (`agent`, else the one that
 * recorded it), or what to tell the user when there is none (a prefix of several sessions, an
 * unreadable store, an agent no longer in the catalog): said, never thrown at the UI.
 */
export async function findStoredSession(
  client: AcpClient,
  id: string,
  agent?: AgentEntry,
): Promise<{ meta: SessionMeta; agent: AgentEntry } | { problem: string }> {
  let meta: SessionMeta | undefined;
  try {
    meta = await client.transcripts.find(id);
  } catch (error) {
    return { problem: describeError(error) };
  }
  if (!meta) return { problem: `No stored session matches ${id}` };
  const entry = agent ?? (meta.agentId ? client.catalog.get(meta.agentId) : undefined);
  if (!entry)
    return {
      problem: `The agent of session ${meta.localId} (${meta.agentId ?? 'unknown'}) is not in the catalog`,
    };
  return { meta, agent: entry };
}

/** The sessions a tab's agent lists in the tab's directory (at most ~500), when it can list them. */
export async function agentSessions(
  runtime: TabRuntime | undefined,
): Promise<{ agent: AgentEntry; sessions: SessionInfo[] } | undefined> {
  const connection = runtime?.connection;
  if (!runtime || !connection?.running || !runtime.info?.capabilities?.list) return undefined;
  const sessions: SessionInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await connection.listSessions({ cwd: runtime.cwd, ...(cursor ? { cursor } : {}) });
    sessions.push(...page.sessions);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && sessions.length < 500);
  return { agent: runtime.agent, sessions };
}
