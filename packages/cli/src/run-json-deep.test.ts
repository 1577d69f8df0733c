import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeCommand, jsonLines, runCli, testHome, type TestHome } from './test-support/cli-harness.js';

let home: TestHome;
beforeEach(async () => {
  home = await testHome();
});
afterEach(() => home.cleanup());

describe('acp run --format json with pathological updates', () => {
  it('prints an update nested 20,000 levels deep instead of dropping it', async () => {
    const depth = 20_000;
    const prompt = JSON.stringify([{ deepUpdate: depth }, { text: 'after' }]);
    const r = await runCli(['run', '--format', 'json', prompt, '--', ...fakeCommand()], home);
    expect(r.code).toBe(0);
    const updates = jsonLines(r.stdout).filter((line) => line.type === 'update');
    const deep = updates.find((line) => 'meta' in (line.update as object));
    let level: unknown = (deep?.update as { meta?: { deep?: unknown } } | undefined)?.meta?.deep;
    let count = 0;
    while (Array.isArray(level)) {
      level = level[0];
      count++;
    }
    expect({ count, level }).toEqual({ count: depth, level: 'bottom' });
    expect(jsonLines(r.stdout).at(-1)).toMatchObject({ type: 'result', stopReason: 'end_turn' });
  });
});
