/**
 * How long the engine waits for an agent: to start, to open a session, and to end a cancelled
 * turn. An agent that never answers must not hang its caller.
 */
import { ClientError } from '../errors.js';

/** Time limits in milliseconds (`Infinity`: no limit). */
export interface ClientTimeouts {
  /** The agent must answer `initialize` within this (default 60 000). */
  initializeMs?: number;
  /**
   * `session/new` and `session/resume` must be answered within this; `session/load` may take
   * longer while it replays, as long as no more than this passes without a replayed update
   * (default 60 000).
   */
  sessionOpenMs?: number;
  /**
   * After `session/cancel`, the agent has this long to end the turn; then the turn ends
   * `cancelled` here and the agent process is stopped (default 10 000).
   */
  cancelGraceMs?: number;
}

/** The defaults of {@link ClientTimeouts}. */
export const DEFAULT_TIMEOUTS: Readonly<Required<ClientTimeouts>> = Object.freeze({
  initializeMs: 60_000,
  sessionOpenMs: 60_000,
  cancelGraceMs: 10_000,
});

/** The limits to use: `given` over the defaults; throws INVALID_ARGUMENT for a value that is not > 0. */
export function resolveTimeouts(given: ClientTimeouts = {}): Readonly<Required<ClientTimeouts>> {
  const out = { ...DEFAULT_TIMEOUTS };
  for (const name of Object.keys(DEFAULT_TIMEOUTS) as (keyof ClientTimeouts)[]) {
    const value = given[name];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !(value > 0)) {
      throw new ClientError('INVALID_ARGUMENT', `timeouts.${name} must be a number of milliseconds above 0`);
    }
    out[name] = value;
  }
  return Object.freeze(out);
}

/** "60 s", "250 ms": a limit for messages. */
export function describeLimit(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

/**
 * An abort signal that fires once `ms` pass without {@link IdleDeadline.touch} (a request that may
 * take long while it makes progress, like `session/load` replaying a history).
 */
export class IdleDeadline {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly ms: number) {
    this.touch();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether the time ran out. */
  get expired(): boolean {
    return this.controller.signal.aborted;
  }

  /** Progress: the time starts again. */
  touch(): void {
    if (this.expired || !Number.isFinite(this.ms)) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.controller.abort(), this.ms);
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}
