/**
 * The sessions attached to a connection, by the agent's session id, and the updates that arrived
 * for a session before it was registered (applied when it is).
 */
import type { AgentUpdate } from '../model/agent-update.js';
import type { ClientSession } from '../session/client-session.js';
import { EarlyUpdates } from './early-updates.js';

/** The attached sessions of one connection. */
export class SessionRegistry {
  private readonly sessions = new Map<string, ClientSession>();
  private readonly early = new EarlyUpdates();

  get(agentSessionId: string): ClientSession | undefined {
    return this.sessions.get(agentSessionId);
  }

  /** The attached session with this local id. */
  find(localId: string): ClientSession | undefined {
    for (const session of this.sessions.values()) if (session.localId === localId) return session;
    return undefined;
  }

  values(): IterableIterator<ClientSession> {
    return this.sessions.values();
  }

  /** A snapshot of the attached sessions with their agent ids (safe to detach while iterating). */
  entries(): [string, ClientSession][] {
    return [...this.sessions];
  }

  /** Holds updates for a session not registered yet. */
  hold(agentSessionId: string, updates: AgentUpdate[]): void {
    this.early.hold(agentSessionId, updates);
  }

  /** Registers a session; the updates that arrived early for it are applied. */
  add(agentSessionId: string, session: ClientSession): void {
    this.sessions.set(agentSessionId, session);
    for (const updates of this.early.take(agentSessionId)) void session.handleUpdate(updates);
  }

  delete(agentSessionId: string): void {
    this.sessions.delete(agentSessionId);
  }
}
