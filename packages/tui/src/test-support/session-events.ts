/**
 * Session events as the engine makes them, for tests of what the UI does with them: each at a
 * later instant than the one before.
 */
import { v1UpdateEvents, type SessionEvent } from '@acp-kit/client';
import type { SessionUpdate } from '@acp-kit/protocol';

let at = 0;

/** The next instant (ms), for an event a test writes out itself. */
export function nextAt(): number {
  return ++at;
}

/** The one event of a v1 update (throws for an update that makes several). */
export function update(u: SessionUpdate): SessionEvent {
  const [event, ...more] = v1UpdateEvents(u, nextAt());
  if (!event || more.length > 0) throw new Error('expected one event');
  return event;
}

/** A chunk of the agent's answer. */
export function chunk(text: string): SessionEvent {
  return update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
}

/** The user's prompt opening turn `turn`. */
export function prompt(text: string, turn = 1): SessionEvent {
  return { type: 'prompt', at: nextAt(), turn, prompt: [{ type: 'text', text }] };
}

/** The end of turn `turn`. */
export function endTurn(turn = 1): SessionEvent {
  return { type: 'turn_end', at: nextAt(), turn, stopReason: 'end_turn' };
}
