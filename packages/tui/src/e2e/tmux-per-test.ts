/**
 * The tmux runs of a test file, one test at a time: after each test its UI is closed and the
 * directories it kept are removed (they outlive a relaunch within the test).
 */
import { rmSync } from 'node:fs';
import { afterEach } from 'vitest';
import { scenarioEnv, TuiHarness, type HarnessDirs, type LaunchOptions } from './tmux-harness.js';

/** See {@link tmuxPerTest}. */
export interface TmuxPerTest {
  /** Keeps `dirs` for the current test: its launches run there, and they are removed after it. */
  keep(dirs: HarnessDirs): HarnessDirs;
  /**
   * Launches the UI (closed after the test): in the kept directories, with the scripted agent's
   * environment, if the test kept some; otherwise in directories of its own.
   */
  launch(options?: LaunchOptions): TuiHarness;
}

/**
 * Registers the cleanup of a test file's tmux runs (call it at the top level of the file).
 *
 * @example
 * const tmux = tmuxPerTest();
 * it('…', async () => {
 *   tmux.keep(makeScenarioDirs());
 *   const h = tmux.launch({ args: ['--agent', 'scenario'] });
 * });
 */
export function tmuxPerTest(): TmuxPerTest {
  let harness: TuiHarness | undefined;
  let dirs: HarnessDirs | undefined;
  afterEach(() => {
    harness?.close();
    harness = undefined;
    if (dirs) rmSync(dirs.root, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
    dirs = undefined;
  });
  return {
    keep(kept) {
      dirs = kept;
      return kept;
    },
    launch(options = {}) {
      harness = TuiHarness.launch(
        dirs ? { ...options, dirs, env: { ...scenarioEnv(dirs), ...options.env } } : options,
      );
      return harness;
    },
  };
}
