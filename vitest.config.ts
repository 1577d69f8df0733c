import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@acp-kit/source'] },
  ssr: { resolve: { conditions: ['@acp-kit/source'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.{ts,tsx}',
      'packages/*/test/**/*.test.{ts,tsx}',
      'scripts/**/*.test.ts',
      'test/battery/**/*.test.ts',
    ],
    // Upper bounds only (tests wait for events, never for time): the tmux end-to-end tests start
    // the app from source and need room on a loaded 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
