/**
 * What the v1 and v2 faces say alike: the updates whose wire shape is the same in both versions,
 * the answers to a permission question and a form, and a `session/list` page. Each face still
 * types the result as its own version's message; only the shape is shared.
 */
import type { FormAnswer, PermissionAnswer } from '../core/client-port.js';
import type { CompactionEvent, NoticeEvent, SessionInfoEvent, UsageEvent } from '../core/events.js';
import type { ListPage } from '../session/store.js';

/** Events whose update is spelled the same in v1 and v2. */
export type SameInBothEvent = UsageEvent | SessionInfoEvent | NoticeEvent | CompactionEvent;

/**
 * @example
 * sameInBoth({ type: 'usage', used: 10, size: 100 }); // { sessionUpdate: 'usage_update', used: 10, size: 100 }
 */
export function sameInBoth(event: SameInBothEvent) {
  switch (event.type) {
    case 'usage':
      return {
        sessionUpdate: 'usage_update' as const,
        used: event.used,
        size: event.size,
        ...(event.cost !== undefined ? { cost: event.cost } : {}),
      };
    case 'session_info': {
      const { type: _type, ...fields } = event;
      return { sessionUpdate: 'session_info_update' as const, ...fields };
    }
    case 'notice':
      return {
        sessionUpdate: 'notice' as const,
        severity: event.severity,
        title: event.title,
        ...(event.description !== undefined ? { description: event.description } : {}),
      };
    case 'compaction':
      return {
        sessionUpdate: 'compaction_update' as const,
        compactionId: event.compactionId,
        status: event.status,
        ...(event.error !== undefined ? { error: event.error } : {}),
      };
  }
}

/** A `request_permission` outcome in the core's terms (the same in both versions). */
export function permissionAnswer(
  outcome: { outcome: string; optionId?: unknown },
  meta?: unknown,
): PermissionAnswer {
  if (outcome.outcome !== 'selected') return { outcome: 'cancelled' };
  const decidedBy = clientDecision(meta);
  return {
    outcome: 'selected',
    optionId: String(outcome.optionId),
    ...(decidedBy !== undefined ? { decidedBy } : {}),
  };
}

/**
 * The reason of an answer the client chose by itself: acp-kit's client puts
 * `{ by, reason }` under `_meta["acp-kit/decision"]` when `by` is not the user (see the client's
 * permission broker). Undefined for an answer a person gave, or from another client.
 */
function clientDecision(meta: unknown): string | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const decision = (meta as Record<string, unknown>)['acp-kit/decision'];
  if (typeof decision !== 'object' || decision === null) return undefined;
  const { by, reason } = decision as { by?: unknown; reason?: unknown };
  if (typeof by !== 'string' || by === 'user') return undefined;
  const why = typeof reason === 'string' && reason.trim() !== '' ? reason.trim() : `decided by ${by}`;
  return why.replace(/[.\s]+$/, '').slice(0, 300);
}

/** An `elicitation/create` answer in the core's terms (anything but accept/decline is a cancel). */
export function formAnswer(response: { action: string; content?: unknown }): FormAnswer {
  const content =
    'content' in response ? (response.content as Record<string, unknown> | undefined) : undefined;
  return {
    action: response.action === 'accept' || response.action === 'decline' ? response.action : 'cancel',
    ...(content ? { content } : {}),
  };
}

/** A page of stored sessions as `session/list` answers it (the same in both versions). */
export function sessionList(page: ListPage) {
  return {
    sessions: page.sessions.map((meta) => ({
      sessionId: meta.sessionId,
      cwd: meta.cwd,
      additionalDirectories: meta.additionalDirectories,
      title: meta.title,
      updatedAt: meta.updatedAt,
    })),
    nextCursor: page.nextCursor ?? null,
  };
}
