/** Paths the terminal UI benchmarks and their floors share. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
/** The scripted agent of the UI's end-to-end tests (plain NDJSON, no dependencies). */
export const SCENARIO_AGENT = join(ROOT, 'packages/tui/src/e2e/fixtures/scenario-agent.mjs');
