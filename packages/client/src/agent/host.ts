/**
 * What the application embedding the engine provides: a way to ask the user. A headless host
 * provides nothing, and then whatever the policy would ask is denied and elicitations are declined.
 */
import type {
  CompleteElicitationNotification,
  CreateElicitationRequest,
  CreateElicitationResponse,
  ToolCallUpdate,
} from '@acp-kit/protocol';
import type { PermissionRequestView } from '../session/events.js';
import type { PermissionScope } from '../permissions/rules.js';

/** A question for the user. */
export interface PermissionAsk extends PermissionRequestView {
  /** The client's id of the session. */
  localId: string;
  agentId: string;
  /** The tool call as the agent sent it in the request. */
  toolCall?: ToolCallUpdate;
  /** Aborted when the question no longer needs an answer (turn cancelled, agent gone). */
  signal: AbortSignal;
}

/** The user's answer. */
export interface PermissionAnswer {
  decision: 'allow' | 'deny';
  /** How long to remember it (default `once`). */
  scope?: PermissionScope;
  /** The exact option the user picked among those the agent offered (permission requests only). */
  optionId?: string;
}

/**
 * Callbacks into the application (UI, editor, bot).
 *
 * @example
 * const host: ClientHost = {
 *   askPermission: async (ask) => ((await ui.confirm(ask.title ?? ask.kind)) ? { decision: 'allow' } : { decision: 'deny' }),
 * };
 */
export interface ClientHost {
  /** Asks the user; without it, questions are answered "deny" (headless). */
  askPermission?(ask: PermissionAsk): Promise<PermissionAnswer>;
  /** Form elicitation; without it, every elicitation is declined (headless). */
  elicit?(request: CreateElicitationRequest, signal: AbortSignal): Promise<CreateElicitationResponse>;
  /** URL elicitation finished (informational). */
  elicitationComplete?(notification: CompleteElicitationNotification): void;
}
