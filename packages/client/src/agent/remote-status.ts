/**
 * A remote agent's connection as status displays show it: the state its events lead to, and the
 * notice a user should read for the ones that explain a wait (a full server asked again later).
 * Types only from the remote transport, so this loads nothing of it.
 */
import type { RemoteEvent } from '@acp-kit/protocol/remote';

/** Where a remote agent is and how its connection is doing, for status displays. */
export interface RemoteStatus {
  url: string;
  /** `websocket` or `http`, once connected. */
  profile: 'websocket' | 'http' | undefined;
  state: 'connecting' | 'connected' | 'reconnecting' | 'failed';
  /** Times the connection was cut and resumed without loss. */
  resumes: number;
}

/** The status of a remote agent being connected to (again: the resumes so far are kept). */
export function connectingAgain(agent: { command: string }, previous?: RemoteStatus): RemoteStatus {
  return { url: agent.command, profile: undefined, state: 'connecting', resumes: previous?.resumes ?? 0 };
}

/** The status after `event`. */
export function nextRemoteStatus(status: RemoteStatus, event: RemoteEvent): RemoteStatus {
  const next: RemoteStatus = { ...status, profile: event.profile };
  switch (event.type) {
    case 'connected':
      next.state = 'connected';
      break;
    case 'busy':
      next.state = 'connecting';
      break;
    case 'disconnected':
    case 'reconnecting':
      next.state = 'reconnecting';
      break;
    case 'resumed':
      next.state = 'connected';
      next.resumes++;
      break;
    case 'failed':
      next.state = 'failed';
  }
  return next;
}

/**
 * What to tell the user about `event`, when it explains a wait: `the server is full (too many
 * connections): asking again in 5 s (1 of 3)`. Undefined for the others (the status shows them).
 */
export function remoteNotice(event: RemoteEvent): string | undefined {
  if (event.type !== 'busy') return undefined;
  const seconds = Math.round(event.retryInMs / 100) / 10;
  return `the server is full (too many connections): asking again in ${seconds} s (${event.attempt} of ${event.attempts})`;
}
