/**
 * A4 (second part): one large message that is within the limit. `acp run` receives one
 * `agent_message_chunk` of 16 MiB (60 MiB at full size) and prints it; its peak RSS over the
 * same command's peak for a turn of one short chunk, as a multiple of the message (issue 17: the
 * goal is 3; a 60 MiB message took `acp run` to ~9.5x).
 */
import { describe, expect, it } from 'vitest';
import { atMost } from './support/figures.js';
import { Collected, exitOf, makeHome, PeakMemory, spawnAcp } from './support/procs.js';
import { relayCommand, script } from './support/relay.js';
import { sized } from './support/size.js';

const MIB = sized(16, 60);
const CHARS = MIB * 1024 * 1024;
/** Goal of issue 17. */
const GOAL = 3;
/**
 * What the test holds `acp run` to while the figure at this size scatters above the goal
 * (docs/performance.md, "Large messages"). At 60 MiB (bench/large-message.mjs) the goal is met
 * for this text since a long line's read pieces are let go as it is parsed (2.9x; 3.6x before);
 * here at full size 2.85x. At 16 MiB the collector's timing weighs more: 3.06, 4.14, 4.58 and
 * 4.72x in four runs on 2026-11-28 (load 7-8), against 4.76, 5.22 and 5.43x with the pieces kept
 * to the end of the frame as before (the client's trace taking the exact text), and 3.6-5.3x in
 * earlier runs of the code before that. The bound sits above the new scatter and below most of
 * the old. A single pair reached 5.12 once in a loaded CI run (2026-11-29); since each side is
 * the least of two runs, four runs gave 3.16-4.24x idle and 3.12-3.74x with two busy cores.
 */
const BOUND = 5;
/** Runs of each turn (see the test). */
const ROUNDS = 2;

/**
 * `acp run` (from source, transcript on) with the relay agent running `steps`, which print
 * `expectedBytes`; its peak RSS.
 */
async function peakOf(steps: unknown[], expectedBytes: number): Promise<number> {
  const home = makeHome('a4-large');
  const child = spawnAcp(['run', script(steps), '--', ...relayCommand()], {
    cwd: home.work,
    env: home.env,
  });
  const memory = new PeakMemory(child.pid as number);
  let printed = 0;
  child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.length));
  const stderr = new Collected(child.stderr);
  try {
    const exit = await exitOf(child, 240_000);
    memory.stop();
    expect(exit.code, stderr.text.slice(-2000)).toBe(0);
    expect(printed).toBe(expectedBytes);
    return memory.peak;
  } finally {
    child.kill('SIGKILL');
    home.cleanup();
  }
}

describe('A4 one large message within the limit', () => {
  it(`acp run, one ${MIB} MiB update: peak RSS over a short turn's is bounded, in messages`, async () => {
    // Every character arrived (ASCII: one byte each), plus the newline acp run ends a message
    // with when its text does not end with one (the relay's text is lines of 80 characters: at
    // 60 MiB its last line is whole).
    // Each peak depends on when the collector happens to run (one idle turn alone scatters by
    // ~10 MiB, over half a message at 16 MiB): both are measured in alternation, ROUNDS times, and
    // the least of each taken, the same estimate for both sides (a lower idle peak only raises the
    // ratio).
    const idle: number[] = [];
    const large: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      idle.push(await peakOf([{ text: 'ok' }], 3));
      large.push(await peakOf([{ bigText: CHARS }], CHARS + (CHARS % 80 === 0 ? 0 : 1)));
    }
    const ratio = Math.round(((Math.min(...large) - Math.min(...idle)) / CHARS) * 100) / 100;
    atMost(
      {
        case: 'A4',
        name: `acp run, one ${MIB} MiB update: peak RSS over a short turn's`,
        unit: 'x the message',
      },
      ratio,
      GOAL,
    );
    expect(ratio).toBeLessThanOrEqual(BOUND);
  }, 600_000);
});
