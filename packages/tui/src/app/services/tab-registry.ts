/**
 * The open tabs' runtimes by tab id, and what the controller's services look up in them: the tab
 * showing a session, a session by its local id, where a form belongs, the rules remembered for
 * the tabs' sessions.
 */
import type { ClientSession, PermissionRule } from '@acp-kit/client';
import type { ElicitationTabCandidate } from './elicitation-queue.js';
import type { TabRuntime } from './tab-runtime.js';

/** A rule remembered for the session of an open tab. */
export interface TabSessionRule {
  readonly tabId: string;
  readonly localId: string;
  readonly rule: PermissionRule;
}

/** The open tabs (a map by tab id) and the lookups over them. */
export class TabRegistry extends Map<string, TabRuntime> {
  /** The tab showing the session with this local id. */
  tabOfSession(localId: string): string | undefined {
    for (const [id, runtime] of this) if (runtime.session?.localId === localId) return id;
    return undefined;
  }

  /** The session with this local id, among the open tabs. */
  sessionOf(localId: string | undefined): ClientSession | undefined {
    if (localId === undefined) return undefined;
    for (const runtime of this.values()) if (runtime.session?.localId === localId) return runtime.session;
    return undefined;
  }

  /** What choosing a form's tab needs to know of each tab (see `elicitationTab`). */
  elicitationCandidates(): ElicitationTabCandidate[] {
    return [...this.values()].map((runtime) => ({
      id: runtime.id,
      agentId: runtime.agent.id,
      localId: runtime.session?.localId,
      agentSessionId: runtime.session?.agentSessionId,
      connected: runtime.connection?.running === true,
      running: runtime.session?.state.status === 'running',
    }));
  }

  /** Rules remembered for the tabs' sessions ("for this session" answers), in `order` (the tab bar's). */
  sessionRules(order: readonly { readonly id: string }[]): TabSessionRule[] {
    return order.flatMap((tab) => {
      const session = this.get(tab.id)?.session;
      if (!session) return [];
      return session.sessionRules.map((rule) => ({ tabId: tab.id, localId: session.localId, rule }));
    });
  }
}
