/**
 * `acp run` under a flood with its reader stalled (RELIABILITY D1): the run waits for its stdout
 * instead of queueing, and then prints every chunk exactly once, in order.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeCommand, spawnCli, testHome, type TestHome } from './test-support/cli-harness.js';

let home: TestHome;
beforeEach(async () => {
  home = await testHome();
});
afterEach(() => home.cleanup());

describe('acp run with a slow reader', () => {
  it('loses and reorders nothing when its stdout reader stalls during a flood', async () => {
    const chunks = 30_000;
    const child = spawnCli(['run', JSON.stringify([{ flood: chunks }]), '--', ...fakeCommand()], home);
    let out = '';
    let stalled = false;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!stalled && out.length > 10_000) {
        stalled = true;
        // The reader stops for a second: the scenario, not a synchronisation.
        child.stdout.pause();
        setTimeout(() => child.stdout.resume(), 1000);
      }
    });
    // 'close', not 'exit': what the child wrote may still be on its way through the pipe.
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stalled).toBe(true);
    const expected = Array.from({ length: chunks }, (_, i) => `x${i} `).join('');
    expect(out).toBe(`${expected}\n`);
  });
});
