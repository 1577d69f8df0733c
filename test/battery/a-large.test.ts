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
 * What the test holds `acp run` to while the goal is not met (docs/performance.md, "Large
 * messages"): the code before the framing, writer and checkpoint changes measured 6.9x at 16 MiB
 * here and 9.5x at 60 MiB in bench/large-message.mjs; after them, 4.9-6.3x and 4.5-4.7x; with the
 * transcript line written around the text (no serialised copy of it), 3.6x and 3.7x. The rest is
 * the protocol client's own (its decoded line and `JSON.parse`'s copy). The figure scatters with
 * the collector's timing: 3.6x to 5.3x in runs of the same code on 2026-11-28 (a CI run at 4.81x),
 * so the bound sits above that scatter and below the 6.3x of the code without those changes.
 */
const BOUND = 5.75;

/** `acp run` (from source, transcript on) with the relay agent running `steps`; its peak RSS. */
async function peakOf(steps: unknown[], expectedChars: number): Promise<number> {
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
    // Every character arrived (ASCII: one byte each), plus the newline that ends the message.
    expect(printed).toBe(expectedChars + 1);
    return memory.peak;
  } finally {
    child.kill('SIGKILL');
    home.cleanup();
  }
}

describe('A4 one large message within the limit', () => {
  it(`acp run, one ${MIB} MiB update: peak RSS over a short turn's is bounded, in messages`, async () => {
    const idle = await peakOf([{ text: 'ok' }], 2);
    const large = await peakOf([{ bigText: CHARS }], CHARS);
    const ratio = Math.round(((large - idle) / CHARS) * 100) / 100;
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
