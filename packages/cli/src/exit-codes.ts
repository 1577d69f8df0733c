/**
 * Exit codes of `acp`, documented in docs/client.md. Scripts can rely on them.
 */
import { AcpKitError } from '@acp-kit/protocol';
import { ClientError } from '@acp-kit/client';

/** The exit codes. */
export const EXIT_CODES = {
  /** The turn ended normally (`end_turn`), or the command succeeded. */
  OK: 0,
  /** Any other failure (the agent answered with an error, an I/O error…). */
  ERROR: 1,
  /** Bad usage: unknown option, missing prompt, invalid value. */
  USAGE: 2,
  /** The agent refused (`refusal`). */
  REFUSAL: 3,
  /** The turn was cancelled (`cancelled`, e.g. after Ctrl-C). */
  CANCELLED: 4,
  /** The turn hit a limit (`max_tokens` or `max_turn_requests`). */
  LIMIT: 5,
  /** The agent needs authentication. */
  AUTH_REQUIRED: 6,
  /** The agent crashed or exited during the turn. */
  AGENT_CRASHED: 7,
  /** The agent could not be started: unknown name, not installed, failed to initialize, wrong protocol version. */
  AGENT_UNAVAILABLE: 8,
  /** Stopped by Ctrl-C (SIGINT) while no turn ran, or by a second Ctrl-C during one. */
  INTERRUPTED: 130,
  /** Stopped by SIGHUP (the terminal was closed). */
  HANGUP: 129,
  /** Stopped because stdout was closed by its reader (a broken pipe, as SIGPIPE). */
  BROKEN_PIPE: 141,
  /** Stopped by SIGTERM. */
  TERMINATED: 143,
} as const;

/** What stops a run from outside; a broken stdout counts as SIGPIPE. */
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'SIGPIPE';

/** The conventional exit code after a signal: 128 + its number. */
export function exitCodeForSignal(signal: StopSignal): number {
  switch (signal) {
    case 'SIGINT':
      return EXIT_CODES.INTERRUPTED;
    case 'SIGHUP':
      return EXIT_CODES.HANGUP;
    case 'SIGPIPE':
      return EXIT_CODES.BROKEN_PIPE;
    case 'SIGTERM':
      return EXIT_CODES.TERMINATED;
  }
}

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

/** A mistake in how `acp` was called. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
