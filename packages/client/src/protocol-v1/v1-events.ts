/**
 * The v1 face, recorded events: transcripts written before the neutral model (meta `version: 1`)
 * hold v1 `session/update`s and v1 tool calls in their events. Reading them goes through the same
 * translation as live traffic, so an old session opens as it was shown.
 */
import type { SessionUpdate, ToolCallUpdate } from '@acp-kit/protocol';
import type { SessionEvent } from '../session/events.js';
import { isRecord } from '../util/json-file.js';
import { fromV1Update, toolCallPatchFromV1 } from './from-v1-update.js';

type UpdateEvent = Extract<SessionEvent, { type: 'update' }>;

/**
 * The events of one v1 `session/update` received at `at` (several when it carried terminal data).
 * `extra` (replay flag, merged count, diff placements) goes on the first, which is the update
 * itself; the count of merged chunks stays with the chunk it counts.
 *
 * @example
 * store.dispatchMany(v1UpdateEvents({ sessionUpdate: 'agent_message_chunk', content }, Date.now()));
 */
export function v1UpdateEvents(
  update: SessionUpdate,
  at: number,
  extra: Omit<UpdateEvent, 'type' | 'at' | 'update'> = {},
): UpdateEvent[] {
  return fromV1Update(update).map((translated, i) => ({
    type: 'update',
    at,
    update: translated,
    ...(i === 0 ? extra : extra.replay ? { replay: true } : {}),
  }));
}

/**
 * A line of a transcript as the neutral events it stands for. Lines are told apart by shape, not
 * by the meta's version, because a session recorded in v1 and reopened since holds both.
 */
export function upgradeV1Event(event: SessionEvent): SessionEvent[] {
  if (event.type === 'update') {
    const update = event.update as unknown;
    if (!isRecord(update) || typeof update.sessionUpdate !== 'string') return [event];
    const { type: _type, at, update: _update, ...extra } = event;
    return v1UpdateEvents(update as unknown as SessionUpdate, at, extra);
  }
  if (event.type === 'permission_requested' && event.toolCall && '_meta' in event.toolCall) {
    const toolCall = event.toolCall as unknown as ToolCallUpdate;
    return [{ ...event, toolCall: { toolCallId: toolCall.toolCallId, ...toolCallPatchFromV1(toolCall) } }];
  }
  return [event];
}
