/* global setInterval, clearInterval */
/**
 * Processes measured from outside (Linux: /proc): `acp run` (the built CLI, transcript and trace
 * on) with the raw flooding agent of `bench/impl/raw-agent.js`, or any command. Shared by the
 * `acp run` suites (bench/run-flood.mjs, bench/large-message.mjs).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT } from './verdict.mjs';

export const AGENT = join(ROOT, 'bench/impl/raw-agent.js');
const ACP = join(ROOT, 'packages/cli/bin/acp.cjs');

const TICKS_PER_SECOND = 100;

/**
 * Samples a process's own peak RSS (`VmHWM` in /proc/PID/status) and CPU (utime + stime in
 * /proc/PID/stat) every 20 ms until it exits: its own figures, never its children's (GNU time's
 * would include the agent it runs).
 */
export function sampler(pid) {
  const last = { rssKiB: 0, cpuTicks: 0 };
  const read = () => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const hwm = /VmHWM:\s+(\d+)/.exec(status);
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (hwm) last.rssKiB = Math.max(last.rssKiB, Number(hwm[1]));
      last.cpuTicks = Math.max(last.cpuTicks, Number(fields[11]) + Number(fields[12]));
    } catch {
      // Gone: the last sample stands.
    }
  };
  const timer = setInterval(read, 20);
  return {
    stop() {
      clearInterval(timer);
      return { rssMiB: last.rssKiB / 1024, cpuS: last.cpuTicks / TICKS_PER_SECOND };
    },
  };
}

/** Runs `argv`, sampling it; resolves with its CPU, peak RSS and what it printed on stdout. */
export function measured(argv, { env = process.env, stallMs = 0 } = {}) {
  const child = spawn(argv[0], argv.slice(1), { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const samples = sampler(child.pid);
  let bytes = 0;
  let tail = '';
  let stalled = false;
  child.stdout.on('data', (chunk) => {
    bytes += chunk.length;
    tail = (tail + chunk.toString('latin1')).slice(-4096);
    if (stallMs > 0 && !stalled) {
      stalled = true;
      child.stdout.pause();
      setTimeout(() => child.stdout.resume(), stallMs);
    }
  });
  const started = performance.now();
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const { rssMiB, cpuS } = samples.stop();
      if (code !== 0) reject(new Error(`${argv.join(' ')} exited with ${code}: ${tail.slice(-500)}`));
      else resolve({ cpuS, rssMiB, wallS: (performance.now() - started) / 1000, bytes, tail });
    });
  });
}

/** `acp run` with the flood agent (`lines`: its text broken into lines of 80 characters). */
export async function acpRun(n, size, { mode = 'await', stallMs = 0, lines = false } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'acp-run-flood-'));
  const env = {
    ...process.env,
    ACP_KIT_CONFIG_DIR: join(home, 'config'),
    ACP_KIT_DATA_DIR: join(home, 'data'),
  };
  try {
    const prompt = `flood ${n} ${size}${lines ? ' lines' : ''}`;
    const args = [process.execPath, ACP, 'run', prompt, '--', process.execPath, AGENT, mode];
    const result = await measured(args, { env, stallMs });
    const expected = n * size + (n > 0 ? 1 : 0);
    if (result.bytes !== expected)
      throw new Error(`acp run printed ${result.bytes} bytes, expected ${expected}`);
    return result;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
