/**
 * `node bench/client-stream.js [--chunks 5000] [--rates 250,0] [--runs 3] [--coalesce-reads 100]` (after `npm run build`)
 *
 * The client engine's share of a streamed answer, without any UI: `AcpClient` (transcript and
 * wire trace on, as in `acp`) against the scripted agent of the terminal UI's end-to-end tests,
 * which streams N Markdown chunks at a rate in chunks per second (0: as fast as the pipe takes
 * them). Prints the engine process's CPU time (user + system) for the turn, median of the runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, URL } from 'node:url';
import { AcpClient, INTERACTIVE_READ_PACING_MS } from '@acp-kit/client';
import { median, option } from './common.js';

const CHUNKS = Number(option('--chunks', 5000));
const RATES = String(option('--rates', '250,0')).split(',').map(Number);
const RUNS = Number(option('--runs', 3));
/** Read pacing (`coalesceReadsMs`), as `acp` and `acp run` use it; 0 turns it off. */
const PACING = Number(option('--coalesce-reads', INTERACTIVE_READ_PACING_MS));
const AGENT = fileURLToPath(new URL('../packages/tui/src/e2e/fixtures/scenario-agent.mjs', import.meta.url));

async function once(rate) {
  const root = mkdtempSync(join(tmpdir(), 'acp-bench-stream-'));
  const env = {
    ...process.env,
    ACP_KIT_CONFIG_DIR: join(root, 'config'),
    ACP_KIT_DATA_DIR: join(root, 'data'),
  };
  const client = await AcpClient.create({ env, mode: 'all', coalesceReadsMs: PACING });
  try {
    const agent = await client.connect(
      { id: 'scenario', name: 'Scenario', source: 'user', command: process.execPath, args: [AGENT] },
      { cwd: root },
    );
    const session = await agent.newSession({ cwd: root });
    const before = process.cpuUsage();
    const started = performance.now();
    await session.prompt([`stream ${CHUNKS} ${rate}`]);
    await session.close();
    const cpu = process.cpuUsage(before);
    return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - started };
  } finally {
    await client.close();
    rmSync(root, { recursive: true, force: true });
  }
}

for (const rate of RATES) {
  const results = [];
  for (let run = 0; run < RUNS; run++) results.push(await once(rate));
  const label = rate === 0 ? 'flood' : `${rate}/s`;
  console.log(
    `${CHUNKS} chunks, ${label}, read pacing ${PACING} ms: engine CPU median ${median(results.map((r) => r.cpuMs)).toFixed(0)} ms ` +
      `(runs: ${results.map((r) => r.cpuMs.toFixed(0)).join(', ')}), wall ${median(results.map((r) => r.wallMs)).toFixed(0)} ms`,
  );
}
