/**
 * The UI side of form elicitations (`ClientHost.elicit`): forms wait in the app store until the
 * user answers them in their tab. A form the engine withdraws (request cancelled, agent gone)
 * leaves the queue on its own; cancelling a turn or closing a tab cancels its forms.
 */
import type { ElicitationOrigin } from '@acp-kit/client';
import type { CreateElicitationRequest, CreateElicitationResponse } from '@acp-kit/protocol';
import type { FormState } from '../../elicitation/form-state.js';
import type { AppStore } from '../state/app-store.js';

/** What {@link elicitationTab} needs to know of a tab. */
export interface ElicitationTabCandidate {
  readonly id: string;
  readonly agentId: string;
  /** The client's id of the tab's session, once it is open. */
  readonly localId: string | undefined;
  /** The agent's id of the tab's session, once it is open. */
  readonly agentSessionId: string | undefined;
  /** The tab's agent process is running. */
  readonly connected: boolean;
  /** A turn is running in the tab. */
  readonly running: boolean;
}

/**
 * The tab an elicitation belongs to. The engine says which agent asks and, for a request about one
 * of its sessions, which session (`origin.localId`): the tab showing that session. Otherwise the
 * request names the agent's session id (unique per agent, not across agents) or, before any
 * session, a request id, and a form goes to a tab only when that is certain enough to show it
 * there: the tabs of that agent showing that session (a running turn, then the active tab, win),
 * else the only running tab of that agent. Anything else is undefined: the form is declined rather
 * than shown in the wrong tab, where the user would answer an agent other than the one they think.
 */
export function elicitationTab(
  request: CreateElicitationRequest,
  tabs: readonly ElicitationTabCandidate[],
  activeTabId: string | undefined,
  origin?: ElicitationOrigin,
): string | undefined {
  if (origin?.localId !== undefined) {
    const exact = tabs.find((tab) => tab.localId === origin.localId);
    if (exact) return exact.id;
  }
  const connected = tabs.filter(
    (tab) => tab.connected && (origin === undefined || tab.agentId === origin.agentId),
  );
  const sessionId = (request as { sessionId?: unknown }).sessionId;
  const showing =
    typeof sessionId === 'string' ? connected.filter((tab) => tab.agentSessionId === sessionId) : [];
  if (showing.length > 0) {
    if (new Set(showing.map((tab) => tab.agentId)).size > 1) return undefined;
    return (
      showing.find((tab) => tab.running)?.id ??
      showing.find((tab) => tab.id === activeTabId)?.id ??
      showing[0]?.id
    );
  }
  return connected.length === 1 ? connected[0]?.id : undefined;
}

/**
 * @example
 * const forms = new ElicitationQueue(store, (request) => elicitationTab(request, candidates(), activeId));
 * const client = await AcpClient.create({ host: { elicit: forms.elicit } });
 */
export class ElicitationQueue {
  private readonly waiting = new Map<
    string,
    { tabId: string; resolve: (answer: CreateElicitationResponse) => void }
  >();
  /** Forms as the user left them when another tab or screen hid them. */
  private readonly drafts = new Map<string, FormState>();
  private counter = 0;

  constructor(
    private readonly store: AppStore,
    private readonly tabFor: (
      request: CreateElicitationRequest,
      origin: ElicitationOrigin | undefined,
    ) => string | undefined,
  ) {}

  /** `ClientHost.elicit`: form mode only (the engine declines the others before asking). */
  readonly elicit = (
    request: CreateElicitationRequest,
    signal: AbortSignal,
    origin?: ElicitationOrigin,
  ): Promise<CreateElicitationResponse> => {
    if (request.mode !== 'form' || !('requestedSchema' in request) || signal.aborted)
      return Promise.resolve({ action: request.mode === 'form' ? 'cancel' : 'decline' });
    const tabId = this.tabFor(request, origin);
    if (tabId === undefined) {
      this.store.dispatch({
        type: 'flash',
        flash: {
          text: 'Declined a form from an agent: acp could not tell which tab it belongs to',
          severity: 'warning',
        },
      });
      return Promise.resolve({ action: 'decline' });
    }
    const id = `e${++this.counter}`;
    return new Promise<CreateElicitationResponse>((resolve) => {
      const withdraw = (): void => this.settle(id, { action: 'cancel' });
      this.waiting.set(id, {
        tabId,
        resolve: (answer) => {
          signal.removeEventListener('abort', withdraw);
          resolve(answer);
        },
      });
      signal.addEventListener('abort', withdraw, { once: true });
      this.store.dispatch({
        type: 'elicitation_queued',
        elicitation: { id, tabId, message: request.message, schema: request.requestedSchema },
      });
    });
  };

  /** The user's answer to a queued form. */
  answer(id: string, answer: CreateElicitationResponse): void {
    this.settle(id, answer);
  }

  /** The form as the user left it. */
  draft(id: string): FormState | undefined {
    return this.drafts.get(id);
  }

  /** Keeps the form as it is now (only while it waits for an answer). */
  keepDraft(id: string, state: FormState): void {
    if (this.waiting.has(id)) this.drafts.set(id, state);
  }

  /** Cancels every form of a tab (its turn was cancelled, or it is closing). */
  cancelTab(tabId: string): void {
    for (const [id, entry] of [...this.waiting])
      if (entry.tabId === tabId) this.settle(id, { action: 'cancel' });
  }

  private settle(id: string, answer: CreateElicitationResponse): void {
    const entry = this.waiting.get(id);
    if (!entry) return;
    this.waiting.delete(id);
    this.drafts.delete(id);
    this.store.dispatch({ type: 'elicitation_removed', id });
    entry.resolve(answer);
  }
}
