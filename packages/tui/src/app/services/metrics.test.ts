import { describe, expect, it } from 'vitest';
import { TuiMetrics } from './metrics.js';

describe('TuiMetrics', () => {
  it('samples the event-loop delay unless told not to (its timer would be most of a stream’s wakeups)', () => {
    const sampled = TuiMetrics.fromEnv({ ACP_KIT_TUI_METRICS_FILE: '/dev/null' });
    const quiet = TuiMetrics.fromEnv({
      ACP_KIT_TUI_METRICS_FILE: '/dev/null',
      ACP_KIT_TUI_METRICS_LOOP: 'off',
    });
    expect(sampled?.report().eventLoopDelayMs).toEqual(expect.objectContaining({ p99: expect.any(Number) }));
    expect(quiet?.report().eventLoopDelayMs).toBeUndefined();
    expect(quiet?.report().cpuMs.user).toEqual(expect.any(Number));
    sampled?.mark('quit');
    quiet?.mark('quit');
    expect(quiet?.report().rssAtQuitMb).toBeGreaterThan(0);
    expect(quiet?.report().memoryAtQuitMb?.heapUsed).toBeGreaterThan(0);
  });

  it('samples the first turn’s progress unless told not to (its timer wakes a paced stream as often as its frames)', () => {
    const sampled = TuiMetrics.fromEnv({ ACP_KIT_TUI_METRICS_FILE: '/dev/null' });
    const quiet = TuiMetrics.fromEnv({
      ACP_KIT_TUI_METRICS_FILE: '/dev/null',
      ACP_KIT_TUI_METRICS_PROGRESS: 'off',
    });
    for (const metrics of [sampled, quiet]) {
      metrics?.mark('first-prompt');
      metrics?.sampleProgress(() => 3);
    }
    expect(sampled?.report().progress).toEqual([[expect.any(Number), expect.any(Number), 3]]);
    expect(quiet?.report().progress).toEqual([]);
    // The quit clears the sampled one's timer; the quiet one reports without ever having had one.
    sampled?.mark('quit');
    quiet?.mark('quit');
    expect(quiet?.report().cpuSinceFirstPromptMs).toEqual(expect.any(Number));
  });
});
