/**
 * Exit codes of `acp`, documented in docs/client.md. Scripts can rely on them. This module
 * imports nothing, so the start of `acp` stays light; errors are mapped to codes in `errors.ts`.
 */

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

/**
 * A mistake in how `acp` was called (exit code 2). `hint` says what to do instead; without one,
 * the error report points to the command's `--help`.
 *
 * @example
 * throw new UsageError('the prompt is empty', { hint: 'acp run "PROMPT", or acp run - to read it from stdin' });
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly hint: string | undefined;

  constructor(message: string, options: { hint?: string } = {}) {
    super(message);
    this.hint = options.hint;
  }
}
