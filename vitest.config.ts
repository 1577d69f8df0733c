import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@acp-kit/source'] },
  ssr: { resolve: { conditions: ['@acp-kit/source'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.{ts,tsx}',
      'packages/*/test/**/*.test.{ts,tsx}',
      'scripts/**/*.test.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
  },
});
