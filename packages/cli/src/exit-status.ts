/**
 * The exit code table and the usage error, with no imports: `acp` loads this module at every start
 * (exit-codes.ts, which maps engine errors to codes, loads with the commands).
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
  /** A second Ctrl-C killed the agent. */
  INTERRUPTED: 130,
} as const;

/** A mistake in how `acp` was called. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
