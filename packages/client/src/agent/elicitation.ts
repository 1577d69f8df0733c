/**
 * `elicitation/create` and `elicitation/complete`, whatever the version: both faces hand the
 * agent's request here, so a form reaches `ClientHost.elicit` (the terminal UI's form) and its
 * answer reaches the session's transcript the same way in v1 and v2. The two schemas define the
 * request, the answer and the notification alike; the v1 types are the engine's.
 */
import type {
  CompleteElicitationNotification,
  CreateElicitationRequest,
  CreateElicitationResponse,
} from '@acp-kit/protocol';
import type { ClientSession } from '../session/client-session.js';
import type { ClientHost } from './host.js';

/** What answering an elicitation needs from the connection. */
export interface ElicitationDeps {
  session(sessionId: string): ClientSession | undefined;
  host: ClientHost;
  /** The catalog id of the agent on this connection. */
  agentId: string;
}

/**
 * Asks the host for a form (declined without `host.elicit`, or for a mode other than form; a
 * failing host cancels) and records the message and the action in the session the request names.
 */
export async function answerElicitation(
  deps: ElicitationDeps,
  params: CreateElicitationRequest,
  signal: AbortSignal,
): Promise<CreateElicitationResponse> {
  // Session-scoped requests name their session; request-scoped ones (sign-in, setup) do not.
  const sessionId = (params as { sessionId?: unknown }).sessionId;
  const session = typeof sessionId === 'string' ? deps.session(sessionId) : undefined;
  let answer: CreateElicitationResponse = { action: 'decline' };
  if (params.mode === 'form' && deps.host.elicit) {
    try {
      answer = await deps.host.elicit(params, signal, {
        agentId: deps.agentId,
        ...(session ? { localId: session.localId } : {}),
      });
    } catch {
      answer = { action: 'cancel' };
    }
  }
  session?.store.dispatch({
    type: 'elicitation',
    at: Date.now(),
    message: params.message.slice(0, 500),
    action: answer.action,
  });
  return answer;
}

/** A URL elicitation finished: the host is told (informational). */
export function completeElicitation(deps: ElicitationDeps, params: CompleteElicitationNotification): void {
  deps.host.elicitationComplete?.(params);
}
