/**
 * Exit codes of `acp`, documented in docs/client.md. Scripts can rely on them.
 */
import { AcpKitError } from '@acp-kit/protocol';
import { ClientError } from '@acp-kit/client';
import { EXIT_CODES, UsageError } from './exit-status.js';

export { EXIT_CODES, UsageError } from './exit-status.js';

/** Exit code for a turn's stop reason. */
export function exitCodeForStopReason(stopReason: string): number {
  switch (stopReason) {
    case 'end_turn':
      return EXIT_CODES.OK;
    case 'refusal':
      return EXIT_CODES.REFUSAL;
    case 'cancelled':
      return EXIT_CODES.CANCELLED;
    case 'max_tokens':
    case 'max_turn_requests':
      return EXIT_CODES.LIMIT;
    default:
      return EXIT_CODES.ERROR;
  }
}

/** Exit code for an error. */
export function exitCodeForError(error: unknown): number {
  if (error instanceof UsageError) return EXIT_CODES.USAGE;
  const code = error instanceof ClientError || error instanceof AcpKitError ? error.code : undefined;
  switch (code) {
    case 'AUTH_REQUIRED':
      return EXIT_CODES.AUTH_REQUIRED;
    case 'AGENT_EXITED':
    case 'PEER_EXITED':
    case 'CONNECTION_CLOSED':
      return EXIT_CODES.AGENT_CRASHED;
    case 'AGENT_NOT_FOUND':
    case 'AGENT_NOT_INSTALLED':
    case 'AGENT_START_FAILED':
    case 'UNSUPPORTED_PROTOCOL_VERSION':
    case 'SPAWN_FAILED':
      return EXIT_CODES.AGENT_UNAVAILABLE;
    default:
      return EXIT_CODES.ERROR;
  }
}
