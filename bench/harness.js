/**
 * The client-side driver shared by the three implementations, so that all of them are timed the
 * same way. Usage (run by bench/protocol.js): `node bench/impl/<impl>-client.js <throughput|rtt> <n>`.
 * Prints one JSON line with the result on stdout.
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { RTT_WARMUP, peakRssKiB, percentile } from './common.js';

/**
 * @typedef {object} Adapter
 * @property {() => Promise<unknown>} initialize
 * @property {() => Promise<unknown>} newSession
 * @property {(n: number) => Promise<string>} prompt resolves with the stop reason
 * @property {() => Promise<unknown>} setMode
 * @property {() => Promise<void>} close closes the connection and waits for the agent to exit
 */

/**
 * @param {string} impl
 * @param {(opts: { agentScript: string, onUpdate: (params: any) => void }) => Promise<Adapter>} open
 * @param {string} agentScript absolute path of the agent process script
 */
export async function runClient(impl, open, agentScript) {
  const scenario = process.argv[2];
  const n = Number(process.argv[3]);
  if ((scenario !== 'throughput' && scenario !== 'rtt') || !(n > 0)) {
    throw new Error(`usage: <client> throughput|rtt <n> (got ${process.argv.slice(2).join(' ')})`);
  }
  const statsFile = join(tmpdir(), `acp-bench-agent-${process.pid}.json`);
  rmSync(statsFile, { force: true });
  // Inherited by the agent process we spawn.
  process.env.BENCH_AGENT_STATS = statsFile;

  let received = 0;
  let textChars = 0;
  const onUpdate = (params) => {
    received++;
    textChars += params.update.content.text.length;
  };

  const adapter = await open({ agentScript, onUpdate });
  await adapter.initialize();
  await adapter.newSession();

  const result = { impl, scenario, n };
  if (scenario === 'throughput') {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const stopReason = await adapter.prompt(n);
    const elapsedMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    if (stopReason !== 'end_turn') throw new Error(`${impl}: unexpected stop reason ${stopReason}`);
    if (received !== n) throw new Error(`${impl}: received ${received} of ${n} updates before the response`);
    if (textChars !== n * 60) throw new Error(`${impl}: received ${textChars} text characters`);
    Object.assign(result, {
      elapsedMs,
      msgsPerSec: n / (elapsedMs / 1000),
      clientCpuUsPerOp: (cpu.user + cpu.system) / n,
    });
  } else {
    for (let i = 0; i < RTT_WARMUP; i++) await adapter.setMode();
    const lat = new Float64Array(n);
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await adapter.setMode();
      lat[i] = performance.now() - t;
    }
    const cpu = process.cpuUsage(cpu0);
    lat.sort();
    let sum = 0;
    for (const v of lat) sum += v;
    Object.assign(result, {
      p50Ms: percentile(lat, 50),
      p99Ms: percentile(lat, 99),
      meanMs: sum / n,
      clientCpuUsPerOp: (cpu.user + cpu.system) / n,
    });
  }
  result.clientMaxRssKiB = peakRssKiB();
  await adapter.close();
  try {
    const stats = JSON.parse(readFileSync(statsFile, 'utf8'));
    result.agentMaxRssKiB = stats.maxRssKiB;
    // Counted from session/new to the agent's exit: the timed part plus the round-trip warm-up.
    result.agentCpuUsPerOp = stats.cpuUs / (scenario === 'rtt' ? n + RTT_WARMUP : n);
  } catch {
    result.agentMaxRssKiB = null;
    result.agentCpuUsPerOp = null;
  }
  rmSync(statsFile, { force: true });
  process.stdout.write(JSON.stringify(result) + '\n');
}
