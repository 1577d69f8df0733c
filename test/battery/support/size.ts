/**
 * The two sizes of the battery. `npm test` runs the reduced size (CI); `npm run battery` sets
 * `BATTERY_SIZE=full` for the targets of issue 10. `BATTERY_SEED` replaces the base seed.
 */

/** `ci` (reduced, part of `npm test`) or `full` (`npm run battery`). */
export type BatterySize = 'ci' | 'full';

export const SIZE: BatterySize = process.env.BATTERY_SIZE === 'full' ? 'full' : 'ci';
export const FULL = SIZE === 'full';

/** Base seed of every seeded case; each case adds its own offset so cases stay independent. */
export const BASE_SEED = parseSeed(process.env.BATTERY_SEED) ?? 20_260_610;

function parseSeed(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error(`BATTERY_SEED must be an integer, not ${text}`);
  return value;
}

/** The seed of one case: the base seed plus a fixed offset (printed with every failure). */
export function seedOf(offset: number): number {
  return (BASE_SEED + offset) | 0;
}

/** Picks the reduced or the full value. */
export function sized<T>(ci: T, full: T): T {
  return FULL ? full : ci;
}

/** How many of everything each size runs. */
export const COUNTS = {
  /** A1/A2/B5/I2 fast-check runs. */
  propertyRuns: sized(1_000, 5_000),
  /** A3: fuzzed frames per side (issue 10: 1,000,000 per side at full size). */
  fuzzFrames: sized(10_000, 1_000_000),
  /** C1: SIGKILL trials (RELIABILITY: 100). */
  killTrials: sized(12, 100),
  /** D1: flood of `session/update`s of 1 KB (RELIABILITY: 50,000). */
  floodUpdates: sized(50_000, 50_000),
  /** D1: how long the consumer stalls, in ms (RELIABILITY: 3 s). */
  floodStallMs: sized(3_000, 3_000),
  /** D2: requests to an agent that does not read (RELIABILITY: 10,000). */
  unreadRequests: sized(10_000, 10_000),
  /** D3: round trips of the soak (RELIABILITY: 200k). */
  soakRoundTrips: sized(5_000, 200_000),
  /** D4: chunks of `agent_message_chunk` (RELIABILITY: 100k chunks, 10 MB). */
  chunkFlood: sized(20_000, 100_000),
  /** E4: random interleavings (RELIABILITY: 1,000). */
  interleavings: sized(100, 1_000),
  /** F3: writes under a racing directory swap (issue 10: 10,000). */
  swapRaceWrites: sized(2_000, 10_000),
  /** C10: bytes the agent writes to stderr (RELIABILITY: 1 GiB). */
  stderrBytes: sized(64 * 1024 * 1024, 1024 * 1024 * 1024),
  /** R1: fuzzed frames per remote profile (issue 17; sent one by one, POSTs in order). */
  remoteFuzzFrames: sized(1_500, 20_000),
  /** R3: updates of the turn cut mid-way, and cuts per profile. */
  remoteCutUpdates: sized(3_000, 20_000),
  remoteCuts: sized(3, 10),
  /** G5: bytes of terminal output (RELIABILITY: 1 GiB). */
  terminalOutputBytes: sized(32 * 1024 * 1024, 1024 * 1024 * 1024),
} as const;

/** A test timeout that grows with the size. */
export function timeoutMs(ci: number, full: number): number {
  return sized(ci, full);
}
